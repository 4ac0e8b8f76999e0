"""``bench/booking.py --system profile``: three adjacent rooms booked through the scenario
on the reference portal by the profile adapter (``profiles/refportal.yaml``), next to the
hand-written ``RefPortal`` adapter and the bare Playwright script doing the same
navigations. Interleaved per round (each on its own day, so none competes for rooms);
the first round of each logs in and is left out of the medians (it measures the login,
not the adapter). Goal: profile <= 1.1x hand-written.
"""

from __future__ import annotations

import statistics
from datetime import date, timedelta
from pathlib import Path

from adapters.profile import ProfileSystem, load_site_profile
from adapters.refportal import RefPortal
from bench.booking import Recorder, core_on, run_command, script_booking
from core.browser import BrowserPool
from storage import Storage

__all__ = ["part_profile"]

PROFILE = Path(__file__).parents[1] / "profiles" / "refportal.yaml"


def _slot(n: int) -> tuple[str, str]:
    return f"{8 + 2 * (n % 6):02d}:00", f"{10 + 2 * (n % 6):02d}:00"


def _text(day: date, start: str, end: str) -> str:
    return f"забронируй 3 аудитории рядом в главном {day:%d.%m} с {start} до {end}"


async def part_profile(storage: Storage, url: str, repeat: int) -> None:
    rec = Recorder()
    runs: dict[str, list[float]] = {"hand": [], "profile": [], "script": []}
    today = date.today()
    async with BrowserPool() as pool:
        await pool.browser()
        hand_system = RefPortal(url)
        profile_system = ProfileSystem(url, load_site_profile(PROFILE))
        async with (
            core_on(storage, url, pool, rec, system=hand_system) as hand,
            core_on(storage, url, pool, rec, system=profile_system) as profile,
        ):
            state = None
            for n in range(repeat + 1):
                start, end = _slot(n)
                day = today + timedelta(days=2 + n // 6)
                took_hand = await run_command(hand, rec, 1, 1, _text(day, start, end))
                took_profile = await run_command(
                    profile, rec, 2, 2, _text(day + timedelta(days=3), start, end)
                )
                async with pool.context(storage_state=state) as context:
                    took_script = await script_booking(
                        context, url, day + timedelta(days=6), start, end, login=state is None
                    )
                    state = dict(await context.storage_state())
                if n == 0:
                    continue  # the first round logs in
                runs["hand"].append(took_hand)
                runs["profile"].append(took_profile)
                runs["script"].append(took_script)
    med = {key: statistics.median(values) for key, values in runs.items()}
    shown = {key: ", ".join(f"{v:.2f}" for v in values) for key, values in runs.items()}
    print(f"profile adapter: three adjacent rooms, saved session (median of {repeat})")
    print(f"   hand-written adapter      {med['hand']:7.2f} s   (runs: {shown['hand']})")
    print(f"   profile adapter           {med['profile']:7.2f} s   (runs: {shown['profile']})")
    print(f"   Playwright script         {med['script']:7.2f} s   (runs: {shown['script']})")
    print(f"   ratio profile/hand-written {med['profile'] / med['hand']:6.2f}x  (goal <= 1.1x)")
    print(f"   ratio profile/script       {med['profile'] / med['script']:6.2f}x")
    for chat, label in ((1, "hand-written"), (2, "profile")):
        steps = ", ".join(f"{k} {v / (repeat + 1):.2f}" for k, v in rec.steps[chat].items())
        print(f"   steps, {label:13s} {steps} (mean s per booking, login round included)")
    print(f"   LLM calls                 {rec.llm_calls:7d}   (must be 0)")
    for line in rec.failed:
        print(f"   ! {line}")
