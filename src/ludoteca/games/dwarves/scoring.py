"""The final scoring of every chest and the race that breaks a remaining tie."""

from __future__ import annotations

from collections.abc import Sequence

from ludoteca.core import Stream

from .fortress import FACES, Board
from .state import RACE_CAP, DwarvesState
from .stones import DIAMOND, NKINDS

RaceRound = tuple[tuple[int, int, int], ...]


def score(chest: Sequence[int]) -> tuple[int, ...]:
    """A chest's ranking key, compared left to right: the largest count of one kind (+1 with the
    diamond), the total, then the other kinds' counts from the largest down."""
    five = sorted(chest[:DIAMOND], reverse=True)
    return (five[0] + chest[DIAMOND], sum(chest), *five[1:])


def figure_scores(state: DwarvesState) -> list[tuple[int, ...]]:
    """Every figure's score key: the dwarves in turn order, then the dragon."""
    size = state.lineup.size
    keys = [score(state.chest[d * NKINDS : (d + 1) * NKINDS]) for d in range(size)]
    return [*keys, score(state.hoard)]


def leaders(state: DwarvesState) -> tuple[int, ...]:
    """The figures with the best score (the dragon is figure ``lineup.size``)."""
    keys = figure_scores(state)
    best = max(keys)
    return tuple(f for f, key in enumerate(keys) if key == best)


def race(board: Board, racers: Sequence[int], rng: Stream) -> tuple[list[RaceRound], int, bool]:
    """Race the tied figures from the Portal: each round every racer (in figure order) rolls one
    die (``rng.below(6)``) and runs clockwise to the next tile of that colour. After a round in
    which someone has passed the Portal, the one furthest ahead wins; several level in front race
    on from where they stand. After ``RACE_CAP`` rounds one more draw picks among those in front.

    Returns the rounds, the winner and whether the seed picked it.
    """
    size = board.size
    tile = dict.fromkeys(racers, board.portal)
    run = dict.fromkeys(racers, 0)
    field = list(racers)
    rounds: list[RaceRound] = []
    for _ in range(RACE_CAP):
        played = []
        for f in field:
            face = rng.below(len(FACES))
            to = board.nxt[tile[f]][face]
            run[f] += (to - tile[f]) % size
            tile[f] = to
            played.append((f, face, run[f]))
        rounds.append(tuple(played))
        if max(run[f] for f in field) >= size:
            front = max(run[f] for f in field)
            field = [f for f in field if run[f] == front]
            if len(field) == 1:
                return rounds, field[0], False
    front = max(run[f] for f in field)
    level = [f for f in field if run[f] == front]
    return rounds, level[rng.below(len(level))], True
