"""The seed (scripts/indico/seed.json) as Indico's database holds it: what other tests assume."""

from __future__ import annotations

from tests.support.indico_server import IndicoServer


def test_seeded_data_is_there(indico_server: IndicoServer) -> None:
    rooms = {room.name: room for room in indico_server.rooms()}
    assert {room.building for room in rooms.values()} == {"7", "Библиотека", "3"}
    assert [rooms[f"7/7-70{n}"].floor for n in range(1, 7)] == ["7"] * 6
    assert len({rooms[f"7/7-70{n}"].capacity for n in range(1, 7)}) == 6
    assert [r.name for r in rooms.values() if r.needs_confirmation] == ["3/2-202"]
    assert all(r.is_reservable and r.max_advance_days == 30 for r in rooms.values())
    seeded = [b for b in indico_server.bookings() if b.id in indico_server.seeded]
    assert len(seeded) == 4
    assert all(b.booked_for_id == indico_server.other.id for b in seeded)
    assert all(b.start.date() > indico_server.seeded_on for b in seeded)
    assert {"admin", "club", "other"} <= indico_server.accounts.keys()
