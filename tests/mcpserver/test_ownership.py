"""Over MCP, as in a group (issue 26): users without ``/login`` share the club's account,
yet each lists and cancels only what their own requests booked; a club administrator
(``TELEGRAM__ADMINS``) lists and cancels anyone's. Three ``clubman mcp`` processes on the
reference portal, checked on the portal's ``/_test/bookings``."""

from __future__ import annotations

from scenarios.booking.agent import BookingAnswer, BookingInfo, CancelAnswer
from tests.mcpserver.conftest import World
from tests.mcpserver.support import booking_day, call, call_error, clubman, stdio_session
from tests.support.portal import portal_bookings

ANNA, BORIS, VERA = 501, 502, 503  # Вера administers the club
QUERY = {
    "date": booking_day().isoformat(), "start": "18:00", "end": "20:00",
    "building": "main", "rooms": 1,
}  # fmt: skip


def _env(world: World, user_id: int) -> dict[str, str]:
    env = world.env | {"TELEGRAM__ADMINS": str(VERA)}
    return env | {"CLUBMAN_MCP_TOKEN": clubman(env, "mcp-token", str(user_id))}


async def test_a_member_lists_and_cancels_only_their_own_bookings(world: World) -> None:
    async with stdio_session(_env(world, ANNA), world.tmp) as anna:
        offer = await call(anna, "book_rooms", BookingAnswer, query=QUERY)
        confirm = {"query": QUERY, "confirm_token": offer.confirm_token}
        booked = await call(anna, "book_rooms", BookingAnswer, **confirm)
        assert booked.run is not None and booked.run.state == "done", booked.run
        [mine] = await call(anna, "my_bookings", list[BookingInfo])
    assert [b["room_number"] for b in await portal_bookings(world.portal, user="club")] == [
        mine.room
    ]

    async with stdio_session(_env(world, BORIS), world.tmp) as boris:
        assert await call(boris, "my_bookings", list[BookingInfo]) == []
        refused = await call_error(boris, "cancel_booking", number=mine.number)
        assert f"no live booking {mine.number} of yours" in refused
    assert len(await portal_bookings(world.portal, user="club")) == 1

    async with stdio_session(_env(world, VERA), world.tmp) as vera:
        assert [b.number for b in await call(vera, "my_bookings", list[BookingInfo])] == [
            mine.number
        ]
        offer_cancel = await call(vera, "cancel_booking", CancelAnswer, number=mine.number)
        confirmed = {"number": mine.number, "confirm_token": offer_cancel.confirm_token}
        cancelled = await call(vera, "cancel_booking", CancelAnswer, **confirmed)
        assert cancelled.run is not None and cancelled.run.state == "done", cancelled.run
    assert await portal_bookings(world.portal, user="club") == []
