"""A bot process for crash tests: the real core, scenarios and browser on shared storage.

    python -m tests.support.booking_child MONGO REDIS DB PORTAL start|resume [TEXT]

``start`` handles TEXT as chat 100's command; ``resume`` only starts (resuming what was
running). Either way it exits 0 once no run of chat 100 is active.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from pydantic import SecretStr

from adapters.refportal import RefPortal
from core.app import build_core
from core.booking.catalogue import Catalogues
from core.browser import BrowserPool
from core.commands import Command
from core.output import Output
from core.settings import load_settings
from core.vault import CredentialVault
from scenarios.booking import PortalAccount, PortalWork
from scenarios.registry import all_scenarios
from storage import open_storage
from tests.support.catalogues import REFPORTAL_CATALOGUE


class PrintSink:
    async def deliver(self, output: Output) -> None:
        print(output.kind, getattr(output, "text", ""), flush=True)


async def main(mongo: str, redis: str, db: str, portal: str, mode: str, *, text: str) -> None:
    async with (
        open_storage(
            mongodb_uri=mongo, redis_url=redis, data_dir=Path(tempfile.mkdtemp()), db_name=db
        ) as storage,
        BrowserPool(max_contexts=2) as pool,
    ):
        account = PortalAccount(username="club", password=SecretStr("club-demo"))
        work = PortalWork(
            pool=pool,
            system=RefPortal(portal),
            account=account,
            vault=CredentialVault(storage, None),
        )
        scenarios = all_scenarios(
            work=work,
            catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE),
            preferences=storage.preferences,
        )
        async with build_core(
            load_settings(),
            storage,
            PrintSink(),
            catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE),
            scenarios=scenarios,
        ) as core:
            if mode == "start":
                await core.handle(Command(chat_id=100, user_id=100, text=text))
            while await storage.runs.active_for_chat(100):
                await asyncio.sleep(0.2)
            await core.runner.wait_idle()
    print("finished", flush=True)


if __name__ == "__main__":
    mongo, redis, db, portal, mode, *rest = sys.argv[1:]
    asyncio.run(main(mongo, redis, db, portal, mode, text=rest[0] if rest else ""))
