"""The position: a mutable, slotted state that clones cheaply (flat lists of ints)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

from ludoteca.core import State, Stream

from .fortress import Board
from .lineup import Lineup
from .stones import NKINDS

MOVE, MEET, OVER = 0, 1, 2
PHASES = ("move", "meet", "over")
ROUND_CAP = 300
RACE_CAP = 100


@dataclass(frozen=True, slots=True)
class Result:
    """How the match was decided. Figures are dwarf indices; the dragon is ``lineup.size``.

    ``race`` holds one entry per race round: ``(figure, face rolled, distance run)`` for each
    racer; ``picked`` says the seed chose among racers still level after ``RACE_CAP`` rounds.
    """

    ended: str
    tied: tuple[int, ...]
    race: tuple[tuple[tuple[int, int, int], ...], ...]
    picked: bool
    winner: int


class DwarvesState(State):
    """A match position.

    ``pos[d]`` is dwarf ``d``'s tile (dwarves in turn order); ``chest[d * 6 + k]`` its count of
    kind ``k``; ``pool`` the face-down stones, drawn from the end; ``turn`` the dwarf acting
    (``-1`` once over); ``queue`` the dwarves the mover still meets, the current one first.
    """

    __slots__ = (
        "board",
        "chest",
        "dragon",
        "grey",
        "hoard",
        "hobbit",
        "lineup",
        "phase",
        "pool",
        "pos",
        "queue",
        "result",
        "round",
        "start",
        "turn",
        "white",
    )

    board: Board
    lineup: Lineup
    pos: list[int]
    chest: list[int]
    hoard: list[int]
    pool: list[int]
    queue: list[int]
    hobbit: int
    dragon: int
    grey: int
    white: int
    round: int
    start: int
    turn: int
    phase: int
    result: Result | None

    @staticmethod
    def empty(board: Board, lineup: Lineup, rng: Stream) -> DwarvesState:
        """An empty table (every dwarf on tile 0, no stones anywhere) for set-up or loading.

        (The positions have no ``__init__``: compiled, ``__new__`` would run it, and ``clone`` needs
        a bare copy; ``object.__new__`` refuses compiled classes.)"""
        state = DwarvesState.__new__(DwarvesState)
        state.rng = rng
        state.board = board
        state.lineup = lineup
        state.pos = [0] * lineup.size
        state.chest = [0] * (lineup.size * NKINDS)
        state.hoard = [0] * NKINDS
        state.pool = []
        state.queue = []
        state.hobbit = board.passage
        state.dragon = board.portal
        state.grey = state.white = 0
        state.round = 1
        state.start = state.turn = 0
        state.phase = MOVE
        state.result = None
        return state

    def clone(self) -> Self:
        cls = type(self)
        copy = cls.__new__(cls)
        copy.rng = self.rng.clone()
        copy.board = self.board
        copy.lineup = self.lineup
        copy.pos = self.pos[:]
        copy.chest = self.chest[:]
        copy.hoard = self.hoard[:]
        copy.pool = self.pool[:]
        copy.queue = self.queue[:]
        copy.hobbit = self.hobbit
        copy.dragon = self.dragon
        copy.grey = self.grey
        copy.white = self.white
        copy.round = self.round
        copy.start = self.start
        copy.turn = self.turn
        copy.phase = self.phase
        copy.result = self.result
        return copy

    def total(self, dwarf: int) -> int:
        """Stones in a dwarf's chest."""
        base = dwarf * NKINDS
        return sum(self.chest[base : base + NKINDS])

    def counts(self, dwarf: int) -> list[int]:
        """A copy of a dwarf's chest (six counts)."""
        base = dwarf * NKINDS
        return self.chest[base : base + NKINDS]
