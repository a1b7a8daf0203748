"""The notifications' keys: the VAPID key that signs every push request (its public half is the
``applicationServerKey`` browsers subscribe with) and the secret that signs unsubscribe and
confirmation links. Kept in one folder (``LUDOTECA_NOTIFY_KEYS``), made once even when several
processes start at once, as the signing keys are (``server/signing.py``)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from ludoteca.server.signing import _locked

VAPID_FILE = "vapid.pem"
SECRET_FILE = "links.secret"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class NotifyKeys:
    def __init__(self, vapid_pem: bytes, secret: bytes) -> None:
        self.vapid = Vapid02.from_pem(vapid_pem)
        self._secret = secret
        public = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.public_key = b64url(public)  # the browser's applicationServerKey

    @classmethod
    def ephemeral(cls) -> NotifyKeys:
        """Keys for this process only (links and subscriptions die with it)."""
        return cls(_new_vapid(), secrets.token_bytes(32))

    @classmethod
    def load(cls, folder: Path) -> NotifyKeys:
        """The keys in ``folder``, made there first if missing (by one process)."""
        if not (folder / SECRET_FILE).is_file():
            with _locked(folder):
                if not (folder / SECRET_FILE).is_file():
                    _write(folder / VAPID_FILE, _new_vapid())
                    _write(folder / SECRET_FILE, secrets.token_hex(32).encode())
        secret = bytes.fromhex((folder / SECRET_FILE).read_text().strip())
        return cls((folder / VAPID_FILE).read_bytes(), secret)

    # ------------------------------------------------------------------------ links
    def sign(self, purpose: str, subject: str) -> str:
        """A token naming ``subject`` for ``purpose`` (``push``, ``mail``, ``confirm``) that only
        this server can make: base64url(purpose|subject).base64url(HMAC-SHA-256)."""
        body = f"{purpose}|{subject}".encode()
        return f"{b64url(body)}.{b64url(self._mac(body))}"

    def verify(self, token: str, purpose: str) -> str | None:
        """The subject a token names for ``purpose``, or None when it was not made here."""
        head, _, mac = token.partition(".")
        try:
            body, given = unb64url(head), unb64url(mac)
        except ValueError:
            return None
        if not hmac.compare_digest(given, self._mac(body)):
            return None
        found, _, subject = body.decode(errors="replace").partition("|")
        return subject if found == purpose else None

    def _mac(self, body: bytes) -> bytes:
        return hmac.new(self._secret, body, hashlib.sha256).digest()


def _new_vapid() -> bytes:
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _write(path: Path, data: bytes) -> None:
    """Written beside its name and renamed into place (readers see all of it or none)."""
    partial = path.with_suffix(".partial")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.rename(partial, path)
