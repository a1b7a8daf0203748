"""A game's everything is in its package: no file of ludoteca outside ``src/ludoteca/games/<game>/``
names a game, by identifier, package name, class or display name in any language. The catalogue's
own discovery (``games/__init__.py``) is the one exception, a data file may be excused with its
reason, and the folders ``STILL_MOVING`` are waited for (``kit.layout``)."""

from __future__ import annotations

from typing import Any

from kit.env import ROOT
from kit.layout import DATA, named_outside, names, pattern
from ludoteca.core import Game
from ludoteca.games import all_games
from toygame import GAME as TOY


def packaged() -> list[Game[Any, Any]]:
    return [g for g in all_games().values() if g.package.startswith("ludoteca.games.")]


def test_nothing_outside_a_game_s_package_names_a_game() -> None:
    games = packaged()
    assert len(games) >= 3
    assert named_outside(games) == {}


def test_the_check_finds_a_game_named_in_any_of_its_ways() -> None:
    """The toy game's words, found as whole words in any case, and not inside other words."""
    words = names(TOY)
    assert {"high-card", "high_card", "toygame", "HighCardGame", "High Card", "Hohe Karte"} <= words
    match = pattern(words)
    for line in ("game=high-card", "games.high_card.rules", "a HIGH CARD duel", "toygame_x.js"):
        assert match.search(line), line
    for line in ("high-cards", "thigh card", "carta altas", "mytoygame"):
        assert not match.search(line), line


def test_each_data_file_excused_still_names_a_game() -> None:
    """An excuse that no longer matches is taken out."""
    match = pattern(set().union(*(names(g) for g in packaged())))
    for path in DATA:
        assert match.search((ROOT / path).read_text(encoding="utf-8")), path
