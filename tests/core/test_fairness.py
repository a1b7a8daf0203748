"""Commitments, fingerprints and derived seeds."""

from __future__ import annotations

import hashlib

from ludoteca.core import commitment, derive_seed, fingerprint, seed_fingerprint
from ludoteca.core.fairness import checks_out, new_secret


def test_commitment_is_sha256_of_the_seed_text() -> None:
    assert commitment("abc") == hashlib.sha256(b"abc").hexdigest()


def test_fingerprint_is_the_first_40_bits_in_crockford_base32() -> None:
    digest = "ffffffffff" + "0" * 54
    assert fingerprint(digest) == "ZZZZ-ZZZZ"
    assert fingerprint("0" * 64) == "0000-0000"
    # 0x0842108421 = 00001 00001 00001 ... in 5-bit groups
    assert fingerprint("0842108421" + "0" * 54) == "1111-1111"
    fp = seed_fingerprint("any seed")
    assert len(fp) == 9 and fp[4] == "-"
    assert not set(fp) & set("ILOU")


def test_derived_seeds_are_independent_and_need_the_secret() -> None:
    a = derive_seed("secret", "table/1")
    assert a == derive_seed("secret", "table/1")
    assert a != derive_seed("secret", "table/2")
    assert a != derive_seed("other secret", "table/1")
    assert len(a) == 64


def test_checks_out_compares_the_commitment() -> None:
    seed = new_secret()
    assert checks_out(seed, commitment(seed).upper())
    assert not checks_out(seed + "x", commitment(seed))
    assert new_secret() != new_secret()
