"""A profile's paths stay on its site: ``SitePath`` (a ``may_change`` entry) and
``site_address`` (the start of an address template), checked at load, and ``on_site``,
the one way a ``may_change`` path is joined to the site's address.

A path was once glued to the site's address as text, so «.evil.example/x» became
``https://site.example.evil.example/x``, «:8443/book» another port, and «//evil/x» or
«http://evil/x» another host, and the network guard let a change go there. A path here
is absolute and nothing else: one «/» first, no scheme, no «\\» (a browser reads
«/\\evil» as «//evil»), no space or control character; and the join checks that what
it made has the site's own scheme, host and port.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import BeforeValidator

__all__ = ["SitePath", "on_site", "site_address", "site_path"]


def site_address(text: str) -> str:
    """``text`` (a template of an address on the site) when it starts as a path does."""
    if not text.startswith("/") or text.startswith("//") or "\\" in text:
        raise ValueError(
            f"«{text}» is not an address on the site: write it from one «/», as "
            "«/book?room={room_id|url}» (no host, port or scheme: the site's own address "
            "goes before it)"
        )
    return text


def site_path(value: Any) -> str:
    """``value`` when it is a path on the site («/book»); ``ValueError`` saying why not."""
    if not isinstance(value, str):
        raise ValueError("a path must be text, as «/book»")
    if not value.startswith("/") or value.startswith("//"):
        raise ValueError(
            f"«{value}» is not a path on the site: write it from one «/», as «/book» "
            "(no host, port or scheme: a change may go to the site's own address only)"
        )
    if "\\" in value or any(c.isspace() or not c.isprintable() for c in value):
        raise ValueError(f"«{value}» is not a path on the site: no «\\», space or control")
    return value


SitePath = Annotated[str, BeforeValidator(site_path)]


def on_site(base_url: str, path: str) -> str:
    """``path`` on the site at ``base_url`` (a path under the address's own, if it has
    one); ``ValueError`` when it is not a path or the result is not on that site."""
    site_path(path)
    joined = base_url.rstrip("/") + path
    made, base = urlsplit(joined), urlsplit(base_url)
    if (made.scheme, made.netloc) != (base.scheme, base.netloc):
        raise ValueError(f"«{path}» leads off the site {base_url}")
    return joined
