"""The clean-room verifier (written from docs/ alone) agrees with `ludoteca verify`.

A small sample: 5 records of every game and player count, and a few changed copies of one record
of each. bench/cleanroom.py runs the same comparison on 1,000 records of each.
"""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import cleanroom_harness as harness
import pytest
from cleanroom_harness import Case, verifier

from kit.matches import ended_record

# The changed copies checked here, with the verdict the docs promise for each.
EXPECTED = {
    "swap two actions": "FAILED (signature)",
    "another legal action": "FAILED (signature)",
    "a name": "FAILED (signature)",
    "a bot flag": "FAILED (signature)",
    "by": "FAILED (signature)",
    "winners": "FAILED (signature)",
    "fingerprint wrong": "FAILED (commitment)",
    "fingerprint absent": "ok",
    "commitment upper": "FAILED (record)",
    "f1 valid": "ok",
    "f1 random history": "ok",
    "f1 old shared shape": "ok",
    "f1 winners out of range": "FAILED (record)",
    "f1 another legal action": None,  # an `actions` step or the outcome, whichever comes first
    "f1 noncanonical": None,
    "f1 wrong seat": None,
    "f3 resigned unchanged": "ok",
    "f3 reveal changed": "FAILED (reveal)",
    "f3 salt changed": "FAILED (reveal)",
    "f3 reveal withdrawn": "FAILED (seed)",
    "f3 other reveal": "FAILED (seed)",
    "f3 withheld dropped": "FAILED (seed)",
    "f3 commitment added": "FAILED (seats)",  # format 4: the seat without one is a bot's
    "f4 every step by a bot": "FAILED (seats)",
    "f4 bot committed": "FAILED (seats)",
    "f4 takeover": "ok",
    "f4 takeover unbound": "FAILED (chain)",
    "f4 takeover after the end": "FAILED (seats)",
    "f3 salt missing": "FAILED (record)",
    "f3 reveal without commitment": "FAILED (record)",
    "f3 withheld salt": "FAILED (record)",
    "f3 commitments absent": "FAILED (record)",
    "format 2 with commitments": "FAILED (record)",
}


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> list[Case]:
    root = tmp_path_factory.mktemp("cleanroom")

    def make(config: tuple[str, int]) -> list[tuple[str, Path]]:
        game, players = config
        paths = harness.simulate(
            game, players, 5, seed=11, level="random", out=root / f"{game}-{players}"
        )
        return [(f"{game}/{players}", p) for p in paths]

    with ThreadPoolExecutor(2) as pool:
        records = [r for batch in pool.map(make, harness.CONFIGS) for r in batch]
    assert len(records) == 5 * len(harness.CONFIGS)
    out = [Case("valid", path, config=config) for config, path in records]
    rng = random.Random(3)
    for n, (config, path) in enumerate(records[::5]):
        rec = json.loads(path.read_text())
        for kind, variant in harness.tampered(rec, rng):
            if kind in EXPECTED:
                target = root / f"changed-{n}-{len(out)}.json"
                target.write_text(json.dumps(variant))
                out.append(Case(kind, target, config=config))
        receipts = list(harness.receipt_cases(rec, rng))
        for m, (kind, receipt) in enumerate(receipts[:2]):
            target = root / f"receipt-{n}-{m}.json"
            target.write_text(json.dumps(receipt))
            out.append(Case(kind, path, receipts=[target], config=config))
    return out


@pytest.mark.slow
def test_the_clean_room_verifier_agrees_with_ludoteca_verify(cases: list[Case]) -> None:
    theirs = harness.cli_verdicts(cases, jobs=2)
    mine = [harness.own_verdict(c) for c in cases]
    disagreements = [
        (c.kind, str(c.path), a, b) for c, a, b in zip(cases, mine, theirs, strict=True) if a != b
    ]
    assert disagreements == []
    for case, verdict in zip(cases, theirs, strict=True):
        expected = {"valid": "ok", "receipt good": "ok", "receipt other head": "FAILED (receipt)"}
        want = expected.get(case.kind, EXPECTED.get(case.kind))
        if want is not None:
            assert verdict == want, (case.kind, case.path)
        elif case.kind != "f1 another legal action":
            assert verdict.startswith("FAILED (actions) step "), (case.kind, case.path)


