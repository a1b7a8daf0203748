"""docs/verify_deal.py, written with the standard library only, deals exactly as the engine does."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kit.matches import ended_record
from ludoteca.bots.arena import play_match
from ludoteca.core import MatchRecord, SigningKey
from ludoteca.games import all_games, get

SCRIPT = Path(__file__).resolve().parent.parent / "docs" / "verify_deal.py"


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_deal", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def engine_deal(game_id: str, players: int, seed: str) -> dict[str, Any]:
    """The same fields, read from the engine's position just after set-up."""
    game = get(game_id)
    position = game.to_json(game.new({"players": players}, seed))
    if game_id == "heroes":
        return {
            "to_move": position["to_move"],
            "set_aside": position["set_aside"],
            "hands": {s: sorted(h) for s, h in position["hands"].items()},
            "reserves": position["reserves"],
        }
    if game_id == "dice-heroes":
        return {
            "holder": position["holder"],
            "laid": [d["face"] for d in position["laid"]],
            "to_move": position["to_move"],
            "dice": [d["face"] for d in position["dice"]],
        }
    if game_id == "liars-dice":
        return {"to_move": position["to_move"], "hands": position["hands"]}
    return {
        "ring": position["ring"],
        "dwarves": position["dwarves"],
        "hobbit": position["hobbit"],
        "dragon": position["dragon"]["tile"],
        "pool": position["pool"],
        "start": position["start"],
        "dice": position["dice"],
    }


@pytest.mark.parametrize(
    ("game_id", "players"),
    [
        (g, n)
        for g, game in all_games().items()
        for n in range(game.spec.min_players, game.spec.max_players + 1)
    ],
)
def test_the_script_deals_what_the_engine_deals(game_id: str, players: int) -> None:
    script = load_script()
    for k in range(25):
        seed = f"deal-{k}"
        dealt = script.deal(game_id, players, seed)
        expected = engine_deal(game_id, players, seed)
        if game_id == "heroes":
            dealt["hands"] = {
                s: sorted(h, key=script.ROLES.index) for s, h in dealt["hands"].items()
            }
            expected["hands"] = {
                s: sorted(h, key=script.ROLES.index) for s, h in expected["hands"].items()
            }
        if game_id == "dice-heroes":
            rolloff = dealt.pop("rolloff")
            assert len(rolloff[0]) == players
        assert {key: dealt[key] for key in expected} == expected, seed


def test_the_script_deals_with_the_table_options_of_the_record() -> None:
    """A deal that depends on a table option (Liar's Dice's ``dice``) reads it from the record's
    params, as the engine does."""
    script, game = load_script(), get("liars-dice")
    for dice in range(1, 6):
        params = {"players": 3, "dice": dice, "rounds": "one"}
        position = game.to_json(game.new(params, f"dice-{dice}"))
        dealt = script.deal("liars-dice", 3, f"dice-{dice}", params)
        assert dealt == {"to_move": position["to_move"], "hands": position["hands"]}
        assert all(len(hand) == dice for hand in dealt["hands"])


KEY = SigningKey.generate()


def finished_record(tmp_path: Path, game_id: str, commit: bool = True) -> Path:
    """A signed format-3 record (with this secret seat 0 reveals, seat 1 never does), or
    without ``commit`` one whose seats committed to nothing."""
    game = get(game_id)
    players = game.spec.min_players
    secret = hashlib.sha256(b"script-check").hexdigest()
    bots = ["random"] * players
    match = play_match(game, players, secret, bots, table="script", commit=commit)
    path = tmp_path / f"{game_id}.json"
    path.write_text(match.record().sign(KEY).dumps())
    return path


