"""Liar's Dice (Dudo): bid on the dice under every cup, or call the last bid a lie; 2-6 players."""

from .game import LiarsDiceGame

COMPILED = ("rules",)
"""The modules worth compiling with mypyc (``ludoteca.native``): those ``legal_actions`` and
``play`` run through."""

GAME = LiarsDiceGame()

__all__ = ["COMPILED", "GAME", "LiarsDiceGame"]