def test_the_worked_examples_of_fairness_md() -> None:
    secret = "5e3d0b9c2a7f4e6190d8c1b2a3f4e5d60718293a4b5c6d7e8f90a1b2c3d4e5f6"
    commitment = verifier.sha256_hex(secret.encode())
    assert commitment == "258d2f4048cb18275a67612a68a558cc87eeb4f5ece21d6a89ae4028be7eea55"
    assert verifier.fingerprint(commitment) == "4P6J-YG28-SCC2-EPK7"
    ana = verifier.seat_commitment("ana-7f3k9q", "9b1f04c7e2a85d36f0c4b7a19e2d6f83")
    assert ana == "2e879d2cf7c7e566f165186df47e6d87be0247fbdd76419ca0533fddecdb22d7"
    seed = verifier.match_seed(secret, "Tq3xZ9", ["ana-7f3k9q", None], [ana, None])
    assert seed == "5986ef471825b92ca7b649622ad5f2eea5db2bfac420d2a7527f8bf38fe26ea5"
    withheld = verifier.match_seed(secret, "Tq3xZ9", [None, None], [ana, None])
    assert withheld == "816ae61eb02776425b4d1a7beca9b8c22309fc0f9c99c0d8c65b06f248d5144d"
    format2 = verifier.match_seed(secret, "Tq3xZ9", ["ana-7f3k9q", None])
    assert format2 == "7267611f5df8444e7411ae561c77ca809f29210c249136a5ce1eda5edf11fc5e"
    stream = verifier.Stream(seed)
    words = [stream.word() for _ in range(10)]
    assert words[0] == 2546575491 and words[7] == 3367506012 and words[9] == 3880490983
    assert verifier.Stream(seed).below(24) == 3
    record = {
        "format": 3,
        "game": "heroes",
        "table": "Tq3xZ9",
        "commitment": commitment,
        "commitments": [ana, None],
        "contributions": ["ana-7f3k9q", None],
        "players": [
            {"name": "Ana", "bot": False},
            {"name": "Bot 2 (easy)", "bot": True, "level": "easy"},
        ],
        "actions": [{"seat": 1, "action": "draw", "by": "bot"}],
    }
    heads = verifier.chain_heads(record, 2)
    assert heads == [
        "4fa68ed581b83ea086d86940dad591f96e94790a0d189c9261360b5ab2d16b59",
        "21e9471bee6f1f520de1c941e21541a97510e47b2004f449c615765a53a6d815",
    ]
    # format 4: the same header under its own domain, and Ana's seat taken over after step 1
    record["format"] = 4
    record["players"][0] = {"name": "Ana", "bot": True, "level": "random", "bot_from": 1}
    assert verifier.chain_heads(record, 2) == [
        "671ee4f594f80dbf4b39503306434bec4638857bc22af7ae961d990b81a821cc",
        "fc033d8d277a54ad618df73c50fa6dc7cd5268c9192d0146888345145068f357",
    ]
    game = verifier.Heroes(2, verifier.Stream(seed))
    assert game.to_move == 1 and game.legal()[0] == "draw"


def test_the_pure_ed25519_agrees_with_rfc_8032() -> None:
    # RFC 8032, section 7.1, TEST 2.
    public = bytes.fromhex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
    signature = bytes.fromhex(
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
        "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
    )
    assert verifier.ed25519_verify_pure(public, b"\x72", signature)
    assert not verifier.ed25519_verify_pure(public, b"\x73", signature)


