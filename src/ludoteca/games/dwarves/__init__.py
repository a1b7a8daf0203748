"""Return of the Dwarves – The Great Hall (``dwarves``): dwarves race round a fortress ring to the
hobbit, trade and steal treasure stones, and dodge the dragon."""

from .game import DwarvesGame

COMPILED = (
    "actions",
    "choices",
    "fortress",
    "lineup",
    "play",
    "rules",
    "scoring",
    "state",
    "stones",
)
"""The modules worth compiling with mypyc (``ludoteca.native``): those ``legal_actions`` and
``play`` run through."""

GAME = DwarvesGame()

__all__ = ["COMPILED", "GAME", "DwarvesGame"]
