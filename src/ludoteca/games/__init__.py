"""The catalogue: every package under ``ludoteca.games`` that exposes ``GAME`` is a game, and so is
every game registered from outside.

A new game is a new folder here, nothing more. A game kept elsewhere (a plugin, the toy game of the
test suite) joins the catalogue with ``register(GAME)`` in the process that serves it, or, for every
process started with it, with the environment variable ``LUDOTECA_GAMES``: importable module names,
comma-separated, each exposing ``GAME`` (e.g. ``LUDOTECA_GAMES=toygame`` with ``tests`` on the
Python path). See ``docs/games.md``.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from functools import cache
from typing import Any

from ludoteca.core import Game, UnknownGameError

ENVIRONMENT = "LUDOTECA_GAMES"

_registered: dict[str, Game[Any, Any]] = {}


@cache
def _packaged() -> dict[str, Game[Any, Any]]:
    """The games under ``ludoteca.games``, then those named by ``LUDOTECA_GAMES``."""
    found: dict[str, Game[Any, Any]] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        _add(found, importlib.import_module(f"{__name__}.{info.name}"), required=False)
    for name in filter(None, (n.strip() for n in os.environ.get(ENVIRONMENT, "").split(","))):
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            message = f"{ENVIRONMENT} names '{name}', which does not import: {exc}"
            raise ImportError(message) from exc
        _add(found, module, required=True)
    return found


def _add(found: dict[str, Game[Any, Any]], module: Any, required: bool) -> None:
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        if required:
            raise TypeError(f"{module.__name__}.GAME is not a ludoteca.core.Game")
        return
    if game.spec.id in found:
        raise ValueError(f"two games are called '{game.spec.id}' ({module.__name__})")
    found[game.spec.id] = game


def all_games() -> dict[str, Game[Any, Any]]:
    """Every game by identifier: the packaged ones in a stable order, then the registered ones."""
    return {**_packaged(), **_registered}


def get(game_id: str) -> Game[Any, Any]:
    """The game with this identifier (UnknownGameError naming the known ones otherwise)."""
    games = all_games()
    try:
        return games[game_id]
    except KeyError:
        known = ", ".join(games) or "none"
        raise UnknownGameError(f"no game '{game_id}' (known: {known})") from None


def register(game: Game[Any, Any]) -> None:
    """Add a game kept outside this package to the catalogue of this process.

    TypeError when it is not a ``Game``; ValueError when another game has its identifier
    (registering the same object twice is harmless).
    """
    if not isinstance(game, Game):
        raise TypeError(f"only a ludoteca.core.Game can be registered, not {type(game).__name__}")
    known = all_games().get(game.spec.id)
    if known is not None and known is not game:
        raise ValueError(f"a game called '{game.spec.id}' is already in the catalogue")
    _registered[game.spec.id] = game


def unregister(game_id: str) -> None:
    """Take a registered game out again (a test's clean-up); packaged games stay."""
    if game_id not in _registered:
        raise UnknownGameError(f"no registered game '{game_id}'")
    del _registered[game_id]
