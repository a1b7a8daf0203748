"""Dice Heroes (Würfelhelden): roll, hunt villains, gather coins; 2-4 players."""

from .game import DiceHeroesGame

COMPILED = ("dice", "rules")
"""The modules worth compiling with mypyc (``ludoteca.native``): those ``legal_actions`` and
``play`` run through."""

GAME = DiceHeroesGame()

__all__ = ["COMPILED", "GAME", "DiceHeroesGame"]
