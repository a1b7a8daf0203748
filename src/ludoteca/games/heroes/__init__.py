"""Heroes & Relics: two groups of heroes race through a keep for its relics or the rival camp."""

from .game import HeroesGame

GAME = HeroesGame()

__all__ = ["GAME", "HeroesGame"]
