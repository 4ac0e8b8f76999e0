"""Element ids and CSS classes per layout variant.

The "alt" variant renames every id and class (and moves things around in the
templates) while labels and accessible names stay the same, so clients that
use labels and roles keep working and clients that use CSS selectors break.
"""

from __future__ import annotations

__all__ = ["ui_names"]

_NAMES = (
    "header", "brand", "nav", "nav_active", "main", "card", "btn", "btn_primary",
    "alert", "notice", "field", "grid_wrap", "grid", "free", "busy", "mine", "legend",
    "table", "muted", "filters", "footer", "swatch", "logo", "uni", "sub", "who", "crumbs",
    "summary", "status", "actions", "login_box", "hint", "room_num", "room_meta", "page",
)  # fmt: skip
_IDS = (
    "username", "password", "building", "date", "grid", "purpose", "attendees",
    "start", "end", "ack", "book_date", "grid_title", "my_title", "notice_title",
)  # fmt: skip

_DEFAULT = {name: name.replace("_", "-") for name in _NAMES} | {
    f"id_{name}": name.replace("_", "-") for name in _IDS
}
_ALT = {name: f"ux{i}-{name[:3]}" for i, name in enumerate(_NAMES)} | {
    f"id_{name}": f"fld-{i:02d}x" for i, name in enumerate(_IDS)
}


def ui_names(layout: str) -> dict[str, str]:
    """Class names (``ui.grid``) and element ids (``ui.id_building``) for a layout."""
    return _ALT if layout == "alt" else _DEFAULT
