"""One of our games' positions as an OpenSpiel state (``LudotecaState``): a chance node, a seat to
move, or the end, played from Python or from OpenSpiel's C++ algorithms."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from .chance import Position
from .encoding import canonical
from .moves import CHANCE, TERMINAL, Legal, player
from .openspiel_entry import Shared


@cache
def _uniform(outcomes: int) -> tuple[tuple[int, float], ...]:
    """A chance node's outcomes 0..n-1, equally likely."""
    return tuple((o, 1.0 / outcomes) for o in range(outcomes))


def _player_of(position: Position) -> int:
    """OpenSpiel's current player of a position: chance, the seat to move, or terminal."""
    return CHANCE if position.pending is not None else player(position.game, position.state)


class Unsynced(list[tuple[int, int]]):
    """The (player, action) pairs a state has played from Python and not yet handed to C++; a
    copied state gets its own list (the pairs themselves never change)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Unsynced:
        return Unsynced(self)


class LudotecaState(pyspiel.State):  # type: ignore[misc]
    """A position: a chance node (explicit chance), a seat to move, or the end.

    With sampled chance, an action played from Python (``apply_action``) is noted here and
    reaches OpenSpiel's C++ record of the match (its history and move number) when that record
    is read through this class (``history``, ``full_history``, ``history_str``,
    ``move_number``, ``serialize``, ``undo_action``; a ``clone`` takes the notes with it) or
    when C++ plays the next action: the record always reads as if every action had gone through
    C++. C++ code handed a state straight after Python played on it, that reads its history
    without asking the state anything first, would read it as it was: call ``sync()`` before.
    """

    def __init__(self, game: pyspiel.Game, shared: Shared) -> None:
        super().__init__(game)
        self.shared = shared
        # OpenSpiel makes a new initial state for every copy, then overwrites its fields: the
        # deal is only numbered here and dealt on first use, so a copy never pays for a set-up.
        self.deal = shared.next_deal()
        self.dealt: Position | None = None
        self.legal_cache: Legal | None = None  # once listed for this position
        self.player: int | None = None  # current_player(), once known for this position
        self.unsynced = Unsynced()  # (player, action) played from Python, not yet in C++
        self.replaying = False  # ``sync`` is handing them to C++

    @property
    def position(self) -> Position:
        if self.dealt is None:
            self.dealt = self.shared.new_position(self.deal)
        return self.dealt

    @position.setter
    def position(self, value: Position) -> None:
        self.dealt = value
        self.legal_cache = None
        self.player = None

    # --------------------------------------------------------------------------- queries
    def current_player(self) -> int:
        player = self.player
        if player is None:
            player = self.player = _player_of(self.dealt or self.position)
        return player

    def is_terminal(self) -> bool:
        player = self.player
        return (self.current_player() if player is None else player) == TERMINAL

    # Python callers (OpenSpiel's Python algorithms, our benches) reach these without a round
    # trip through pybind11; C++ callers still go through ``_legal_actions`` and friends.
    def is_chance_node(self) -> bool:
        player = self.player
        return (self.current_player() if player is None else player) == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """As OpenSpiel's ``State::LegalActions``: [] at the end, the outcomes at a chance
        node, else the actions of ``player`` (default: the player to move)."""
        current = self.player
        if current is None:
            current = self.current_player()
        if current >= 0:
            if player is not None and player != current:
                return []
            cache = self.legal_cache
            if cache is None:  # ``legal``, without its frame
                cache = self.legal_cache = self.shared.legal((self.dealt or self.position).state)
            return cache.ascending[:]
        if current == CHANCE and (player is None or player == CHANCE):
            return list(range(self.position.outcomes))
        return []

    def legal(self) -> Legal:
        """The legal actions of the seat to move (not at a chance node or the end)."""
        cache = self.legal_cache
        if cache is None:
            cache = self.legal_cache = self.shared.legal((self.dealt or self.position).state)
        return cache

    def _legal_actions(self, player: int) -> list[int]:
        if player < 0 or player != self.current_player():
            return []
        return self.legal().ascending[:]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        position = self.dealt or self.position
        node = position.roll
        return list(_uniform(position.outcomes) if node is None else node.outcomes)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            position = self.position
            node = position.roll
            if node is None or not 0 <= action < len(node.draws):
                return f"chance {action} of {position.outcomes}"
            return f"chance {action} of {position.outcomes}: draws {node.draws[action]}"
        actions = self.shared.encoding.actions
        if not 0 <= action < len(actions):
            raise ValueError(f"no action {action} in {self.shared.entry.short_name}")
        return actions[action]

    def returns(self) -> list[float]:
        players = self.shared.players
        outcome = None if self.position.chance else self.shared.game.outcome(self.position.state)
        if outcome is None:
            return [0.0] * players
        return [outcome.payoff(seat, players) for seat in range(players)]

    def __str__(self) -> str:
        return canonical(self.position.to_json())

    # --------------------------------------------------------------------------- changes
    def apply_action(self, action: int) -> None:
        """As OpenSpiel's ``State::ApplyAction``. With sampled chance, the action is played here
        and only noted for OpenSpiel's own record of the match (``sync``): pybind11's way, C++
        calling back into Python for ``current_player`` and then ``_apply_action``, would cost
        more than the rules' own work."""
        position = self.dealt or self.position
        if position.scripted:  # explicit chance: C++ records every action at once
            pyspiel.State.apply_action(self, action)
            return
        player = self.player
        if player is None:
            player = self.current_player()
        moves = self.legal_cache or self.shared.legal(position.state)
        try:
            chosen = moves.actions[moves.ids.index(action)]
        except ValueError:
            raise ValueError(f"action {action} is not legal here") from None
        self.legal_cache = None
        game, state = position.game, position.state
        game.step(state, chosen)  # chance drawn from the state's own stream
        seat = game.to_move(state)
        self.player = TERMINAL if seat is None else seat  # asked next, always
        self.unsynced.append((player, action))

    def sync(self) -> None:
        """Hand OpenSpiel's C++ state the actions played from Python since (``apply_action``),
        in order, so that its history and move number are what eager play would have made."""
        pending = self.unsynced
        if not pending:
            return
        self.unsynced = Unsynced()
        known = self.player
        self.replaying = True
        try:
            for player, action in pending:
                self.player = player  # what C++ asks ``current_player`` before each action
                pyspiel.State.apply_action(self, action)
        finally:
            self.replaying = False
            self.player = known

    def _apply_action(self, action: int) -> None:
        """Called by C++ (OpenSpiel's ``ApplyAction``, from a C++ algorithm, ``child`` or a
        ``sync``), which records the action itself once this returns."""
        if self.replaying:
            return  # already played, by ``apply_action``
        self.sync()  # what Python played comes first in C++'s history
        position = self.dealt or self.position
        if not position.scripted:  # sampled chance: every node a player's
            self.apply_action(action)
            self.unsynced.pop()  # C++ records this one
            return
        if position.pending is not None:  # a chance node
            position.apply_chance(action)
        else:
            position.apply((self.legal_cache or self.legal()).action(action))
        self.legal_cache = None
        self.player = _player_of(position)  # asked next, always

    # OpenSpiel's record of the match, as if every action had gone through C++.
    def history(self) -> list[int]:
        self.sync()
        return list(pyspiel.State.history(self))

    def full_history(self) -> list[Any]:
        self.sync()
        return list(pyspiel.State.full_history(self))

    def history_str(self) -> str:
        self.sync()
        return str(pyspiel.State.history_str(self))

    def move_number(self) -> int:
        return int(pyspiel.State.move_number(self)) + len(self.unsynced)

    def is_initial_state(self) -> bool:
        return not self.unsynced and bool(pyspiel.State.is_initial_state(self))

    def serialize(self) -> str:
        self.sync()
        return str(pyspiel.State.serialize(self))

    def undo_action(self, player: int, action: int) -> None:
        self.sync()
        pyspiel.State.undo_action(self, player, action)

    def child(self, action: int) -> LudotecaState:
        copy: LudotecaState = self.clone()
        copy.apply_action(action)
        return copy

    def resample_from_infostate(
        self, player: int, probability_sampler: Callable[[], float]
    ) -> LudotecaState:
        """A state ``player`` cannot tell from this one, drawn by our ``Game.sample_world``.

        ``probability_sampler`` (OpenSpiel's convention: uniform numbers in [0, 1)) seeds it.
        """
        seed = int(float(probability_sampler()) * 2**53)
        clone: LudotecaState = self.clone()
        clone.position = self.position.resampled(player, random.Random(seed))
        return clone
