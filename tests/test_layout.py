"""A game's everything is in its package: no file of ludoteca outside ``src/ludoteca/games/<game>/``
names a game, by identifier, package name or display name in any language. The catalogue's own
discovery (``games/__init__.py``) is the one exception; the toy game has the same test of its own
(``tests/toygame/test_toygame_everywhere.py``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ludoteca.core import Game
from ludoteca.games import all_games
from toygame import GAME as TOY

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "ludoteca"
DISCOVERY = "src/ludoteca/games/__init__.py"

STILL_MOVING = {"src/ludoteca/web/"}
"""Folders whose game-specific files another change is moving into the games' packages right now
(the boards, their parts, styles and words); taken out once that change is merged."""

DATA = {
    "src/ludoteca/server/accounts/common-passwords.txt": (
        "passwords refused at sign-up: the words a guesser tries first on a board-game site, "
        "the games' names among them; a list about passwords, read by nothing about a game"
    ),
}
"""Data files that hold a game's name as something else, each with the reason."""


def names(game: Game[Any, Any]) -> set[str]:
    """Every way a game is named: its identifier, its package, its display names (the spec's and
    the catalogue's, in every language)."""
    found = {game.spec.id, game.spec.id.replace("-", "_"), game.package.rsplit(".", 1)[-1]}
    found |= set(game.spec.names.values())
    found |= {entry["name"] for entry in game.catalogue().values()}
    return found


def pattern(words: set[str]) -> re.Pattern[str]:
    """Any of the words, in any case, not inside a longer word (``heroes-art.js`` and
    ``dwarves_rules`` name a game, ``superheroes`` does not)."""
    either = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![^\W_])(?:{either})(?![^\W_])", re.IGNORECASE)


def outside_the_games(packages: set[Path]) -> list[Path]:
    """Every text file under ``src/ludoteca`` but not in a game's package."""
    files = []
    for path in sorted(SRC.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        if any(path.is_relative_to(p) for p in packages):
            continue
        files.append(path)
    return files


def naming(words: set[str], packages: set[Path]) -> dict[str, list[str]]:
    """What each file outside the games' packages says of them (a line per match)."""
    found: dict[str, list[str]] = {}
    match = pattern(words)
    for path in outside_the_games(packages):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # an image: no words in it
            continue
        lines = [f"{n}: {line.strip()[:90]}" for n, line in enumerate(text.splitlines(), 1)]
        hits = [line for line in lines if match.search(line.split(": ", 1)[1])]
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    return found


def test_nothing_outside_a_game_s_package_names_a_game() -> None:
    games = all_games()
    packaged = {g for g in games.values() if g.package.startswith("ludoteca.games.")}
    assert len(packaged) >= 3
    words = set().union(*(names(g) for g in packaged))
    packages = {SRC / "games" / g.package.rsplit(".", 1)[-1] for g in packaged}
    found = naming(words, packages)
    allowed = {DISCOVERY, *DATA}
    named = {
        path: hits
        for path, hits in found.items()
        if path not in allowed and not any(path.startswith(f) for f in STILL_MOVING)
    }
    assert named == {}


def test_the_check_finds_a_game_named_in_any_of_its_ways(tmp_path: Path) -> None:
    """The words are the toy game's too, and they are found as whole words in any case, not
    inside other words."""
    words = names(TOY)
    assert {"high-card", "high_card", "toygame", "High Card", "Carta Alta", "Hohe Karte"} <= words
    match = pattern(words)
    for line in ("game=high-card", "games.high_card.rules", "a HIGH CARD duel", "toygame_x.js"):
        assert match.search(line), line
    for line in ("high-cards", "thigh card", "carta altas", "mytoygame"):
        assert not match.search(line), line


def test_each_data_file_excused_still_names_a_game() -> None:
    """An excuse that no longer matches is taken out."""
    games = all_games().values()
    words = set().union(*(names(g) for g in games if g.package.startswith("ludoteca.games.")))
    match = pattern(words)
    for path in DATA:
        assert match.search((ROOT / path).read_text(encoding="utf-8")), path
