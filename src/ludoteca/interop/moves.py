"""What the OpenSpiel adapter does at every player action.

``ludoteca.interop.openspiel``'s state (a ``pyspiel.State`` subclass, so Python) asks these for
the legal action ids of a position (``lister``: the ids through the game's ``Encoding``, ascending
as OpenSpiel lists them, kept per legal list where that pays) and for the player to move; it plays
the action of an id itself (``_apply_action``: a frame less per action). They know nothing of
``pyspiel`` (its player ids are copied here, and checked by the tests).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
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
    adapter state share it (a copy that moves on drops it), and so do all the positions with the
    same legal list when ``lister`` can tell them."""

    __slots__ = ("actions", "ascending", "ids")

    def __init__(
        self, ids: list[int], actions: list[Hashable], ascending: list[int] | None = None
    ) -> None:
        """``ascending``: ``ids`` sorted, when the caller has them so (else sorted here)."""
        self.ids = ids
        self.actions = actions
        self.ascending = sorted(ids) if ascending is None else ascending

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


TABLES = 1 << 16
"""The most legal lists a loaded game keeps the ``Legal`` of (``lister``)."""


def lister(encoding: Encoding, game: AnyGame) -> Callable[[Any], Legal]:
    """What lists the legal actions of a state of ``game`` as a ``Legal`` (ids through
    ``encoding``), for the positions of one loaded game.

    A legal list met again is neither mapped to ids nor sorted again, where that can be told
    cheaply: an encoding that ``shares_lists`` hands out one ``ids`` list per legal list, whose
    ``Legal`` is kept by that list's identity (a kept ``Legal`` holds its list, so no other list
    can take that identity while it is kept); one that names a position's legal list by a number
    (``Encoding.code_of_state``, a game with few distinct lists) has the ``Legal`` of each list
    kept by that number, up to ``TABLES`` lists. An encoding whose rules find the ids with the
    actions (``Encoding.ascending_ids_of_state``) is asked directly.
    """
    tables: dict[Hashable, Legal] = {}
    legal_ids = encoding.legal_ids
    if encoding.shares_lists:

        def shared(state: Any) -> Legal:
            ids, actions = legal_ids(game, state)
            found = tables.get(id(ids))
            if found is None:
                found = tables[id(ids)] = Legal(ids, actions)
            return found

        return shared
    code = encoding.code_of_state()
    if code is not None:
        legal_actions, ids_of = game.legal_actions, encoding.ids_of

        def coded(state: Any) -> Legal:
            key = code(state)
            found = tables.get(key)
            if found is None:
                actions = legal_actions(state)
                found = Legal(ids_of(game, state, actions), actions)
                if len(tables) < TABLES:
                    tables[key] = found
            return found

        return coded
    direct = encoding.ascending_ids_of_state()
    if direct is not None:

        def found(state: Any) -> Legal:
            ids, actions = direct(state)
            return Legal(ids, actions, ids)

        return found

    def listed(state: Any) -> Legal:
        ids, actions = legal_ids(game, state)
        return Legal(ids, actions)

    return listed


def player(game: AnyGame, state: Any) -> int:
    """OpenSpiel's current player of a state that is no chance node: the seat to move, or
    ``TERMINAL``."""
    seat: int | None = game.to_move(state)
    return TERMINAL if seat is None else seat
