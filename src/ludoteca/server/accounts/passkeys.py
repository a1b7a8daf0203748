"""The passkey half of the accounts (WebAuthn, the ``webauthn`` package): the registration and
sign-in ceremonies, each answered against a one-time challenge kept in the database for
``CHALLENGE_SECONDS`` (docs/accounts.md). ``service.Accounts`` is built on it."""

from __future__ import annotations

import base64
import binascii
import json
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import webauthn
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected

from .rows import Account, Browser, Challenge, NameHeld, NameTaken, Passkey, SignedIn
from .rules import RuleError, check_name, name_key
from .store import AccountStore

CHALLENGE_SECONDS = 300.0


def name_held(shown: str, until: float) -> Rejected:
    """The answer to signing up under a name a deleted account had not long ago."""
    day = time.strftime("%Y-%m-%d", time.gmtime(until))
    return Rejected(
        ErrorCode.NAME_TAKEN,
        f"the name '{shown}' belonged to an account deleted lately: it is free again on {day}",
    )


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Passkeys(ABC):
    """Passkey sign-up and sign-in, for ``Accounts`` (which keeps the store, the clock, the
    limits and the sessions)."""

    store: AccountStore
    now: Callable[[], float]

    @abstractmethod
    async def _limit(self, action: str, key: str, what: str) -> None:
        """Count one ``action`` for ``key`` (429 over the limit)."""

    @abstractmethod
    async def _new_session(self, account: Account, browser: Browser | None) -> SignedIn:
        """A fresh session for ``account`` on this browser."""

    async def passkey_options(
        self, rp_id: str, *, name: str | None, account: Account | None
    ) -> dict[str, Any]:
        """Options for ``navigator.credentials.create``: a new account named ``name``, or a
        further passkey for the signed-in ``account``."""
        if account is None:
            if name is None:
                raise Rejected(ErrorCode.BAD_NAME, "a new account needs a name")
            try:
                shown = check_name(name)
            except RuleError as exc:
                raise Rejected(ErrorCode.BAD_NAME, str(exc)) from None
            if await self.store.run(self.store.account_by_key, name_key(shown)) is not None:
                raise Rejected(ErrorCode.NAME_TAKEN, f"the name '{shown}' is taken")
            until = await self.store.run(self.store.name_held_until, name_key(shown), self.now())
            if until is not None:
                raise name_held(shown, until)
            user_name, user_id, existing = shown, secrets.token_bytes(16), []
        else:
            user_name, user_id = account.name, account.id.encode()
            existing = await self.store.run(self.store.passkey_ids, account.id)
        options = webauthn.generate_registration_options(
            rp_id=rp_id,
            rp_name="ludoteca",
            user_name=user_name,
            user_id=user_id,
            user_display_name=user_name,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[PublicKeyCredentialDescriptor(id=_unb64url(c)) for c in existing],
        )
        challenge = Challenge(
            _b64url(options.challenge),
            "register",
            None if account is None else account.id,
            None if account is not None else user_name,
        )
        await self.store.run(self.store.add_challenge, challenge, self.now() + CHALLENGE_SECONDS)
        found: dict[str, Any] = json.loads(webauthn.options_to_json(options))
        return found

    async def register_passkey(
        self,
        credential: dict[str, Any],
        rp_id: str,
        origin: str,
        browser: Browser | None,
    ) -> SignedIn:
        challenge = await self._challenge(credential, "register")
        try:
            verified = webauthn.verify_registration_response(
                credential=credential,
                expected_challenge=_unb64url(challenge.challenge),
                expected_rp_id=rp_id,
                expected_origin=origin,
            )
        except Exception as exc:  # anything the client sent that does not verify
            raise Rejected(ErrorCode.BAD_PASSKEY, f"the passkey was not accepted: {exc}") from None
        passkey = Passkey(
            _b64url(verified.credential_id),
            challenge.account_id or "",
            _b64url(verified.credential_public_key),
            verified.sign_count,
        )
        new = None
        if challenge.account_id is None:
            assert challenge.name is not None
            new = (challenge.name, name_key(challenge.name))
        try:
            account = await self.store.run(self.store.add_passkey, passkey, self.now(), new)
        except NameHeld as held:
            raise name_held(str(challenge.name), held.until) from None
        except NameTaken:
            raise Rejected(ErrorCode.NAME_TAKEN, "the name was taken meanwhile") from None
        except LookupError:
            raise Rejected(ErrorCode.NOT_SIGNED_IN, "the account is gone") from None
        log("passkey_added", account=account.id, new_account=new is not None)
        return await self._new_session(account, browser)

    async def login_options(self, rp_id: str) -> dict[str, Any]:
        """Options for ``navigator.credentials.get`` with a passkey the device knows (no name
        asked: the passkey says whose it is)."""
        options = webauthn.generate_authentication_options(
            rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED
        )
        challenge = Challenge(_b64url(options.challenge), "login", None, None)
        await self.store.run(self.store.add_challenge, challenge, self.now() + CHALLENGE_SECONDS)
        found: dict[str, Any] = json.loads(webauthn.options_to_json(options))
        return found

    async def login_passkey(
        self,
        credential: dict[str, Any],
        rp_id: str,
        origin: str,
        client: str,
        browser: Browser | None,
    ) -> SignedIn:
        await self._limit("login", client, "sign-in attempts from your address")
        challenge = await self._challenge(credential, "login")
        passkey = await self.store.run(self.store.passkey, str(credential.get("id", ""))[:255])
        if passkey is None:
            raise Rejected(ErrorCode.BAD_PASSKEY, "this passkey belongs to no account here")
        try:
            verified = webauthn.verify_authentication_response(
                credential=credential,
                expected_challenge=_unb64url(challenge.challenge),
                expected_rp_id=rp_id,
                expected_origin=origin,
                credential_public_key=_unb64url(passkey.public_key),
                credential_current_sign_count=passkey.sign_count,
            )
        except Exception as exc:  # anything the client sent that does not verify
            raise Rejected(ErrorCode.BAD_PASSKEY, f"the passkey was not accepted: {exc}") from None
        await self.store.run(
            self.store.used_passkey, passkey.id, verified.new_sign_count, self.now()
        )
        account = await self.store.run(self.store.account_by_id, passkey.account_id)
        if account is None:
            raise Rejected(ErrorCode.BAD_PASSKEY, "this passkey belongs to no account here")
        return await self._new_session(account, browser)

    async def _challenge(self, credential: dict[str, Any], purpose: str) -> Challenge:
        """The one-use challenge the authenticator signed, as this server gave it."""
        try:
            client_data = json.loads(_unb64url(credential["response"]["clientDataJSON"]))
            text = str(client_data["challenge"])[:128]
        except (KeyError, TypeError, ValueError, binascii.Error):
            raise Rejected(ErrorCode.BAD_PASSKEY, "no clientDataJSON with a challenge") from None
        found = await self.store.run(self.store.take_challenge, text, purpose, self.now())
        if found is None:
            raise Rejected(ErrorCode.BAD_PASSKEY, "unknown, used or expired challenge")
        return found
