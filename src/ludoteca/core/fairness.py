"""Commit-reveal: the seed's commitment, its spoken fingerprint, and seeds made from secrets."""

from __future__ import annotations

import hashlib
import hmac
import secrets

# Crockford's base 32: no I, L, O, U, so a fingerprint reads aloud without confusion.
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def commitment(seed: str) -> str:
    """SHA-256 of the seed's UTF-8 bytes, lowercase hex: ``printf %s SEED | sha256sum``."""
    return hashlib.sha256(seed.encode()).hexdigest()


def fingerprint(commitment_hex: str) -> str:
    """The first 40 bits of the commitment in Crockford base 32, as ``XXXX-XXXX``."""
    bits = int(commitment_hex[:10], 16)
    chars = "".join(_CROCKFORD[(bits >> shift) & 31] for shift in range(35, -1, -5))
    return f"{chars[:4]}-{chars[4:]}"


def seed_fingerprint(seed: str) -> str:
    return fingerprint(commitment(seed))


def new_secret() -> str:
    """A fresh server secret (256 bits, hex)."""
    return secrets.token_hex(32)


def derive_seed(secret: str, label: str) -> str:
    """A match seed from a secret and a public label: hex HMAC-SHA-256(secret, label).

    Distinct labels give independent seeds; without the secret nobody can predict them.
    """
    return hmac.new(secret.encode(), label.encode(), hashlib.sha256).hexdigest()


def checks_out(seed: str, commitment_hex: str) -> bool:
    return hmac.compare_digest(commitment(seed), commitment_hex.lower())
