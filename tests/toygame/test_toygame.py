"""The toy game joins the catalogue from outside ``src/ludoteca/games`` and is then served by the
same code as every game: the CLI simulates it with bots and verifies its records, in this process
(``register``) and in a fresh one (``LUDOTECA_GAMES``). The conformance suite runs it too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ludoteca import cli
from ludoteca.core import IllegalActionError, InvalidActionError, Match, UnknownGameError
from ludoteca.games import all_games, get, register, unregister

from . import GAME, HighCardGame

TESTS = Path(__file__).resolve().parents[1]


@pytest.fixture
def registered() -> Iterator[HighCardGame]:
    register(GAME)
    try:
        yield GAME
    finally:
        unregister(GAME.spec.id)


def test_register_adds_the_game_and_unregister_takes_it_out(
    registered: HighCardGame,
) -> None:
    assert get("high-card") is registered
    assert list(all_games())[-1] == "high-card"
    register(GAME)  # the same object again is harmless
    unregister("high-card")
    assert "high-card" not in all_games()
    with pytest.raises(UnknownGameError, match="high-card"):
        get("high-card")
    register(GAME)  # for the fixture's clean-up


def test_register_refuses_what_is_not_a_new_game() -> None:
    with pytest.raises(TypeError, match="Game"):
        register("high-card")  # type: ignore[arg-type]
    heroes = type(get("heroes"))()
    with pytest.raises(ValueError, match="'heroes' is already"):
        register(heroes)
    with pytest.raises(UnknownGameError):
        unregister("heroes")
    assert get("heroes") is not heroes


def test_the_cli_simulates_a_registered_game_and_verifies_its_records(
    registered: HighCardGame, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "records"
    args = ["simulate", "high-card", "--games", "6", "--bots", "medium,random", "--jobs", "1"]
    assert cli.main([*args, "--json", "--records", str(records)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 6
    files = sorted(records.glob("high-card-*.json"))
    assert len(files) == 6
    for path in files:
        assert cli.main(["verify", str(path)]) == 0
    assert capsys.readouterr().out.count("OK: high-card match") == 6


def test_another_process_finds_the_game_named_by_the_environment(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "LUDOTECA_GAMES": "toygame",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])),
    }
    run = [sys.executable, "-m", "ludoteca.cli", "simulate", "high-card", "--games", "2"]
    done = subprocess.run(
        [*run, "--jobs", "1", "--json"], check=False, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["game"] == "high-card"
    env["LUDOTECA_GAMES"] = "no_such_module"
    done = subprocess.run(run, check=False, env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "LUDOTECA_GAMES names 'no_such_module'" in done.stderr


def test_a_match_of_short_texts_and_plain_json_views() -> None:
    match = Match(GAME, None, "toy")
    assert match.legal(0) == ["stand", "draw"]
    with pytest.raises(InvalidActionError, match="expected 'stand'"):
        match.act(0, "discard 10")
    with pytest.raises(IllegalActionError, match="draw before you discard"):
        match.act(0, "discard 1")
    match.act(0, "draw")
    hand = match.view(0)["position"]["hand"]
    assert match.legal(0) == [f"discard {c}" for c in sorted(hand)]
    assert match.view(1)["position"]["hand_counts"] == [2, 1]
    match.act(0, f"discard {min(hand)}")
    for seat in (1, 0, 1):
        match.act(seat, "stand")
    view = match.view(None)["position"]
    assert json.loads(json.dumps(view)) == view
    cards = view["revealed"]
    assert cards[0] == [max(hand)]
    assert match.outcome is not None
    assert match.outcome.winners == (0 if cards[0][0] > cards[1][0] else 1,)
    assert match.outcome.scores == (float(cards[0][0]), float(cards[1][0]))
