"""Commit-reveal with players' seeds, the hash chain of a match, and its spoken fingerprint.

Everything here is specified for re-implementation in ``docs/fairness.md``; ``docs/verify_deal.py``
does the same with Python's standard library alone and is tested against this module.

- The server draws a **secret** when a table is created and publishes its **commitment**,
  ``SHA-256(secret)``, before anyone sits.
- Each person first commits to a **contribution** of their own (format 3: ``SHA-256`` of the
  contribution and a random **salt**) and reveals it only once every seated person has committed,
  so nobody, the server included, picks an input after seeing another's.
- The match **seed** is ``HMAC-SHA-256(key=secret, message)`` over the table id and one line per
  seat, so neither the server nor any player can choose or predict the deal.
- Every accepted step extends a **chain** of SHA-256 hashes whose head each state message carries:
  a receipt that binds the record to what a player was shown.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# Crockford's base 32: no I, L, O, U, so a fingerprint reads aloud without confusion.
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
FINGERPRINT_BITS = 80
"""Bits of the commitment a fingerprint shows (format-1 records showed 40)."""
SEED_DOMAIN = "ludoteca/2"
SEED_DOMAIN_3 = "ludoteca/3"
CHAIN_DOMAIN = "ludoteca/2 chain"
CHAIN_DOMAIN_4 = "ludoteca/4 chain"
"""Format 4's chain: the header holds the seats as dealt, and each takeover is a chain event."""
MAX_CONTRIBUTION = 64
WITHHELD = "?"
"""Format 3: a seat that committed and never revealed enters the seed as ``?`` + its commitment."""
_CONTRIBUTION = re.compile(r"[\x21-\x7e]{1,64}")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_SALT = re.compile(r"[0-9a-f]{32}")


def commitment(secret: str) -> str:
    """SHA-256 of the secret's UTF-8 bytes, lowercase hex: ``printf %s SECRET | sha256sum``."""
    return hashlib.sha256(secret.encode()).hexdigest()


