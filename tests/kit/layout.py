"""Which files of ludoteca name a game (``tests/test_layout.py``, the toy game's own test): every
text file under ``src/ludoteca`` outside the games' packages, searched for each way a game is
named, with the exceptions below, each with its reason."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ludoteca.core import Game

from .env import ROOT

SRC = ROOT / "src" / "ludoteca"

DISCOVERY = "src/ludoteca/games/__init__.py"
"""The catalogue's own discovery, the one file outside the packages allowed to name a game."""

DATA = {
    "src/ludoteca/server/accounts/common-passwords.txt": (
        "passwords refused at sign-up: the words a guesser tries first on a board-game site, "
        "the games' names among them; a list about passwords, read by nothing about a game"
    ),
}
"""Data files that hold a game's name as something else, each with the reason."""


def names(game: Game[Any, Any]) -> set[str]:
    """Every way a game is named: its identifier (with dashes or underscores), its package, its
    Game class, its display names (the spec's and the catalogue's, in every language)."""
    found = {game.spec.id, game.spec.id.replace("-", "_"), game.package.rsplit(".", 1)[-1]}
    found.add(type(game).__name__)
    found |= set(game.spec.names.values())
    found |= {entry["name"] for entry in game.catalogue().values()}
    return found


def pattern(words: Iterable[str]) -> re.Pattern[str]:
    """Any of the words, in any case, not inside a longer word (``heroes-art.js`` and
    ``dwarves_rules`` name a game, ``superheroes`` does not)."""
    either = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![^\W_])(?:{either})(?![^\W_])", re.IGNORECASE)


def folder(game: Game[Any, Any]) -> Path:
    """The game's package folder."""
    file = sys.modules[game.package].__file__
    assert file is not None
    return Path(file).parent


def excused(path: str) -> bool:
    return path == DISCOVERY or path in DATA


def named_outside(games: Iterable[Game[Any, Any]]) -> dict[str, list[str]]:
    """Each file under ``src/ludoteca`` outside these games' packages that names one of them, not
    excused, with its lines that do."""
    games = list(games)
    match = pattern(set().union(*(names(g) for g in games)))
    packages = [folder(g) for g in games]
    found: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*")):
        where = str(path.relative_to(ROOT))
        if not path.is_file() or "__pycache__" in path.parts or excused(where):
            continue
        if any(path.is_relative_to(p) for p in packages):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:  # an image: no words in it
            continue
        hits = [f"{n}: {line.strip()[:90]}" for n, line in enumerate(text.splitlines(), 1)]
        hits = [hit for hit in hits if match.search(hit.split(": ", 1)[1])]
        if hits:
            found[where] = hits
    return found
