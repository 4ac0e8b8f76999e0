"""Access tokens and confirmations of the agent API (``core.store.access``) on MongoDB."""

from __future__ import annotations

from datetime import datetime

import pymongo
from beanie import Document
from pymongo import IndexModel

from core.store.access import AccessTokenRecord, ConfirmationRecord
from storage.errors import translate_errors

__all__ = [
    "AccessTokenDocument",
    "AccessTokenRepository",
    "ConfirmationDocument",
    "ConfirmationRepository",
]


class AccessTokenDocument(Document, AccessTokenRecord):
    class Settings:
        name = "access_tokens"
        indexes = [
            IndexModel([("token_hash", pymongo.ASCENDING)], unique=True),
            IndexModel([("user_id", pymongo.ASCENDING)]),
        ]


class ConfirmationDocument(Document, ConfirmationRecord):
    # Expired ones are refused by the core (``expires_at``); they are few and small, so
    # no TTL index (SecantusDB and MongoDB would differ on when they go).
    class Settings:
        name = "confirmations"
        indexes = [IndexModel([("token_hash", pymongo.ASCENDING)], unique=True)]


class AccessTokenRepository:
    """``core.store.AccessTokenStore`` on MongoDB."""

    async def add(self, record: AccessTokenRecord) -> None:
        with translate_errors("storing an access token"):
            await AccessTokenDocument.model_validate(record.__dict__).insert()

    async def find(self, token_hash: str) -> AccessTokenDocument | None:
        with translate_errors("looking up an access token"):
            return await AccessTokenDocument.find_one(AccessTokenDocument.token_hash == token_hash)

    async def revoke_user(self, user_id: int, *, at: datetime) -> int:
        with translate_errors(f"revoking the access tokens of user {user_id}"):
            written = await AccessTokenDocument.get_pymongo_collection().update_many(
                {"user_id": user_id, "revoked_at": None}, {"$set": {"revoked_at": at}}
            )
        return written.modified_count

    async def for_user(self, user_id: int) -> list[AccessTokenDocument]:
        with translate_errors(f"listing the access tokens of user {user_id}"):
            return await AccessTokenDocument.find(AccessTokenDocument.user_id == user_id).to_list()


class ConfirmationRepository:
    """``core.store.ConfirmationStore`` on MongoDB."""

    async def add(self, record: ConfirmationRecord) -> None:
        with translate_errors("storing a confirmation"):
            await ConfirmationDocument.model_validate(record.__dict__).insert()

    async def find(self, token_hash: str) -> ConfirmationDocument | None:
        with translate_errors("looking up a confirmation"):
            return await ConfirmationDocument.find_one(
                ConfirmationDocument.token_hash == token_hash
            )
