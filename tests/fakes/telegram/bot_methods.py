"""Bot-level methods: getMe, getUpdates, webhooks and the command menu."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.fakes.telegram.errors import bad_request
from tests.fakes.telegram.state import TelegramState
from tests.fakes.telegram.updates import UpdateQueue
from tests.fakes.telegram.webhook import ReplyHandler, Webhook, WebhookDelivery

__all__ = ["BotMethods"]

JsonDict = dict[str, Any]
_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
_COMMAND = re.compile(r"^[a-z0-9_]{1,32}$")


class BotMethods:
    def __init__(
        self,
        state: TelegramState,
        queue: UpdateQueue,
        *,
        on_webhook_reply: ReplyHandler,
        webhook_retry_delay: float = 0.2,
    ) -> None:
        self.state = state
        self.queue = queue
        self._on_reply = on_webhook_reply
        self._retry_delay = webhook_retry_delay
        self.delivery: WebhookDelivery | None = None

    async def get_me(self, params: JsonDict) -> JsonDict:
        return {
            **self.state.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def get_updates(self, params: JsonDict) -> list[JsonDict]:
        allowed = params.get("allowed_updates")
        return await self.queue.get_updates(
            offset=int(params.get("offset") or 0),
            limit=int(params.get("limit") or 100),
            timeout=float(params.get("timeout") or 0),
            allowed_updates=allowed if isinstance(allowed, list) else None,
        )

    # webhooks ------------------------------------------------------------------------
    async def set_webhook(self, params: JsonDict) -> bool:
        url = str(params.get("url") or "")
        if not url:
            await self.delete_webhook(params)
            return True
        if not re.match(r"^https?://[^/\s]+", url):
            raise bad_request("bad webhook: Failed to resolve host: Name or service not known")
        secret = params.get("secret_token")
        if secret is not None and not _SECRET.match(str(secret)):
            raise bad_request("secret token contains unallowed characters")
        allowed = params.get("allowed_updates")
        await self._stop_delivery()
        if params.get("drop_pending_updates"):
            self.queue.drop_pending()
        if isinstance(allowed, list):
            self.queue.allowed_updates = allowed or None
        webhook = Webhook(
            url=url,
            secret_token=str(secret) if secret else None,
            max_connections=int(params.get("max_connections") or 40),
            allowed_updates=allowed if isinstance(allowed, list) else None,
        )
        self.delivery = WebhookDelivery(
            webhook,
            self.queue,
            clock=self.state.clock,
            on_reply=self._on_reply,
            on_attempt=self.state.touch,
            retry_delay=self._retry_delay,
        )
        self.delivery.start()
        self.queue.webhook_active = True
        self.queue.wake()  # a waiting long poll ends with 409, as on Telegram
        return True

    async def delete_webhook(self, params: JsonDict) -> bool:
        await self._stop_delivery()
        if params.get("drop_pending_updates"):
            self.queue.drop_pending()
        return True

    async def _stop_delivery(self) -> None:
        self.queue.webhook_active = False
        if self.delivery is not None:
            delivery, self.delivery = self.delivery, None
            await delivery.stop()

    async def get_webhook_info(self, params: JsonDict) -> JsonDict:
        pending = len(self.queue.pending)
        if self.delivery is None:
            return {"url": "", "has_custom_certificate": False, "pending_update_count": pending}
        return self.delivery.webhook.info(pending)

    # commands ------------------------------------------------------------------------
    @staticmethod
    def _commands_key(params: JsonDict) -> str:
        scope = params.get("scope") or {"type": "default"}
        return f"{json.dumps(scope, sort_keys=True)}|{params.get('language_code') or ''}"

    async def set_my_commands(self, params: JsonDict) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise bad_request('parameter "commands" is required')
        if len(commands) > 100:
            raise bad_request("too many commands")
        for command in commands:
            if not isinstance(command, dict) or not _COMMAND.match(str(command.get("command"))):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description") or "")) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        self.state.commands[self._commands_key(params)] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    async def get_my_commands(self, params: JsonDict) -> list[JsonDict]:
        return list(self.state.commands.get(self._commands_key(params), []))

    async def delete_my_commands(self, params: JsonDict) -> bool:
        self.state.commands.pop(self._commands_key(params), None)
        return True
