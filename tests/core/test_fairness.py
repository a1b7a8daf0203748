"""Commitments, fingerprints and derived seeds."""

from __future__ import annotations

import hashlib
import json

from ludoteca.bots.arena import play_match
from ludoteca.core import MatchRecord, SigningKey, commitment, derive_seed, verify
from ludoteca.core.fairness import new_secret
from ludoteca.games import get


def test_commitment_is_sha256_of_the_seed_text() -> None:
    assert commitment("abc") == hashlib.sha256(b"abc").hexdigest()


def test_derived_seeds_are_independent_and_need_the_secret() -> None:
    a = derive_seed("secret", "table/1")
    assert a == derive_seed("secret", "table/1")
    assert a != derive_seed("secret", "table/2")
    assert a != derive_seed("other secret", "table/1")
    assert len(a) == 64


def test_new_secrets_differ() -> None:
    assert new_secret() != new_secret()
    assert len(new_secret()) == 64


def test_a_record_problem_names_its_check_and_step() -> None:
    key = SigningKey.generate()

    def signed(data: dict[str, object]) -> dict[str, object]:
        return MatchRecord.from_json(json.loads(json.dumps(data))).sign(key).to_json()

    game = get("heroes")
    record = play_match(game, 2, "5" * 64, ["random", "random"]).record().sign(key).to_json()
    assert verify(record, get).to_json()["problems"] == []
    cases = {
        "record": {**record, "players": []},
        "signature": {**record, "players": [{"name": "x", "bot": True}] * 2},
        "commitment": signed({**record, "secret": "0" * 64}),
        "seed": signed({**record, "seed": "0" * 64}),
        "redeal": signed({**record, "params": {"players": 5}}),
        "chain": signed({**record, "chain": "0" * 64}),
    }
    for check, data in cases.items():
        problems = verify(json.loads(json.dumps(data)), get).problems
        assert [p.check for p in problems] == [check], check
    tampered = json.loads(json.dumps(record))
    tampered["actions"][2]["action"] = "fly"
    (problem,) = verify(signed(tampered), get).problems
    assert (problem.check, problem.step) == ("actions", 3)
    assert problem.message.startswith("step 3: seat ")
