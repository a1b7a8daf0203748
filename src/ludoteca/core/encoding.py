"""A game's numbers for research frameworks: action ids and the layout of observation tensors.

A game offers one with ``Game.encoding(players)`` (the class lives in the game's package, next to
its notation). Both are built from the documented public surface only: an action id is the index of
the action's canonical text in a fixed vocabulary, and a tensor is computed from
``Game.observation(state, seat)`` and nothing else, so a tensor can never show what that
observation hides. The tensors themselves are numpy arrays made by ``ludoteca.interop`` (the
``research`` extra); nothing here imports numpy: ``views`` and ``write`` only slice and fill the
array they are given. The layouts are listed in ``docs/research.md``.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Protocol

Tensor = Any
"""A numpy float32 array (``ludoteca.interop.encoding.Tensor``); any array that slices, reshapes
and fills like one."""


class Actions(Protocol):
    """What an encoding reads of a game: its legal actions and their text (every ``Game`` has
    them; naming this much keeps ``game`` and ``encoding`` from importing each other)."""

    def legal_actions(self, state: Any) -> list[Any]: ...

    def action_to_text(self, state: Any, action: Any) -> str: ...


class EncodingError(ValueError):
    """An action or observation outside the documented vocabulary of a game."""


@dataclass(frozen=True, slots=True)
class Segment:
    """A named block of the flat tensor: ``shape`` numbers starting at ``offset``."""

    name: str
    shape: tuple[int, ...]
    offset: int
    meaning: str
    size: int


SEEN_OBJECTS = 1 << 16
"""The most action objects an encoding remembers by identity (a game that makes new action
objects every time is then looked up by value)."""


class Encoding(ABC):
    """A game's action vocabulary and tensor layout for a given number of players."""

    game_id: str
    actions: tuple[str, ...]
    shares_lists = False
    """Whether ``legal_ids`` hands out one ``ids`` list per distinct legal list, kept for the
    encoding's life (the same list object for the same actions, in the same order), so that what
    a caller derives from a list can be kept by the list's identity."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.ids = {text: i for i, text in enumerate(self.actions)}
        # Actions are plain values equal across states and each has one canonical text, so the
        # id found for an action's text is kept by action (a game's text is never state-dependent
        # in these three games; the ids are still checked against the text on first sight).
        self.known: dict[Hashable, int] = {}
        # The same ids by the action objects themselves (``id``), for the games that hand out
        # the same objects again (tables of actions): no hashing of the action. Each object so
        # found is kept alive in ``seen``, so its ``id`` is never another object's.
        self.by_object: dict[int, int] = {}
        self.id_of_object = self.by_object.__getitem__
        self.seen: list[Hashable] = []
        segments: list[Segment] = []
        offset = 0
        for name, shape, meaning in self.blocks():
            segment = Segment(name, shape, offset, meaning, math.prod(shape))
            segments.append(segment)
            offset += segment.size
        self.segments = tuple(segments)
        self.size = offset

    @abstractmethod
    def blocks(self) -> list[tuple[str, tuple[int, ...], str]]:
        """The tensor's blocks in order: name, shape and what the numbers mean."""

    @abstractmethod
    def fill(self, obs: dict[str, Any], views: dict[str, Tensor]) -> None:
        """Write the observation into the (zeroed) block views."""

    # ------------------------------------------------------------------------------ actions
    def action_id(self, game: Actions, state: Any, action: Hashable) -> int:
        found = self.known.get(action)
        if found is None:
            text = game.action_to_text(state, action)
            try:
                found = self.known[action] = self.ids[text]
            except KeyError:
                raise EncodingError(f"{self.game_id}: action '{text}' has no id") from None
        if len(self.seen) < SEEN_OBJECTS and id(action) not in self.by_object:
            self.seen.append(action)
            self.by_object[id(action)] = found
        return found

    def legal_ids(self, game: Actions, state: Any) -> tuple[list[int], list[Hashable]]:
        """The legal actions (the game's order) and their ids, item by item."""
        actions = game.legal_actions(state)
        return self.ids_of(game, state, actions), actions

    def ascending_ids_of_state(self) -> Callable[[Any], tuple[list[int], list[Hashable]]] | None:
        """A function of the state alone giving the legal ids ascending and, item by item, their
        actions (a game's rules that find the ids with the actions), for callers that list many
        positions; None when the game has none."""
        return None

    def code_of_state(self) -> Callable[[Any], int] | None:
        """A function of the state alone naming its legal list by a number (one number for one
        list, the same for the same list), cheaper than listing it, for callers that keep what
        they derive from a list: a game with few distinct legal lists; None for the others."""
        return None

    def ids_of(self, game: Actions, state: Any, actions: list[Hashable]) -> list[int]:
        """The ids of ``actions``, legal in ``state``, item by item (a new list)."""
        try:
            return list(map(self.id_of_object, map(id, actions)))
        except KeyError:
            return [self.action_id(game, state, a) for a in actions]

    def legal(self, game: Actions, state: Any) -> dict[int, Hashable]:
        """The legal actions by id (ids ascending)."""
        ids, actions = self.legal_ids(game, state)
        return dict(sorted(zip(ids, actions, strict=True)))

    # ------------------------------------------------------------------------------ tensors
    def views(self, flat: Tensor) -> dict[str, Tensor]:
        """Named, shaped views into a flat tensor of ``self.size`` numbers."""
        return {s.name: flat[s.offset : s.offset + s.size].reshape(s.shape) for s in self.segments}

    def write(
        self,
        obs: dict[str, Any],
        seat: int | None,
        flat: Tensor,
        views: dict[str, Tensor] | None = None,
    ) -> None:
        """Fill ``flat`` (``self.size`` numbers) from ``obs``, seen by ``seat`` (None: spectator);
        ``views`` are ``self.views(flat)`` when the caller keeps them."""
        flat.fill(0.0)
        views = self.views(flat) if views is None else views
        if seat is not None:
            views["observer"][seat] = 1.0
        self.fill(obs, views)


def one_hot(view: Tensor, index: int | None) -> None:
    """Set ``view[index]`` to 1 (nothing for None)."""
    if index is not None:
        view[index] = 1.0


def observer_block(players: int) -> tuple[str, tuple[int, ...], str]:
    """The first block of every layout: whose view this is."""
    return ("observer", (players,), "one-hot: the seat whose view this is (all 0 for a spectator)")
