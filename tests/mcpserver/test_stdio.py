"""``clubman mcp`` on stdio, driven by the SDK's own client: the tools and their schemas,
finding rooms, booking two adjacent rooms in two steps (checked on the portal), the same
confirmation twice booking once, cancelling, and bad input refused with nothing booked."""

from __future__ import annotations

import json

from core.agent import FoundRooms
from tests.mcpserver.conftest import World
from tests.mcpserver.support import booking_day, call, clubman, stdio_session

USER = 501
TOOLS = {
    "find_rooms", "book_rooms", "my_bookings", "cancel_booking", "run_status",
    "list_schedules", "create_schedule",
}  # fmt: skip


async def test_tools_catalogue_and_free_rooms(world: World) -> None:
    token = clubman(world.env, "mcp-token", str(USER))
    env = world.env | {"CLUBMAN_MCP_TOKEN": token}
    async with stdio_session(env, world.tmp) as session:
        listed = (await session.list_tools()).tools
        assert {tool.name for tool in listed} == TOOLS
        book = next(tool for tool in listed if tool.name == "book_rooms")
        assert book.input_schema["required"] == ["query"]
        assert "plan" in (book.output_schema or {})["properties"]

        read = await session.read_resource("clubman://catalogue")
        catalogue = json.loads(read.contents[0].text)  # type: ignore[union-attr]
        assert {b["code"] for b in catalogue["buildings"]} == {"main", "chaikovsky", "lab"}

        query = {
            "date": booking_day().isoformat(), "start": "18:00", "end": "20:00",
            "building": "main", "rooms": 2, "adjacent": True,
        }  # fmt: skip
        found = await call(session, "find_rooms", FoundRooms, query=query)
        [main] = found.buildings
        assert main.building == "main" and len(main.suggested) == 2
        first, second = sorted(int(n) for n in main.suggested)
        assert second == first + 1
        assert set(main.suggested) <= {room.number for room in main.free}
