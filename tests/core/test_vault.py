"""Credentials and sessions are stored encrypted, and only with a key."""

from __future__ import annotations

import pytest
from cryptography.fernet import Fernet
from pydantic import SecretStr

from core.errors import ConfigError
from core.vault import CredentialVault
from storage import Storage


def key() -> SecretStr:
    return SecretStr(Fernet.generate_key().decode())


async def test_credentials_round_trip_encrypted(storage: Storage) -> None:
    vault = CredentialVault(storage, key())
    await vault.save_credentials(7, "club", SecretStr("club-demo"))
    found = await vault.credentials(7)
    assert found is not None
    assert (found.username, found.password.get_secret_value()) == ("club", "club-demo")
    user = await storage.users.get(7)
    assert user is not None and user.portal_password_encrypted is not None
    assert b"club-demo" not in user.portal_password_encrypted
    assert "club-demo" not in repr(found)


async def test_without_a_key_logins_are_refused_clearly(storage: Storage) -> None:
    vault = CredentialVault(storage, None)
    with pytest.raises(ConfigError, match="encryption key") as info:
        await vault.save_credentials(7, "club", SecretStr("club-demo"))
    assert info.value.hint is not None and "SECURITY__ENCRYPTION_KEY" in info.value.hint
    assert await vault.credentials(7) is None


async def test_another_key_cannot_read_and_asks_for_login_again(storage: Storage) -> None:
    await CredentialVault(storage, key()).save_credentials(7, "club", SecretStr("club-demo"))
    assert await CredentialVault(storage, key()).credentials(7) is None


async def test_sessions_are_encrypted_with_a_key_and_in_memory_without(
    storage: Storage,
) -> None:
    state = {"cookies": [{"name": "sid", "value": "s3cr3t"}], "origins": []}
    vault = CredentialVault(storage, key())
    await vault.save_session(8, state)
    assert await vault.session(8) == state
    user = await storage.users.get(8)
    assert user is not None and user.portal_session_encrypted is not None
    assert b"s3cr3t" not in user.portal_session_encrypted
    await vault.forget_session(8)
    assert await vault.session(8) is None

    keyless = CredentialVault(storage, None)
    await keyless.save_session(9, state)
    assert await keyless.session(9) == state
    assert (await storage.users.get(9)) is None  # nothing written unencrypted
