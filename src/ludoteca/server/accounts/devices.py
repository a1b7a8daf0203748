"""The device cookie: one random value per browser, given at its first sign-up or sign-in (with
a password or a passkey) and kept after signing out. The server keeps only a SHA-256 digest of
it, once per account that signed in on that browser (``account_devices``), and forgets it after
``DEVICE_SECONDS`` unused. That one record answers two questions (docs/accounts.md):

- do two accounts share a browser? They are not rated against each other (rating farming);
- has this browser signed in to this account before? Then the name's global sign-in limit,
  which anyone can fill from addresses of their own, never stops it (OWASP's "device cookies").

Nobody without the cookie can claim a browser's place: the digest says nothing of the value.
"""

from __future__ import annotations

import hashlib
import re
import secrets

DEVICE = "ludoteca_device"
DEVICE_PATH = "/api"  # sign-up, sign-in and the passkeys' routes: the only ones that read it
DEVICE_SECONDS = 365 * 86400  # how long a browser stays known, in the cookie and the database
SHAPE = re.compile(r"[A-Za-z0-9_-]{32}")


def sent_device(cookie: str | None) -> str | None:
    """The device cookie a browser sent, when it is one this server could have given."""
    return cookie if cookie and SHAPE.fullmatch(cookie) else None


def this_device(cookie: str | None) -> str:
    """The browser's device cookie after a sign-in: the one it sent, or a new one."""
    return sent_device(cookie) or secrets.token_urlsafe(24)


def device_digest(cookie: str) -> str:
    """What the database keeps of a device cookie."""
    return hashlib.sha256(f"ludoteca/device\n{cookie}".encode()).hexdigest()
