"""The catalogue as the agent API shows it (the MCP server's catalogue resource)."""

from __future__ import annotations

from core.site.models import Catalogue, Room
from scenarios.booking.agent.models import BuildingInfo, CatalogueView, RoomInfo, RulesInfo

__all__ = ["catalogue_view", "room_info"]


def room_info(room: Room) -> RoomInfo:
    return RoomInfo(
        number=room.number, building=room.building, floor=room.floor, capacity=room.capacity
    )


def catalogue_view(catalogue: Catalogue) -> CatalogueView:
    rules = catalogue.rules
    return CatalogueView(
        system=catalogue.system,
        buildings=[
            BuildingInfo(
                code=b.code,
                name=b.name,
                name_en=b.name_en,
                rooms=[room_info(r) for r in catalogue.rooms_in(b.code) if not r.needs_approval],
            )
            for b in catalogue.buildings
        ],
        rules=RulesInfo(
            opens=rules.opens,
            closes=rules.closes,
            step_minutes=rules.step_minutes,
            longest_minutes=rules.longest_minutes,
            horizon_days=catalogue.longest_horizon(),
        ),
    )
