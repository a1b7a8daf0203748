"""High Card, the toy game of the test suite: a whole game on one screen, following the template
of ``docs/games.md``. Registered with ``ludoteca.games.register(GAME)`` or ``LUDOTECA_GAMES``."""

from .game import HighCardGame

GAME = HighCardGame()

__all__ = ["GAME", "HighCardGame"]
