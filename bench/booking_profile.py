"""``bench/booking.py --system profile``: three adjacent rooms booked through the scenario
on the reference portal by the profile adapter (``profiles/refportal.yaml``: on its fast
path, the form's own POST through the logged-in context; and on the page path, the same
file without ``book.request``), next to the bare Playwright script doing the job's
navigations, and plain HTTP requests (the hand-written adapter it was once set against is
gone: ``PORTAL__KIND=refportal`` runs this profile). Interleaved per
round (each on its own day, so none competes for rooms); the first round of each logs in
and is left out of the medians (it measures the login, not the adapter). Goals: the page
path <= 1.1x the bare script; the fast path <= 3x plain HTTP (issue 29). The fast path is
shown twice: the whole run through the core, and the adapter's own calls in it (logging
in, the day, booking, «my bookings»; as ``booking_legacy`` times its adapter), which is
what plain HTTP does the job of; the rest is the core's (parsing, checkpoints, events).
So is the page path, its calls set against the script from its page on (neither then
counts its browser context), as the legacy site's bench and Indico's set them.
"""

from __future__ import annotations

import statistics
import time
from datetime import date, timedelta
from pathlib import Path

from adapters.profile import ProfileSystem, load_site_profile, parse_site_profile
from bench.adapter_time import TimedSystem
from bench.booking_refportal import http_booking, script_booking
from bench.booking_rig import Recorder, core_on, run_command
from core.browser import BrowserPool
from storage import Storage
from tests.support.drift import page_path_only

__all__ = ["part_profile"]

PROFILE = Path(__file__).parents[1] / "profiles" / "refportal.yaml"


def _slot(n: int) -> tuple[str, str]:
    return f"{8 + 2 * (n % 6):02d}:00", f"{10 + 2 * (n % 6):02d}:00"


def _text(day: date, start: str, end: str) -> str:
    return f"забронируй 3 аудитории рядом в главном {day:%d.%m} с {start} до {end}"


async def part_profile(storage: Storage, url: str, repeat: int) -> None:
    rec = Recorder()
    runs: dict[str, list[float]] = {
        "profile": [], "adapter": [], "page": [], "page_adapter": [],
        "script": [], "pages": [], "http": [],
    }  # fmt: skip
    today = date.today()
    async with BrowserPool() as pool:
        await pool.browser()
        profile_system = TimedSystem(ProfileSystem(url, load_site_profile(PROFILE)))
        page_text = page_path_only(PROFILE.read_text(encoding="utf-8"))
        page_system = TimedSystem(ProfileSystem(url, parse_site_profile(page_text, "page.yaml")))
        async with (
            core_on(storage, url, pool, rec, system=profile_system) as profile,
            core_on(storage, url, pool, rec, system=page_system) as page,
        ):
            state = None
            for n in range(repeat + 1):
                start, end = _slot(n)
                day = today + timedelta(days=2 + n // 6)
                spent = profile_system.spent
                took_profile = await run_command(
                    profile, rec, 2, 2, _text(day + timedelta(days=3), start, end)
                )
                took_adapter = profile_system.spent - spent
                spent = page_system.spent
                took_page = await run_command(
                    page, rec, 3, 3, _text(day + timedelta(days=9), start, end)
                )
                took_page_adapter = page_system.spent - spent
                took_http = await http_booking(url, day + timedelta(days=12), start, end)
                # The script's browser context is timed too, as the scenario's run is.
                began = time.perf_counter()
                async with pool.context(storage_state=state) as context:
                    took_pages = await script_booking(
                        context, url, day + timedelta(days=6), start, end, login=state is None
                    )
                    took_script = time.perf_counter() - began
                    state = dict(await context.storage_state())
                if n == 0:
                    continue  # the first round logs in
                runs["profile"].append(took_profile)
                runs["adapter"].append(took_adapter)
                runs["page"].append(took_page)
                runs["page_adapter"].append(took_page_adapter)
                runs["script"].append(took_script)
                runs["pages"].append(took_pages)
                runs["http"].append(took_http)
    med = {key: statistics.median(values) for key, values in runs.items()}
    shown = {key: ", ".join(f"{v:.2f}" for v in values) for key, values in runs.items()}
    print(f"profile adapter: three adjacent rooms, saved session (median of {repeat})")
    print(f"   profile, fast path        {med['profile']:7.2f} s   (runs: {shown['profile']})")
    print(f"     the adapter's calls     {med['adapter']:7.2f} s   (runs: {shown['adapter']})")
    print(f"   profile, page path        {med['page']:7.2f} s   (runs: {shown['page']})")
    print(f"     the adapter's calls     {med['page_adapter']:7.2f} s   "
          f"(runs: {shown['page_adapter']})")  # fmt: skip
    print(f"   Playwright script         {med['script']:7.2f} s   (runs: {shown['script']})")
    print(f"     from its page on        {med['pages']:7.2f} s   (runs: {shown['pages']})")
    print(f"   plain HTTP (logs in)      {med['http']:7.2f} s   (runs: {shown['http']})")
    print(f"   ratio fast path/HTTP       {med['profile'] / med['http']:6.2f}x  (the whole run)")
    adapter = med["adapter"] / med["http"]
    print(f"   ratio adapter's calls/HTTP {adapter:6.2f}x  (goal <= 3x)")
    print(f"   ratio page path/script     {med['page'] / med['script']:6.2f}x  (the whole run)")
    pages = med["page_adapter"] / med["pages"]
    print(f"   ratio adapter's calls/script {pages:4.2f}x  (goal <= 1.1x; from the page on)")
    print(f"   ratio fast path/page path  {med['profile'] / med['page']:6.2f}x")
    for chat, label in ((2, "fast path"), (3, "page path")):
        steps = ", ".join(f"{k} {v / (repeat + 1):.2f}" for k, v in rec.steps[chat].items())
        print(f"   steps, {label:13s} {steps} (mean s per booking, login round included)")
    print(f"   LLM calls                 {rec.llm_calls:7d}   (must be 0)")
    for line in rec.failed:
        print(f"   ! {line}")
