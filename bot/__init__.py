"""Telegram view (aiogram 3): turns updates into core calls and core output into messages."""
