"""Update middlewares: log context, metrics, access control, per-chat ordering, each
update once, the user's language."""

from bot.middlewares.access import AccessMiddleware
from bot.middlewares.context import ContextMiddleware, update_chat_id
from bot.middlewares.language import LanguageMiddleware
from bot.middlewares.metrics import UpdateMetricsMiddleware
from bot.middlewares.once import UpdateOnceMiddleware
from bot.middlewares.order import ChatOrderMiddleware

__all__ = [
    "AccessMiddleware",
    "ChatOrderMiddleware",
    "ContextMiddleware",
    "LanguageMiddleware",
    "UpdateMetricsMiddleware",
    "UpdateOnceMiddleware",
    "update_chat_id",
]
