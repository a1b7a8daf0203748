"""Dice Heroes (Würfelhelden): roll, hunt villains, gather coins; 2-4 players."""

from .rules import DiceHeroes

GAME = DiceHeroes()

__all__ = ["GAME"]
