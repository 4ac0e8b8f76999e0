"""The Telegram view's factory: Settings → Bot (on ``TELEGRAM__API_BASE``) → outbox and
sink → the core the composition root gives → Dispatcher with middlewares and routers.
Everything opens here and closes in reverse order on exit."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aiogram import Bot, Dispatcher
from aiogram.client.telegram import TelegramAPIServer
from aiogram.fsm.storage.base import BaseStorage
from aiogram.types import BotCommand
from aiohttp import web

from bot import errors
from bot.handlers import routers
from bot.metrics_http import add_metrics_route
from bot.middlewares import (
    AccessMiddleware,
    ChatOrderMiddleware,
    ContextMiddleware,
    LanguageMiddleware,
    UpdateMetricsMiddleware,
    UpdateOnceMiddleware,
)
from bot.outbox import FloodLimits, Outbox
from bot.session import BotSession
from bot.sink import TelegramSink
from core.errors import ConfigError
from core.metrics import Metrics
from core.output import OutputSink
from core.scenario import Shortcut
from core.settings import Settings
from core.texts import COMMANDS, Text, tr
from core.views import CoreServices

if TYPE_CHECKING:
    from core.accounts import AccountService
    from core.dispatcher import ChatDispatcher
    from core.store import Claims

__all__ = [
    "BotApp",
    "CoreFactory",
    "build_dispatcher",
    "check_access",
    "make_bot",
    "menu",
    "open_bot_app",
    "set_commands",
    "webhook_app",
]


# Opens the core behind the bot, given the bot's sink: the manager alone, or with its
# services. The composition root (``app/``) says which core, on which storage.
CoreFactory = Callable[[OutputSink], AbstractAsyncContextManager["ChatDispatcher | CoreServices"]]
REFUSAL_TTL = 30 * 24 * 3600  # a refused user hears it again after a month at most
UPDATE_TTL = 2 * 24 * 3600  # Telegram keeps an undelivered update for 24 hours


@dataclass(frozen=True, slots=True)
class BotApp:
    settings: Settings
    bot: Bot
    dispatcher: Dispatcher
    outbox: Outbox
    sink: TelegramSink
    manager: ChatDispatcher
    metrics: Metrics | None = None


def check_access(settings: Settings) -> None:
    tg = settings.telegram
    if tg.token is None:
        raise ConfigError(
            "TELEGRAM__TOKEN is not set",
            hint="put the token from @BotFather into the environment or .env",
        )
    if not tg.allowed_users and not tg.allow_all:
        raise ConfigError(
            "TELEGRAM__ALLOWED_USERS is empty, so nobody could use the bot",
            hint="list the Telegram user ids allowed to use it (TELEGRAM__ALLOWED_USERS=123,456)"
            " or set TELEGRAM__ALLOW_ALL=true to open it to everyone",
        )


def make_bot(settings: Settings) -> Bot:
    token = settings.telegram.token
    assert token is not None
    api = TelegramAPIServer.from_base(settings.telegram.api_base)
    return Bot(token.get_secret_value(), session=BotSession(api=api))


def menu(shortcuts: Sequence[Shortcut]) -> list[tuple[str, Text]]:
    """The command menu: the engine's commands, the jobs' own after /cancel."""
    entries: list[tuple[str, Text]] = []
    for name, description in COMMANDS:
        entries.append((name, description))
        if name == "cancel":
            entries.extend((s.command, s.text) for s in shortcuts)
    return entries


async def set_commands(bot: Bot, shortcuts: Sequence[Shortcut] = ()) -> None:
    """The command menu in Russian (also the default) and English."""
    entries = menu(shortcuts)
    ru = [BotCommand(command=name, description=tr(desc, "ru")) for name, desc in entries]
    en = [BotCommand(command=name, description=tr(desc, "en")) for name, desc in entries]
    await bot.set_my_commands(ru)
    await bot.set_my_commands(ru, language_code="ru")
    await bot.set_my_commands(en, language_code="en")


def build_dispatcher(
    *,
    settings: Settings,
    manager: ChatDispatcher,
    sink: TelegramSink,
    claims: Claims,
    dialogues: BaseStorage,
    accounts: AccountService | None = None,
    metrics: Metrics | None = None,
) -> Dispatcher:
    async def first_refusal(user_id: int) -> bool:
        return await claims.claim(f"refused:{user_id}", owner="bot", ttl_seconds=REFUSAL_TTL)

    async def first_delivery(key: str) -> bool:
        return await claims.claim(key, owner="bot", ttl_seconds=UPDATE_TTL)

    dispatcher = Dispatcher(storage=dialogues, manager=manager, sink=sink, accounts=accounts)
    dispatcher.update.outer_middleware(ContextMiddleware())
    if metrics is not None:
        dispatcher.update.outer_middleware(UpdateMetricsMiddleware(metrics))
    dispatcher.update.outer_middleware(
        AccessMiddleware(
            allowed=settings.telegram.allowed_users,
            allow_all=settings.telegram.allow_all,
            first_refusal=first_refusal,
            refuse=sink.send_text,
        )
    )
    dispatcher.update.outer_middleware(ChatOrderMiddleware(manager.chat_turn))
    dispatcher.update.outer_middleware(UpdateOnceMiddleware(first_delivery))
    dispatcher.update.outer_middleware(LanguageMiddleware(manager.user_settings.language))
    dispatcher.include_routers(*routers(manager.shortcuts), errors.router())

    async def command_menu(bot: Bot) -> None:
        await set_commands(bot, manager.shortcuts)

    dispatcher.startup.register(command_menu)
    return dispatcher


@asynccontextmanager
async def open_bot_app(
    settings: Settings,
    *,
    core: CoreFactory,
    claims: Claims,
    dialogues: BaseStorage,
    limits: FloodLimits | None = None,
    progress_interval: float = 1.0,
    metrics: Metrics | None = None,
) -> AsyncIterator[BotApp]:
    """Open the Telegram view around the core that ``core`` opens with this view's sink;
    ``claims`` remembers whom the bot has refused already; ``dialogues`` keeps the /login
    and «Начать новое?» dialogues (``bot.dialogues``); ``metrics`` (the app's, also given
    to the core) counts updates and 429s."""
    check_access(settings)
    async with AsyncExitStack() as stack:
        bot = make_bot(settings)
        stack.push_async_callback(bot.session.close)
        outbox = Outbox(bot, limits=limits, metrics=metrics)
        stack.push_async_callback(outbox.close)
        sink = TelegramSink(bot, outbox, progress_interval=progress_interval)
        stack.push_async_callback(sink.close)
        opened = await stack.enter_async_context(core(sink))
        services = opened if isinstance(opened, CoreServices) else CoreServices(manager=opened)
        manager = services.manager
        dispatcher = build_dispatcher(
            settings=settings,
            manager=manager,
            sink=sink,
            claims=claims,
            dialogues=dialogues,
            accounts=services.accounts,
            metrics=metrics,
        )
        yield BotApp(
            settings=settings,
            bot=bot,
            dispatcher=dispatcher,
            outbox=outbox,
            sink=sink,
            manager=manager,
            metrics=metrics,
        )


def webhook_app(app: BotApp, *, path: str, secret_token: str, host: str) -> web.Application:
    """An aiohttp app serving the webhook at ``path``; requests without Telegram's
    ``X-Telegram-Bot-Api-Secret-Token`` header (or with a wrong one) get 401, bodies that
    are no update 400. With the app's metrics, ``GET /metrics`` serves them (behind a bearer
    token on a public ``host``: ``bot.metrics_http``)."""
    from aiogram.webhook.aiohttp_server import setup_application

    from bot.webhook import UpdateRequestHandler

    web_app = web.Application()
    UpdateRequestHandler(app.dispatcher, app.bot, secret_token=secret_token).register(
        web_app, path=path
    )
    setup_application(web_app, app.dispatcher, bot=app.bot)
    if app.metrics is not None:
        token = app.settings.security.metrics_token
        add_metrics_route(web_app, app.metrics, host=host, token=token)
    return web_app