@functools.lru_cache(maxsize=4096)  # every state message shows its table's fingerprint
def fingerprint(commitment_hex: str, bits: int = FINGERPRINT_BITS) -> str:
    """The first ``bits`` bits of the commitment in Crockford base 32, in groups of four
    (``XXXX-XXXX-XXXX-XXXX`` for 80 bits, ``XXXX-XXXX`` for the 40 of format-1 records)."""
    if bits % 20:
        raise ValueError("a fingerprint is a whole number of 4-character groups (20 bits each)")
    value = int(commitment_hex[: bits // 4], 16)
    chars = "".join(_CROCKFORD[(value >> shift) & 31] for shift in range(bits - 5, -1, -5))
    return "-".join(chars[i : i + 4] for i in range(0, len(chars), 4))


def seed_fingerprint(seed: str) -> str:
    return fingerprint(commitment(seed))


def new_secret() -> str:
    """A fresh server secret (256 bits, lowercase hex)."""
    return secrets.token_hex(32)


def new_contribution() -> str:
    """A fresh contribution for a person who did not type one (128 bits, lowercase hex)."""
    return secrets.token_hex(16)


def new_salt() -> str:
    """A fresh salt for a seat's commitment (128 bits, 32 lowercase hex digits)."""
    return secrets.token_hex(16)


def seat_commitment(contribution: str, salt: str) -> str:
    """What a person publishes before any reveal (format 3): SHA-256 of the contribution, a
    newline and the salt, lowercase hex (``printf '%s\\n%s' C SALT | sha256sum``)."""
    return hashlib.sha256(f"{contribution}\n{salt}".encode()).hexdigest()


def salt_problem(text: Any) -> str | None:
    """Why ``text`` is not a valid salt, or None: 32 lowercase hex digits (128 bits)."""
    if not isinstance(text, str) or _SALT.fullmatch(text) is None:
        return "a salt is 32 lowercase hex digits"
    return None


def is_hex64(text: Any) -> bool:
    """A lowercase 64-digit hex string (a commitment, a secret, a chain head)."""
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


def contribution_problem(text: Any) -> str | None:
    """Why ``text`` is not a valid contribution, or None: 1 to 64 printable ASCII characters
    (no spaces), so that it reads the same everywhere and fits one line of the seed message."""
    if not isinstance(text, str):
        return "a contribution is a text"
    if not _CONTRIBUTION.fullmatch(text):
        return (
            f"a contribution is 1 to {MAX_CONTRIBUTION} printable ASCII characters without spaces"
        )
    return None


def seed_message(
    table: str,
    contributions: Sequence[str | None],
    commitments: Sequence[str | None] | None = None,
) -> str:
    """The message the match seed is keyed on, one line per seat in seat order, joined by
    newlines. Format 2 (``commitments`` None): ``ludoteca/2``, the table id, then each seat's
    contribution or an empty line for a bot or a person who sent none. Format 3:
    ``ludoteca/3``, the table id, then each seat's revealed contribution, ``?`` + its
    commitment when it committed and never revealed, or an empty line without a commitment."""
    if commitments is None:
        return "\n".join([SEED_DOMAIN, table, *[c or "" for c in contributions]])
    lines = [
        given if given is not None else (WITHHELD + promised if promised is not None else "")
        for given, promised in zip(contributions, commitments, strict=True)
    ]
    return "\n".join([SEED_DOMAIN_3, table, *lines])


def match_seed(
    secret: str,
    table: str,
    contributions: Sequence[str | None],
    commitments: Sequence[str | None] | None = None,
) -> str:
    """The seed a format-2 (or, with ``commitments``, format-3) match is dealt from: hex
    HMAC-SHA-256(key=secret, seed_message)."""
    message = seed_message(table, contributions, commitments).encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def derive_seed(secret: str, label: str) -> str:
    """A seed from a secret and a public label: hex HMAC-SHA-256(secret, label).

    Distinct labels give independent seeds; without the secret nobody can predict them.
    """
    return hmac.new(secret.encode(), label.encode(), hashlib.sha256).hexdigest()


def canonical_json(value: Any) -> bytes:
    """The one byte form of a JSON value that is hashed or signed: keys sorted, no spaces,
    UTF-8 (non-ASCII characters as themselves). Python: ``json.dumps(value, sort_keys=True,
    separators=(",", ":"), ensure_ascii=False).encode()``."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def chain_start(header: dict[str, Any], domain: str = CHAIN_DOMAIN) -> str:
    """Head 0 of a match's chain: SHA-256 of ``ludoteca/2 chain`` (format 4: ``ludoteca/4
    chain``) + newline + the canonical JSON of the match header (game, params, table,
    commitment, contributions, players)."""
    return hashlib.sha256(domain.encode() + b"\n" + canonical_json(header)).hexdigest()


def takeover_event(seat: int, level: str | None) -> dict[str, Any]:
    """Format 4: the chain event of a bot taking a person's seat over after the step it
    follows (``{"event": "takeover", "seat": S, "level": L}``, no ``level`` key when there is
    none); it extends the head like a step (``chain_next``)."""
    event: dict[str, Any] = {"event": "takeover", "seat": seat}
    if level is not None:
        event["level"] = level
    return event


def chain_next(head: str, step: dict[str, Any]) -> str:
    """The head after one more step: SHA-256 of the previous head (hex) + newline + the
    canonical JSON of the step (``{"action", "by", "seat"}``)."""
    return hashlib.sha256(head.encode() + b"\n" + canonical_json(step)).hexdigest()


@dataclass(frozen=True, slots=True)
class Deal:
    """Where a match's seed comes from.

    Format 3 and 4: the server's ``secret``, the ``table`` id, and per seat its ``commitments``
    (None for a bot or a person who committed to nothing), its revealed ``contributions`` and
    their ``salts`` (None where nothing was revealed); ``record_format`` 4 says the match's
    chain is format 4's (its seed is format 3's). Format 2 (older records): one contribution per
    seat and no commitments. Format 1 (older records, bare positions in tests): the secret is the
    seed itself.
    """

    secret: str = field(repr=False)
    table: str | None = None
    contributions: tuple[str | None, ...] | None = None
    commitments: tuple[str | None, ...] | None = None
    salts: tuple[str | None, ...] | None = None
    record_format: int | None = None
    prelude: tuple[dict[str, Any], ...] | None = field(default=None, compare=False)
    """Format 5: every event from the table's creation to the deal (``core.prelude``)."""

    @property
    def format(self) -> int:
        if self.record_format is not None and self.commitments is not None:
            return self.record_format
        if self.contributions is None:
            return 1
        return 2 if self.commitments is None else 3

    @property
    def seed(self) -> str:
        if self.contributions is None:
            return self.secret
        return match_seed(self.secret, self.table or "", self.contributions, self.commitments)

    @property
    def commitment(self) -> str:
        return commitment(self.secret)
