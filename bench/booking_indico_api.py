"""Part 3 of ``bench/booking.py`` (``--system indico``): one room of building 7 booked on a
real Indico 3.2.9 through the scenario on ``IndicoSystem``, next to a bare script on
Indico's own JSON endpoints; then the profile adapter's part (``bench/booking_indico.py``)."""

from __future__ import annotations

import re
import statistics
import time
from datetime import date
from typing import TYPE_CHECKING

from adapters.indico import IndicoSystem
from bench.booking_indico import part_indico_profile
from bench.booking_rig import (
    Recorder,
    core_on,
    day_ahead,
    listed,
    memory_storage,
    run_command,
    two_hour_slots,
)
from core.browser import BrowserPool
from storage import Storage
from tests.support.indico_server import IndicoServer

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext


__all__ = ["indico_script_booking", "on_indico", "part_indico"]


_INDICO_CSRF = re.compile(r'<meta name="csrf-token" id="csrf-token" content="([^"]+)"')


async def indico_script_booking(
    context: BrowserContext,
    url: str,
    account: tuple[str, str],
    day: date,
    start: str,
    end: str,
    *,
    login: bool,
) -> float:
    """One room of building 7 as a bare script: Indico's login page in the browser (or the
    saved cookies), then the JSON endpoints Indico's own room booking app calls."""
    began = time.perf_counter()
    if login:
        page = await context.new_page()
        await page.goto(f"{url}/login/")
        await page.fill("#identifier", account[0])
        await page.fill("#password", account[1])
        async with page.expect_navigation():
            await page.click("button.login-form-button")
        html = await page.content()
        await page.close()
    else:
        html = await (await context.request.get(f"{url}/")).text()
    found = _INDICO_CSRF.search(html)
    assert found is not None, "not logged in"
    api = context.request
    # Non-GET calls need the page's CSRF token; the XHR header makes errors JSON.
    headers = {"X-CSRF-Token": found[1], "X-Requested-With": "XMLHttpRequest"}
    rooms = await (await api.get(f"{url}/rooms/api/rooms/", headers=headers)).json()
    ids = sorted(int(r["id"]) for r in rooms if r["building"] == "7")
    span: dict[str, str | float | bool] = {
        "start_dt": f"{day.isoformat()}T{start}:00",
        "end_dt": f"{day.isoformat()}T{end}:00",
        "repeat_frequency": "NEVER",
        "repeat_interval": 1,
    }
    timeline = await api.post(
        f"{url}/rooms/api/timeline", params=span, data={"room_ids": ids}, headers=headers
    )
    free = [
        int(room_id)
        for room_id, entry in (await timeline.json())["availability"]
        if entry["candidates"].get(day.isoformat())
    ]
    body = span | {"room_id": min(free), "repeat_interval": 0, "reason": "bench"}
    made = await api.post(
        f"{url}/rooms/api/booking/create",
        data=body | {"is_prebooking": False},
        headers=headers,
    )
    assert made.ok, await made.text()
    booking_id = (await made.json())["booking"]["id"]
    mine = await api.post(
        f"{url}/rooms/api/bookings/active",
        params={"my_bookings": "true", "start_dt": f"{day.isoformat()}T00:00:00"},
        data={},
        headers=headers,
    )
    listed = {o["reservation"]["id"] for d in (await mine.json())["bookings"].values() for o in d}
    assert booking_id in listed
    return time.perf_counter() - began


async def part_indico(storage: Storage, server: IndicoServer, repeat: int, rounds: int) -> None:
    """As part 1, on Indico: the scenario and the bare script interleaved, each on its
    own day and slot so that none competes for a room; then the profile adapter's part,
    ``rounds`` times."""
    rec = Recorder()
    slots = two_hour_slots(repeat)
    account = (server.club.username, server.club.password)
    system = IndicoSystem(server.base_url)
    runs: dict[str, list[float]] = {k: [] for k in ("cold", "warm", "s_cold", "s_warm")}
    async with BrowserPool() as pool:
        await pool.browser()
        # Indico's first requests import and compile its code (seconds): one unmeasured
        # booking warms it, so that the first measured run does not pay for it.
        async with pool.context() as context:
            await indico_script_booking(
                context, server.base_url, account, day_ahead(4), *slots[0], login=True
            )
        async with core_on(
            storage, server.base_url, pool, rec, system=system, account=account
        ) as core:
            for n in range(repeat):  # user n logs in, then books again on its saved session
                for key, chat, (start, end) in (
                    ("cold", 1 + n, slots[2 * n]),
                    ("warm", 101 + n, slots[2 * n + 1]),
                ):
                    text = (
                        f"забронируй аудиторию в 7 корпусе {day_ahead(2):%d.%m} с {start} до {end}"
                    )
                    runs[key].append(await run_command(core, rec, chat, 1 + n, text))
                async with pool.context() as context:
                    runs["s_cold"].append(
                        await indico_script_booking(
                            context,
                            server.base_url,
                            account,
                            day_ahead(3),
                            *slots[2 * n],
                            login=True,
                        )
                    )
                    state = await context.storage_state()
                async with pool.context(storage_state=dict(state)) as context:
                    runs["s_warm"].append(
                        await indico_script_booking(
                            context,
                            server.base_url,
                            account,
                            day_ahead(3),
                            *slots[2 * n + 1],
                            login=False,
                        )
                    )
    med = {k: statistics.median(v) for k, v in runs.items()}
    print(f"1) one room of building 7 on Indico 3.2.9, one user (median of {repeat})")
    for first_chat, label in ((1, "first login"), (101, "saved session")):
        chats = [first_chat + n for n in range(repeat)]
        names = list(rec.steps[first_chat])
        steps = {k: statistics.median(rec.steps[c].get(k, 0.0) for c in chats) for k in names}
        shown = ", ".join(f"{k} {v:.2f}" for k, v in steps.items())
        key = "cold" if first_chat == 1 else "warm"
        print(
            f"   steps, {label:13s} {shown}; outside steps {med[key] - sum(steps.values()):.2f} s"
        )
    print(f"   scenario, first login     {med['cold']:7.2f} s   (runs: {listed(runs['cold'])})")
    print(f"   scenario, saved session   {med['warm']:7.2f} s   (runs: {listed(runs['warm'])})")
    print(f"   JSON script, login        {med['s_cold']:7.2f} s   (runs: {listed(runs['s_cold'])})")
    print(f"   JSON script, saved        {med['s_warm']:7.2f} s   (runs: {listed(runs['s_warm'])})")
    cold, warm = med["cold"] / med["s_cold"], med["warm"] / med["s_warm"]
    print(f"   ratio scenario/script     {cold:7.2f}x  (first login; what the framework adds)")
    print(f"   ratio scenario/script     {warm:7.2f}x  (saved session)")
    print(f"   LLM calls                 {rec.llm_calls:7d}   (must be 0)")
    print("   (the adapter books through Indico's JSON endpoints only: no browser-page line)")
    for line in rec.failed:
        print(f"   ! {line}")

    async with BrowserPool() as pool:
        await pool.browser()
        await part_indico_profile(storage, server, pool, rounds)


async def on_indico(server: IndicoServer, repeat: int, rounds: int = 0) -> None:
    """Part 3 on a running Indico (the tests pass the session's own: another costs ~40 s);
    the profile adapter's part runs ``rounds`` times (0: ``repeat``)."""
    async with memory_storage() as storage:
        await part_indico(storage, server, repeat, rounds or repeat)