def run_script(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize("game_id", list(all_games()))
def test_the_script_checks_a_finished_record(tmp_path: Path, game_id: str) -> None:
    path = finished_record(tmp_path, game_id)
    done = run_script(path, "--key", KEY.public_key)
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith("OK: sha256(secret) is the commitment")
    assert "the chain and the signature" in done.stdout
    original = json.loads(path.read_text())
    assert run_script(path, "--key", SigningKey.generate().public_key).returncode == 1
    changes = {
        "sha256(secret)": {"secret": "0" * 64},
        "signature": {
            "players": [{**original["players"][0], "name": "M"}, *original["players"][1:]]
        },
    }
    for expected, change in changes.items():
        path.write_text(json.dumps({**original, **change}))
        bad = run_script(path)
        assert bad.returncode == 1 and expected in bad.stdout, (expected, bad.stdout)
    # changes signed again by the key's holder: the seed and the chain give them away
    assert original["contributions"][0] and original["commitments"][1] and not original["salts"][1]
    for expected, change in {
        "the reveal of seat 0": {"contributions": ["x", *original["contributions"][1:]]},
        "HMAC": {"seed": "0" * 64},
        "chain": {"actions": original["actions"][:-1]},
    }.items():
        resigned = MatchRecord.from_json({**original, **change}).sign(KEY)
        path.write_text(resigned.dumps())
        bad = run_script(path)
        assert bad.returncode == 1 and expected in bad.stdout, (expected, bad.stdout)


def test_the_script_checks_receipts(tmp_path: Path) -> None:
    path = finished_record(tmp_path, "dice-heroes")
    record = json.loads(path.read_text())
    script = load_script()
    heads = script.chain(record)
    receipt = tmp_path / "receipt.json"
    receipt.write_text(json.dumps({"table": "script", "version": 3, "chain": heads[3]}))
    assert run_script(path, "--receipt", receipt).returncode == 0
    receipt.write_text(json.dumps({"table": "script", "version": 3, "chain": heads[4]}))
    done = run_script(path, "--receipt", receipt)
    assert done.returncode == 1 and "at version 3" in done.stdout


def test_the_script_checks_a_format_1_record() -> None:
    for path in sorted((Path(__file__).parent / "core" / "format1").glob("*.json")):
        done = run_script(path)
        assert done.returncode == 0 and "fingerprint" in done.stdout, done.stdout


def test_the_script_checks_a_format_2_record() -> None:
    """Records written before seats committed (format 2) keep checking."""
    for path in sorted((Path(__file__).parent / "core" / "format2").glob("*.json")):
        done = run_script(path)
        assert done.returncode == 0 and "the chain and the signature" in done.stdout, done.stdout
        assert "commitment" not in done.stdout.splitlines()[1]


@pytest.mark.parametrize("how", ["abort", "operator"])
def test_the_script_checks_an_ended_record(tmp_path: Path, how: str) -> None:
    """A match aborted before the person's first move, or ended by the operator: it checks, and
    its ``ended`` added, removed or changed is caught (docs/records.md#an-ended-match)."""
    record = ended_record(how, moves=3)
    path = tmp_path / "ended.json"
    path.write_text(json.dumps(record))
    done = run_script(path)
    assert done.returncode == 0, done.stdout
    said = "aborted by seat 1" if how == "abort" else "the operator"
    assert f"OK: the match ended other than by the rules ({said}), with no result" in done.stdout
    # the receipt of the last version taken before the end, and the one after it, both agree
    script = load_script()
    before = script.chain({k: v for k, v in record.items() if k != "ended"})[-1]
    last = len(record["actions"])
    for head in (before, record["chain"]):
        receipt = tmp_path / "receipt.json"
        receipt.write_text(json.dumps({"table": record["table"], "version": last, "chain": head}))
        assert run_script(path, "--receipt", receipt).returncode == 0
    other = {"by": "operator"} if how == "abort" else {"by": "abort", "seat": 0}
    unsigned = {**record, "ended": other}
    path.write_text(json.dumps(unsigned))
    bad = run_script(path)
    assert bad.returncode == 1 and "does not match the record" in bad.stdout, bad.stdout
    # signed again: an ending changed does not fit the outcome or the steps, one removed the chain
    changed_ending = "the outcome of an ended match" if how == "abort" else "a move of its own"
    for expected, changed in {
        changed_ending: {**record, "ended": other},
        "the outcome of an ended match is": {
            **record,
            "outcome": {"winners": [1], "reason": "score", "draw": False},
        },
    }.items():
        resigned = MatchRecord.from_json(changed).sign(KEY)
        path.write_text(resigned.dumps())
        bad = run_script(path)
        assert bad.returncode == 1 and expected in bad.stdout, (expected, bad.stdout)
    removed = {k: v for k, v in record.items() if k != "ended"}
    path.write_text(MatchRecord.from_json(removed).sign(KEY).dumps())
    bad = run_script(path)
    assert bad.returncode == 1 and "the chain ends at" in bad.stdout, bad.stdout


def test_the_script_refuses_an_abort_by_a_seat_that_moved(tmp_path: Path) -> None:
    record = ended_record("operator", moves=4)
    assert any(s["seat"] == 0 and s["by"] == "player" for s in record["actions"])
    forged = {**record, "ended": {"by": "abort", "seat": 0}, "outcome": {**record["outcome"]}}
    forged["outcome"]["reason"] = "aborted"
    path = tmp_path / "forged.json"
    path.write_text(MatchRecord.from_json(forged).sign(KEY).dumps())
    bad = run_script(path)
    assert bad.returncode == 1 and "seat 0 made a move of its own" in bad.stdout, bad.stdout


def test_the_script_checks_a_resigned_record(tmp_path: Path) -> None:
    """A 2-player match the person at seat 0 resigned: it checks, the other seat the winner; its
    ``ended`` changed, removed or given to the bot, or its winner changed, is caught."""
    record = ended_record("resign", moves=4)
    assert record["outcome"] == {"winners": [1], "reason": "resigned", "draw": False}
    path = tmp_path / "resigned.json"
    path.write_text(json.dumps(record))
    done = run_script(path)
    assert done.returncode == 0, done.stdout
    assert "OK: seat 1 resigned the match: seat 2 wins" in done.stdout
    by_bot = {"by": "resign", "seat": 1}
    path.write_text(json.dumps({**record, "ended": by_bot}))
    bad = run_script(path)
    assert bad.returncode == 1 and "does not match the record" in bad.stdout, bad.stdout
    lost = {"winners": [0], "reason": "resigned", "draw": False}
    nobody = {"winners": [], "reason": "resigned", "draw": False}
    for expected, changed in [
        (
            "seat 1 is a bot's: only a person may resign",
            {**record, "ended": by_bot, "outcome": lost},
        ),
        ("the outcome of an ended match is", {**record, "outcome": lost}),
        ("the outcome of an ended match is", {**record, "outcome": nobody}),
    ]:
        path.write_text(MatchRecord.from_json(changed).sign(KEY).dumps())
        bad = run_script(path)
        assert bad.returncode == 1 and expected in bad.stdout, (expected, bad.stdout)
    removed = {k: v for k, v in record.items() if k != "ended"}
    path.write_text(MatchRecord.from_json(removed).sign(KEY).dumps())
    bad = run_script(path)
    assert bad.returncode == 1 and "the chain ends at" in bad.stdout, bad.stdout
