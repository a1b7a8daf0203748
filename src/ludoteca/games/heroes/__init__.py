"""Heroes & Relics: two groups of heroes race through a keep for its relics or the rival camp."""

from .game import HeroesGame

COMPILED = ("rules",)
"""The modules worth compiling with mypyc (``ludoteca.native``): those ``legal_actions`` and
``play`` run through."""

GAME = HeroesGame()

__all__ = ["COMPILED", "GAME", "HeroesGame"]
