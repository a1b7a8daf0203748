"""``--option name=value`` of ``ludoteca play`` and ``ludoteca simulate``: a game's table options
chosen in the terminal, checked against the game's spec, with clear usage errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kit.env import seconds
from ludoteca.cli.arguments import UsageError, table_params
from ludoteca.games import get
from test_cli import SECRET, ludoteca_here


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ludoteca.cli", *args],
        input=stdin,
        check=False,
        capture_output=True,
        text=True,
        timeout=seconds(120),
    )


def test_options_are_read_as_the_game_lists_their_values() -> None:
    game = get("liars-dice")
    params = table_params(game, 3, ["dice=2", " rounds = one "])
    assert params == {"players": 3, "dice": 2, "rounds": "one", "bidding": "reset-face"}
    assert table_params(game, 2, []) == game.spec.params({"players": 2})


@pytest.mark.parametrize(
    ("game_id", "options", "message"),
    [
        ("liars-dice", ["dice=7"], "--option dice must be one of 1, 2, 3, 4, 5, not '7'"),
        ("liars-dice", ["rounds=two"], "rounds must be one of last-standing, one, not 'two'"),
        ("liars-dice", ["dice"], "write it as NAME=VALUE"),
        ("liars-dice", ["=3"], "write it as NAME=VALUE"),
        ("liars-dice", ["dice="], "write it as NAME=VALUE"),
        ("liars-dice", ["colour=red"], "no such table option (its options: dice, rounds, bidding)"),
        ("liars-dice", ["players=3"], "the number of seats is --players"),
        ("liars-dice", ["dice=3", "dice=4"], "--option dice is given twice"),
        ("heroes", ["dice=3"], "heroes has no such table option (its options: none)"),
    ],
)
def test_bad_options_are_usage_errors(game_id: str, options: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")):
        table_params(get(game_id), 2, options)


def test_simulate_plays_with_the_options_and_refuses_bad_ones(tmp_path: Path) -> None:
    done = run(
        "simulate", "liars-dice", "--games", "6", "--jobs", "1", "--json",
        "--option", "dice=1", "--option", "rounds=one", "--records", str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["options"] == {"dice": 1, "rounds": "one", "bidding": "reset-face"}
    records = sorted(tmp_path.glob("liars-dice-*.json"))
    assert len(records) == 6
    for path in records:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert record["params"] == {
            "players": 2,
            "dice": 1,
            "rounds": "one",
            "bidding": "reset-face",
        }
    bad = ludoteca_here("simulate", "liars-dice", "--games", "2", "--option", "dice=9")
    assert bad.returncode == 2 and "--option dice must be one of 1, 2, 3, 4, 5" in bad.stderr
    assert bad.stdout == ""


def test_play_deals_the_options_and_names_them() -> None:
    done = run(
        "play", "liars-dice", "--seed", SECRET, "--players", "3", "--bots", "random",
        "--option", "dice=2", "--option", "rounds=one", "--lang", "pt",
        stdin="quit\n",
    )  # fmt: skip
    out = done.stdout
    assert "Dados por jogador: 2 dados · Rodadas: Uma rodada · Aumentar uma aposta:" in out
    assert "2 dados" in out.split("'quit'")[1]  # every cup holds two dice
    bad = ludoteca_here("play", "liars-dice", "--option", "bidding=up")
    assert bad.returncode == 2
    assert "bidding must be one of reset-face, reset-quantity, not 'up'" in bad.stderr
