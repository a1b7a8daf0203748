"""Positions for frameworks that want chance as nodes, or sampled inside the state.

Our rules draw every random number from ``state.rng`` inside ``setup``/``apply_unchecked``. Two
ways to hand that to a framework:

* **sampled**: the position keeps a seeded ``Stream``; chance happens inside an action, as in
  OpenSpiel's sampled-stochastic games.
* **explicit**: the position's stream is a ``ScriptedStream`` that answers draws from a script of
  chance outcomes. The first draw past the script stops the action (``NeedChance``): the position
  becomes a chance node with ``n`` equally likely outcomes; choosing one extends the script and
  goes on. A game that can go on from where the draw stopped it (``Resumable``) does so on the
  stopped state; for any other game the action is re-run from the copy taken before it, which is
  exact because an action is a pure function of (state, draws), but costs the action again for
  every outcome. A resumable game whose draws are dice (a ``Dice`` game) has one chance node
  per run of interchangeable dice instead of one per die: its outcomes are the multisets of faces
  the run can show, with their multinomial probabilities (``Roll``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, MutableSequence, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod
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


@runtime_checkable
class Dice(Resumable, Protocol):
    """A resumable game whose every draw is a die of a roll, and whose dice of a roll showing the
    same faces are interchangeable: which of two such dice shows which face changes nothing that
    matters (the rules, the legal choices up to the dice's numbers, the outcome)."""

    def dice_to_roll(self, state: Any) -> Sequence[tuple[Hashable, ...]]:
        """The dice a stopped action still rolls, in draw order, each as its faces: the face
        each draw value ``0 .. n-1`` shows (dice of one roll that are interchangeable give
        equal tuples, and stand next to each other)."""
        ...


@dataclass(frozen=True, slots=True)
class Roll:
    """The chance node of a run of interchangeable dice (``Dice``): one outcome per multiset of
    faces the run can show. Outcome ``i`` gives the dice the draw values ``draws[i]``, the
    first value showing each face, ascending (so the run's dice show its faces in ascending
    order); its probability is multinomial: ``dice! / (c1! c2! ...) * (v1/n)^c1 * ...`` for
    ``c`` dice showing a face that ``v`` of the ``n`` values show."""

    draws: tuple[tuple[int, ...], ...]
    outcomes: tuple[tuple[int, float], ...]
    """``(outcome, probability)`` per outcome, as OpenSpiel's ``chance_outcomes`` lists them."""


@cache
def roll(faces: tuple[Hashable, ...], dice: int) -> Roll:
    """The chance node of ``dice`` interchangeable dice with these faces (see ``Roll``)."""
    values: dict[Hashable, list[int]] = {}
    for value, face in enumerate(faces):
        values.setdefault(face, []).append(value)
    kinds = list(values.values())  # per face, the draw values showing it, by first value
    draws: list[tuple[int, ...]] = []
    outcomes: list[tuple[int, float]] = []
    for shown in combinations_with_replacement(range(len(kinds)), dice):
        counts = Counter(shown).values()
        ways = factorial(dice) // prod(factorial(c) for c in counts)
        weight = prod(len(kinds[k]) for k in shown)
        outcomes.append((len(draws), float(Fraction(ways * weight, len(faces) ** dice))))
        draws.append(tuple(kinds[k][0] for k in shown))
    return Roll(tuple(draws), tuple(outcomes))


@cache
def _abilities(kind: type) -> tuple[bool, bool]:
    """Whether a game class is ``Resumable``, and ``Dice``: asked once per class (a protocol's
    ``isinstance`` costs tens of microseconds, more than a whole match's first action)."""
    return issubclass(kind, Resumable), issubclass(kind, Dice)


class NeedChance(Exception):
    """A draw past the end of the script: ``outcomes`` equally likely values are needed."""

    # Raised once per chance node: made without a Python ``__init__``, the sentence only if shown.
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
    chance node, and ``roll`` that node's ``Roll`` when the game is ``Dice`` (else the node is
    one draw of ``outcomes`` equally likely values)."""

    __slots__ = (
        "dice",
        "game",
        "outcomes",
        "params",
        "pending",
        "resumable",
        "roll",
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
        self.roll: Roll | None = None
        self.resumable, self.dice = _abilities(type(game))

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
        copy.roll = self.roll
        copy.resumable = self.resumable
        copy.dice = self.dice
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
        node = self.roll
        script = (*self.script, outcome) if node is None else self.script + node.draws[outcome]
        stopped = self.stopped
        if stopped is None:
            self._run(self.pending, script)
            return
        stopped.rng.script = script
        try:
            cast(Resumable, self.game).resume(stopped)
        except NeedChance as need:
            self._stopped(self.pending, script, need, stopped)
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
            self._stopped(action, script, need, state if self.resumable else None)
            return
        self._settled(state)

    def _stopped(
        self, action: Hashable, script: tuple[int, ...], need: NeedChance, state: Any
    ) -> None:
        """The action (or set-up) stopped for want of a draw: a chance node. ``state`` is where
        it stopped (None: not resumable); a ``Dice`` game's node is the next run of
        interchangeable dice, any other a single draw."""
        self.pending, self.script, self.stopped = action, script, state
        if state is None or not self.dice:
            self.roll, self.outcomes = None, need.outcomes
            return
        dice = cast(Dice, self.game).dice_to_roll(state)
        faces, run = dice[0], 1
        while run < len(dice) and dice[run] == faces:
            run += 1
        node = self.roll = roll(faces, run)
        self.outcomes = len(node.draws)

    def _settled(self, state: Any) -> None:
        """The action has had all its outcomes: ``state`` is the position after it."""
        state.rng = ScriptedStream()
        self.state, self.pending, self.script, self.outcomes = state, None, (), 0
        self.stopped = self.roll = None

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
