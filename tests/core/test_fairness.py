"""Commitments, fingerprints and derived seeds."""

from __future__ import annotations

import hashlib
import json

from ludoteca.bots.arena import play_match
from ludoteca.core import commitment, derive_seed, fingerprint, seed_fingerprint, verify
from ludoteca.core.fairness import checks_out, new_secret
from ludoteca.games import get


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


def test_a_record_problem_names_its_check_and_step() -> None:
    game = get("heroes")
    record = play_match(game, 2, "problems", ["random", "random"]).record().to_json()
    assert verify(record, get).to_json()["problems"] == []
    cases = {
        "record": {**record, "players": []},
        "commitment": {**record, "seed": "other"},
        "redeal": {**record, "params": {"players": 5}},
        "outcome": {**record, "actions": record["actions"][:-1]},
    }
    for check, data in cases.items():
        problems = verify(json.loads(json.dumps(data)), get).problems
        assert [p.check for p in problems] == [check], check
    tampered = json.loads(json.dumps(record))
    tampered["actions"][2]["action"] = "fly"
    (problem,) = verify(tampered, get).problems
    assert (problem.check, problem.step) == ("actions", 3)
    assert problem.message.startswith("step 3: seat ")
