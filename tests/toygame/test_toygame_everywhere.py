"""A fourth game is one Python package plus one board folder: the toy game (this package, its board
in ``board/``) registers itself and is then played in the terminal and in OpenSpiel by the same
code as every game, and nothing outside this package names it. The web table plays it in
``tests/web/test_web_toygame.py`` (a browser)."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit.layout import named_outside
from ludoteca import cli
from ludoteca.games import register, unregister

from . import GAME, HighCardGame

ROOT = Path(__file__).resolve().parents[2]
SECRET = "5e3d0b9c2a7f4e6190d8c1b2a3f4e5d60718293a4b5c6d7e8f90a1b2c3d4e5f6"


@pytest.fixture
def registered() -> Iterator[HighCardGame]:
    register(GAME)
    try:
        yield GAME
    finally:
        unregister(GAME.spec.id)


def test_nothing_outside_the_package_names_the_toy_game() -> None:
    """ludoteca's own code, pages, styles and data hold no line about High Card."""
    assert named_outside([GAME]) == {}


def test_the_package_holds_every_file_a_game_has() -> None:
    here = Path(__file__).resolve().parent
    for name in ("rules.en.md", "rules.pt.md", "rules.de.md", "notation.md", "catalogue.json"):
        assert (here / name).is_file(), name
    board = GAME.spec.board
    assert board is not None and board.folder == "board"
    for name in (board.module, *board.parts, *board.styles, *board.word_files().values()):
        assert (here / board.folder / name).is_file(), name
    assert board.urls("high-card", "v1") == {
        "picture": None,
        "module": "/boards/high-card/v1/board.js",
        "parts": [],
        "styles": ["/boards/high-card/v1/board.css"],
        "namespace": "high-card",
        "words": {lang: f"/boards/high-card/v1/words.{lang}.json" for lang in ("en", "pt", "de")},
    }
    assert GAME.board_words("pt")["high-card"]["pile"] == "Monte"
    assert {GAME.rules_page(lang) is not None for lang in ("en", "pt", "de")} == {True}


def test_it_is_played_in_the_terminal_in_its_own_words(
    registered: HighCardGame,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    record = tmp_path / "high-card.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("2\n1\n" * 4))  # draw, then the first discard
    args = ["play", "high-card", "--seed", SECRET, "--bots", "random", "--lang", "de"]
    assert cli.main([*args, "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Hohe Karte — table terminal-" in out
    assert "Spieler 1 bekam die " in out and "Spieler 2 bekam eine Karte." in out
    assert "  1 stand    2 draw" in out  # numbered choices
    assert "Stapel: " in out and "Deine Hand: " in out  # the package's own map
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["game"] == "high-card" and f"The seed of the deal: {data['seed']}" in out
    assert cli.main(["verify", str(record)]) == 0
    # the standalone script checks what it can of a game it does not deal, and says so
    script = [sys.executable, str(ROOT / "docs" / "verify_deal.py"), str(record)]
    done = subprocess.run(script, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout
    assert "OK: the seed mixes every contribution" in done.stdout
    assert "does not deal 'high-card' matches: ludoteca verify replays it" in done.stdout


def test_it_is_played_in_openspiel(registered: HighCardGame) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from ludoteca.interop import openspiel  # noqa: PLC0415 (the research extra)

    openspiel.register()
    assert "ludoteca_high_card" in openspiel.registered()
    game = pyspiel.load_game("ludoteca_high_card")
    kinds = pyspiel.GameType
    assert game.get_type().information == kinds.Information.IMPERFECT_INFORMATION
    assert game.get_type().chance_mode == kinds.ChanceMode.SAMPLED_STOCHASTIC
    assert game.max_game_length() == 8 and game.num_distinct_actions() == 11
    rng = random.Random(2)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            assert len(state.observation_tensor(seat)) == game.observation_tensor_size()
            state.apply_action(rng.choice(state.legal_actions()))
        assert sorted(state.returns()) == [0.0, 1.0]
