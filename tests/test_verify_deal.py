"""docs/verify_deal.py, written with the standard library only, deals exactly as the engine does."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ludoteca.bots.arena import play_match
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


def finished_record(tmp_path: Path, game_id: str) -> Path:
    game = get(game_id)
    match = play_match(
        game, game.spec.min_players, "script-check", ["random"] * game.spec.min_players
    )
    path = tmp_path / f"{game_id}.json"
    path.write_text(match.record().dumps())
    return path


@pytest.mark.parametrize("game_id", list(all_games()))
def test_the_script_checks_a_finished_record(tmp_path: Path, game_id: str) -> None:
    path = finished_record(tmp_path, game_id)
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith("OK: sha256(seed) is the commitment")
    record = json.loads(path.read_text())
    record["seed"] = "not the seed"
    path.write_text(json.dumps(record))
    bad = subprocess.run(
        [sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 1 and "FAILED: sha256(seed)" in bad.stdout
