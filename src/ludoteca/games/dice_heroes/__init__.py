"""Dice Heroes (Würfelhelden): roll, hunt villains, gather coins; 2-4 players."""

from .game import DiceHeroesGame

GAME = DiceHeroesGame()

__all__ = ["GAME", "DiceHeroesGame"]
