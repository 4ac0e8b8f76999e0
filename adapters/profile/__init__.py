"""Any booking site described by a site profile (``profiles/*.yaml``), as a
``scenarios.booking.port.BookingSystem``: one interpreter, no code of any one site.

``load_site_profile`` reads and checks a profile (``ProfileInvalid`` naming the line);
``ProfileSystem`` opens ``ProfileSession``s that drive the site's pages by it.
"""

from __future__ import annotations

from adapters.profile.errors import ProfileError, ProfileInvalid, ProfileMismatch
from adapters.profile.loader import LoadedProfile, load_site_profile, parse_site_profile
from adapters.profile.model import SiteProfile
from adapters.profile.session import ProfileSession
from adapters.profile.system import ProfileSystem

__all__ = [
    "LoadedProfile",
    "ProfileError",
    "ProfileInvalid",
    "ProfileMismatch",
    "ProfileSession",
    "ProfileSystem",
    "SiteProfile",
    "load_site_profile",
    "parse_site_profile",
]
