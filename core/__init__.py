"""The async agent core: NLU, planner, runner, events, scheduler, browser pool."""
