"""Positions for frameworks that want chance as nodes, or sampled inside the state.

Our rules draw every random number from ``state.rng`` inside ``setup``/``apply_unchecked``. Two
ways to hand that to a framework:

* **sampled**: the position keeps a seeded ``Stream``; chance happens inside an action, as in
  OpenSpiel's sampled-stochastic games.
* **explicit**: the position's stream is a ``ScriptedStream`` that answers draws from a script of
  chance outcomes. The first draw past the script stops the action (``NeedChance``): the position
  becomes a chance node with ``n`` equally likely outcomes; choosing one extends the script and
  goes on. A game that can go on from where the draw stopped it (``Resumable``: Dice Heroes,
  whose every draw is a die of a roll) does so on the stopped state; for any other game the
  action is re-run from the copy taken before it, which is exact because an action is a pure
  function of (state, draws), but costs the action again for every outcome.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, MutableSequence, Sequence
from typing import Any, Final, Protocol, Self, TypeVar, cast, runtime_checkable

from ludoteca.core import JSON, Game, Stream
from ludoteca.games import get

AnyGame = Game[Any, Any]
T = TypeVar("T")
SETUP: Final = "<setup>"
"""The pending step while an explicit-chance set-up still needs outcomes."""


@runtime_checkable
class Resumable(Protocol):
    """A game that can go on with an action its stream stopped (``NeedChance`` from a draw),
    from the stopped state, once the stream can answer that draw."""

    def resume(self, state: Any) -> None: ...


class NeedChance(Exception):
    """A draw past the end of the script: ``outcomes`` equally likely values are needed."""

    # Raised once per die: made without a Python ``__init__``, the sentence only if shown.
    @property
    def outcomes(self) -> int:
        value: int = self.args[0]
        return value

    def __str__(self) -> str:
        return f"a chance outcome out of {self.outcomes} is needed"


class ScriptedStream(Stream):
    """A stream whose ``below(n)`` answers come from a script of chance outcomes."""

    __slots__ = ("script", "taken")

    def __init__(self, script: Sequence[int] = ()) -> None:
        super().__init__("scripted")
        self.script = tuple(script)
        self.taken = 0

    def below(self, n: int) -> int:
        if self.taken >= len(self.script):
            raise NeedChance(n)
        value = self.script[self.taken]
        if not 0 <= value < n:
            raise ValueError(f"chance outcome {value} is not below {n}")
        self.taken += 1
        self.used += 1
        return value

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates from the end through ``below`` (see ``ludoteca.core.rng``)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def word(self) -> int:
        raise TypeError("explicit chance needs every draw through below()")

    def clone(self) -> ScriptedStream:
        copy = ScriptedStream(self.script)
        copy.taken = self.taken
        copy.used = self.used
        return copy


class Position:
    """A game state plus, in explicit mode, the action waiting for chance outcomes.

    In explicit mode ``state`` is never changed in place (an action runs on a copy), so copies of
    a position share it; ``stopped`` is the copy a ``Resumable`` game's action stopped in, at a
    chance node."""

    __slots__ = (
        "game",
        "outcomes",
        "params",
        "pending",
        "resumable",
        "script",
        "scripted",
        "state",
        "stopped",
    )

    def __init__(self, game: AnyGame, params: JSON, state: Any) -> None:
        self.game = game
        self.params = params
        self.state = state  # None until an explicit set-up has all its outcomes
        self.scripted = state is None or isinstance(state.rng, ScriptedStream)
        """Explicit chance (``explicit_chance``): fixed for the position's life."""
        self.pending: Hashable | None = None
        self.script: tuple[int, ...] = ()
        self.outcomes = 0
        self.stopped: Any = None
        self.resumable = isinstance(game, Resumable)

    # ------------------------------------------------------------------------ construction
    @classmethod
    def sampled(cls, game: AnyGame, params: JSON, seed: str) -> Position:
        return cls(game, params, game.new(params, seed))

    @classmethod
    def explicit(cls, game: AnyGame, params: JSON) -> Position:
        position = cls(game, params, None)
        position._run(SETUP, ())
        return position

    @property
    def explicit_chance(self) -> bool:
        return self.scripted

    def clone(self) -> Self:
        copy = object.__new__(type(self))
        copy.game = self.game
        copy.params = self.params
        explicit = copy.scripted = self.scripted
        copy.state = self.state if explicit or self.state is None else self.state.clone()
        copy.pending = self.pending
        copy.script = self.script
        copy.outcomes = self.outcomes
        copy.stopped = None if self.stopped is None else self.stopped.clone()
        copy.resumable = self.resumable
        return copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()

    # --------------------------------------------------------------------------- queries
    @property
    def chance(self) -> bool:
        """Whether this is a chance node (explicit mode only)."""
        return self.pending is not None

    # --------------------------------------------------------------------------- changes
    def apply(self, action: Hashable) -> None:
        """Apply a legal player action (may leave a chance node in explicit mode)."""
        if self.scripted:
            self._run(action, ())
        else:
            self.game.step(self.state, action)

    def apply_chance(self, outcome: int) -> None:
        if self.pending is None:
            raise ValueError("not a chance node")
        if not 0 <= outcome < self.outcomes:
            raise ValueError(f"chance outcome {outcome} is not below {self.outcomes}")
        script = (*self.script, outcome)
        stopped = self.stopped
        if stopped is None:
            self._run(self.pending, script)
            return
        stopped.rng.script = script
        try:
            cast(Resumable, self.game).resume(stopped)
        except NeedChance as need:
            self.script, self.outcomes = script, need.args[0]
            return
        self._settled(stopped)

    def _run(self, action: Hashable, script: tuple[int, ...]) -> None:
        """Run the action (or the set-up) with the outcomes of ``script``, from the start."""
        stream = ScriptedStream(script)
        state = None
        try:
            if action == SETUP:
                state = self.game.start(self.params, stream)
            else:
                state = self.state.clone()
                state.rng = stream
                self.game.step(state, action)
        except NeedChance as need:
            self.pending, self.script, self.outcomes = action, script, need.outcomes
            self.stopped = state if self.resumable else None
            return
        self._settled(state)

    def _settled(self, state: Any) -> None:
        """The action has had all its outcomes: ``state`` is the position after it."""
        state.rng = ScriptedStream()
        self.state, self.pending, self.script, self.outcomes = state, None, (), 0
        self.stopped = None

    def resampled(self, seat: int, rng: random.Random) -> Position:
        """A position ``seat`` cannot tell from this one (``Game.sample_world``)."""
        if self.chance:
            raise ValueError("cannot resample at a chance node")
        world = self.game.sample_world(self.state, seat, rng)
        if self.explicit_chance:
            world.rng = ScriptedStream()
        copy = self.clone()
        copy.state = world
        return copy

    # ------------------------------------------------------------------------ persistence
    def to_json(self) -> JSON:
        explicit = self.explicit_chance
        return {
            "game": self.game.spec.id,
            "params": self.params,
            "explicit": explicit,
            "state": None if self.state is None else self.game.to_json(self.state),
            "pending": None if self.pending is None else self._pending_text(),
            "script": list(self.script),
        }

    def _pending_text(self) -> str:
        if self.pending == SETUP:
            return SETUP
        return self.game.action_to_text(self.state, self.pending)

    @classmethod
    def from_json(cls, data: JSON) -> Position:
        game = get(str(data["game"]))
        params = game.spec.params(data["params"])
        state = None if data["state"] is None else game.from_json(data["state"])
        if data["explicit"] and state is not None:
            state.rng = ScriptedStream()
        position = cls(game, params, state)
        pending = data["pending"]
        if pending is not None:
            action = SETUP if pending == SETUP else game.check(state, pending)
            position._run(action, tuple(int(o) for o in data["script"]))
        return position

    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_position, (self.to_json(),))


def _load_position(data: JSON) -> Position:
    return Position.from_json(data)
