"""What the OpenSpiel adapter does at every player action.

``ludoteca.interop.openspiel``'s state (a ``pyspiel.State`` subclass, so Python) asks these for
the legal action ids of a position and to play one of them: the ids through the game's
``Encoding``, ascending as OpenSpiel lists them, and after a move the player to move next. They
know nothing of ``pyspiel`` (its player ids are copied here, and checked by the tests).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Final

from ludoteca.core.encoding import Encoding
from ludoteca.core.game import Game

AnyGame = Game[Any, Any]

CHANCE: Final = -1
"""OpenSpiel's ``PlayerId.CHANCE``: the player of a chance node."""
TERMINAL: Final = -4
"""OpenSpiel's ``PlayerId.TERMINAL``: the player once the match is over."""


class Legal:
    """The legal actions of the seat to move in one position: ``actions`` in the game's order,
    ``ids`` theirs item by item (never changed: an encoding may hand out the same list again),
    ``ascending`` the ids as OpenSpiel lists them. A position's never change, so copies of an
    adapter state share it (a copy that moves on drops it)."""

    def __init__(self, ids: list[int], actions: list[Hashable]) -> None:
        self.ids = ids
        self.actions = actions
        self.ascending = sorted(ids)

    def action(self, action_id: int) -> Hashable:
        """The legal action of an id; ValueError when no legal action has it."""
        try:
            return self.actions[self.ids.index(action_id)]
        except ValueError:
            raise ValueError(f"action {action_id} is not legal here") from None

    def __deepcopy__(self, memo: dict[int, Any]) -> Legal:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Legal, (self.ids, self.actions))


def legal(encoding: Encoding, game: AnyGame, state: Any) -> Legal:
    """The legal actions of ``state``'s seat to move and their ids (``Encoding.legal_ids``,
    which a game's encoding may answer from what it knows of its lists)."""
    ids, actions = encoding.legal_ids(game, state)
    return Legal(ids, actions)


def player(game: AnyGame, state: Any) -> int:
    """OpenSpiel's current player of a state that is no chance node: the seat to move, or
    ``TERMINAL``."""
    seat: int | None = game.to_move(state)
    return TERMINAL if seat is None else seat


def play(game: AnyGame, state: Any, moves: Legal, action_id: int) -> int:
    """Play the legal action of ``action_id`` on ``state`` (``Game.step``, chance drawn from the
    state's own stream); returns the player to move next."""
    game.step(state, moves.action(action_id))
    seat: int | None = game.to_move(state)
    return TERMINAL if seat is None else seat
