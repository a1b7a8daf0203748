"""The catalogue: every package under ``ludoteca.games`` that exposes ``GAME`` is a game.

A new game is a new folder here, nothing more.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from ludoteca.core import Game, UnknownGameError


@cache
def all_games() -> dict[str, Game[Any, Any]]:
    """Every registered game by identifier, in a stable order."""
    found: dict[str, Game[Any, Any]] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found[game.spec.id] = game
    return found


def get(game_id: str) -> Game[Any, Any]:
    """The game with this identifier (UnknownGameError naming the known ones otherwise)."""
    games = all_games()
    try:
        return games[game_id]
    except KeyError:
        known = ", ".join(games) or "none"
        raise UnknownGameError(f"no game '{game_id}' (known: {known})") from None
