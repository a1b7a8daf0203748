"""Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser
that signed in to an account with its password is given a cookie proving it, and its later
password sign-ins to that account are limited per device rather than by the name's global
limit, which anyone can fill from addresses of their own.

The cookie is ``NONCE.MAC``: a random nonce and HMAC-SHA-256 of the account's id and the nonce,
keyed by the account's argon2id hash. Every process can check it (the hash is in the shared
database), nobody without the database can make one, and it is void once the password changes
or the account is deleted. It says nothing but that this browser once signed in."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from .rows import Account

DEVICE = "ludoteca_device"
DEVICE_SECONDS = 365 * 86400  # how long a browser stays known


def _mac(account: Account, nonce: str) -> str | None:
    if account.password_hash is None:
        return None
    digest = hmac.new(
        account.password_hash.encode(),
        f"ludoteca/device\n{account.id}\n{nonce}".encode(),
        hashlib.sha256,
    ).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def device_cookie(account: Account) -> str | None:
    """A new cookie for a browser that signed in to ``account`` (None without a password)."""
    nonce = secrets.token_urlsafe(16)
    mac = _mac(account, nonce)
    return None if mac is None else f"{nonce}.{mac}"


def known_device(account: Account | None, cookie: str | None) -> str | None:
    """The device's nonce when ``cookie`` was given to a browser that signed in to ``account``,
    else None (no cookie, another account's, forged, or the password changed since)."""
    if account is None or not cookie or len(cookie) > 128:
        return None
    nonce, _, given = cookie.partition(".")
    mac = _mac(account, nonce)
    if mac is None or not hmac.compare_digest(given.encode(), mac.encode()):
        return None
    return nonce
