"""Return of the Dwarves – The Great Hall (``dwarves``): dwarves race round a fortress ring to the
hobbit, trade and steal treasure stones, and dodge the dragon."""

from .game import DwarvesGame

GAME = DwarvesGame()

__all__ = ["GAME", "DwarvesGame"]
