"""Bot levels by name: ``random``, ``easy``, ``medium``, ``hard`` (CLI, lobby and docs agree)."""

from __future__ import annotations

from typing import Any

from ludoteca.core import Bot, Game

from .random_bot import RandomBot

LEVELS = ("random", "easy", "medium", "hard")


def make_bot(level: str, game: Game[Any, Any]) -> Bot:
    """A fresh bot of ``level`` for ``game``; ValueError naming the levels otherwise."""
    if level == "random":
        return RandomBot()
    if level == "medium":
        return game.heuristic_bot()
    raise ValueError(f"unknown bot level '{level}' (levels: {', '.join(LEVELS)})")
