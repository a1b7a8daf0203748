"""High Card without a board of its own (``LUDOTECA_GAMES=toygame.plain``): the same game under
another id, played on the web table's generic board."""

from __future__ import annotations

from dataclasses import replace

from .game import HighCardGame


class PlainHighCardGame(HighCardGame):
    spec = replace(HighCardGame.spec, id="high-card-plain", board=None)


GAME = PlainHighCardGame()