def test_the_clean_room_verifier_agrees_on_ended_matches(tmp_path: Path) -> None:
    """Format 5 matches aborted before the person's first move, or ended by the operator, and
    their ``ended`` changed (docs/records.md#an-ended-match): both verifiers, the same verdict."""
    aborted, operator = ended_record("abort", moves=3), ended_record("operator", moves=4)
    assert any(a["seat"] == 0 and a["by"] == "player" for a in operator["actions"])

    def changed(rec: dict[str, Any], **fields: Any) -> dict[str, Any]:
        return {**rec, **fields}

    def without_end(rec: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in rec.items() if k != "ended"}

    no_result = {"winners": [], "reason": "aborted", "draw": False}
    variants = {
        "aborted": (aborted, "ok"),
        "operator": (operator, "ok"),
        "ended changed": (changed(aborted, ended={"by": "operator"}), "FAILED (signature)"),
        "ended removed, signed again": (harness.resigned(without_end(aborted)), "FAILED (chain)"),
        "ended added, signed again": (
            harness.resigned(changed(operator, ended={"by": "abort", "seat": 0})),
            "FAILED (chain)",
        ),
        "abort by a seat that moved": (
            harness.resigned(
                changed(
                    operator,
                    ended={"by": "abort", "seat": 0},
                    outcome=no_result,
                    chain=end_link(operator, {"by": "abort", "seat": 0}),
                )
            ),
            "FAILED (outcome)",
        ),
        "abort by a bot": (
            harness.resigned(
                changed(
                    aborted,
                    ended={"by": "abort", "seat": 1},
                    chain=end_link(aborted, {"by": "abort", "seat": 1}),
                )
            ),
            "FAILED (outcome)",
        ),
        "a winner": (
            harness.resigned(changed(aborted, outcome={**no_result, "winners": [1]})),
            "FAILED (outcome)",
        ),
        "ended malformed": (changed(aborted, ended={"by": "abort"}), "FAILED (record)"),
        "ended in format 4": (changed(aborted, format=4), "FAILED (record)"),
    }
    cases = []
    for n, (kind, (rec, _)) in enumerate(variants.items()):
        path = tmp_path / f"ended-{n}.json"
        path.write_text(json.dumps(rec))
        cases.append(Case(kind, path))
    theirs = harness.cli_verdicts(cases, jobs=1)
    mine = [harness.own_verdict(c) for c in cases]
    expected = [want for _, want in variants.values()]
    assert list(zip(variants, theirs, strict=True)) == list(zip(variants, expected, strict=True))
    assert mine == theirs


def test_the_clean_room_verifier_agrees_on_resigned_matches(tmp_path: Path) -> None:
    """A 2-player match resigned by the person at seat 0 (docs/records.md#an-ended-match): the
    other seat wins; changed, removed, moved to the bot's seat or with another winner, it fails
    the same way in both verifiers."""
    rec = ended_record("resign", moves=4)
    lost = {"winners": [0], "reason": "resigned", "draw": False}
    by_bot = {"by": "resign", "seat": 1}
    variants = {
        "resigned": (rec, "ok"),
        "ended changed": ({**rec, "ended": {"by": "operator"}}, "FAILED (signature)"),
        "ended removed, signed again": (
            harness.resigned({k: v for k, v in rec.items() if k != "ended"}),
            "FAILED (chain)",
        ),
        "resign by the bot": (
            harness.resigned(
                {**rec, "ended": by_bot, "outcome": lost, "chain": end_link(rec, by_bot)}
            ),
            "FAILED (outcome)",
        ),
        "the resigner wins": (harness.resigned({**rec, "outcome": lost}), "FAILED (outcome)"),
        "no winner": (
            harness.resigned({**rec, "outcome": {**lost, "winners": []}}),
            "FAILED (outcome)",
        ),
    }
    cases = []
    for n, (kind, (case, _)) in enumerate(variants.items()):
        path = tmp_path / f"resigned-{n}.json"
        path.write_text(json.dumps(case))
        cases.append(Case(kind, path))
    theirs = harness.cli_verdicts(cases, jobs=1)
    mine = [harness.own_verdict(c) for c in cases]
    expected = [want for _, want in variants.values()]
    assert list(zip(variants, theirs, strict=True)) == list(zip(variants, expected, strict=True))
    assert mine == theirs


def end_link(rec: dict[str, Any], ended: dict[str, Any]) -> str:
    """The head of ``rec``'s chain with ``ended`` as its last link (what a forger would write)."""
    heads = verifier.chain_heads(rec, len(rec["players"]))
    end = {"event": "end", **ended}
    return verifier.sha256_hex(heads[-1].encode() + b"\n" + verifier.canonical_json(end))
