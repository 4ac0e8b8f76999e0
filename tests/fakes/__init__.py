"""Fakes for the outside world we cannot reach (Telegram, LLM vendors)."""
