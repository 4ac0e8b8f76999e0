"""How the test processes (pytest-xdist) share the tests out.

A module goes to one process as a whole, so the sites, servers and browsers its module-
and package-wide fixtures start are started once. Every test of the real Indico goes to
one process: a second Indico would cost ~40 s to start, and the Indico tests count what
is booked there, which another process's bookings would upset. A test is Indico's when
its id names Indico (``tests/adapters/indico/…``, ``tests/indico/…``,
``test_the_indico_benchmark…``); a stray one elsewhere would only start its own Indico.

xdist's ``--dist loadgroup`` would say this with marks, but it loses them with pytest 9.2
(pytest-dev/pytest-xdist#1386), so the scheduler says it by the test ids.
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

__all__ = ["ModulesAndOneIndico"]

INDICO = "indico"


class ModulesAndOneIndico(LoadScopeScheduling):
    def _split_scope(self, nodeid: str) -> str:
        if INDICO in nodeid.lower():
            return INDICO
        return nodeid.split("::", 1)[0]
