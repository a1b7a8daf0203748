"""Who plays with whom: the pairing pool's rules, without I/O (the time is passed in).

Each waiting search in turn, oldest first, leads: for each count of players it accepts (its
own, or every count the game allows, largest first, for "any") the searches that may sit with
it and with each other join it, oldest first, until the table is full. A full table is seated.
When none fills, and the leader agreed to bots and its own wait ran out, it is seated with the
others who may sit with it and agreed to bots too (whatever their own wait: they accepted bots,
and people are better), and bots of the leader's level take the empty seats
(docs/protocol.md#pairing).

Two searches may sit together when they want the same count (or one wants any), come from two
browsers (``device``) and two accounts, neither blocked the other (their pair is not in
``apart``), and, rated,
their ratings are within the window of each: ``window`` widens as a search waits
(docs/accounts.md#pairing)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ludoteca.server.storage.pairings import SearchRow

WINDOW_STEPS: tuple[tuple[float, float], ...] = (
    (0.0, 100.0),
    (10.0, 200.0),
    (20.0, 300.0),
    (40.0, 500.0),
    (60.0, math.inf),
)
"""(seconds waited, the rating difference a rated search accepts from then on)."""


def window(waited: float) -> float:
    """How far from its own rating a rated search accepts another after ``waited`` seconds."""
    width = WINDOW_STEPS[0][1]
    for after, wider in WINDOW_STEPS:
        if waited >= after:
            width = wider
    return width


Apart = frozenset[frozenset[str]]
"""Pairs of account ids never seated together (one blocked the other)."""


def compatible(a: SearchRow, b: SearchRow, now: float, apart: Apart = frozenset()) -> bool:
    """Whether two searches may sit at one table (the count of players aside)."""
    if a.game != b.game or a.pace != b.pace or a.rated != b.rated:
        return False
    if a.device is not None and a.device == b.device:
        return False
    if a.account is not None and a.account == b.account:
        return False
    if a.rated:
        gap = abs((a.rating or 0.0) - (b.rating or 0.0))
        if gap > window(now - a.created_at) or gap > window(now - b.created_at):
            return False
    return a.account is None or b.account is None or frozenset((a.account, b.account)) not in apart


def wait_over(search: SearchRow, now: float) -> bool:
    """The search agreed to bots and has waited as long as it chose."""
    return search.bots_after is not None and now - search.created_at >= search.bots_after


@dataclass(frozen=True, slots=True)
class Group:
    """Searches to seat at one table of ``size`` seats, in seat order; bots of ``level`` take
    the seats left (None: the table is full of people)."""

    members: tuple[SearchRow, ...]
    size: int
    level: str | None


def _gather(
    leader: SearchRow, others: list[SearchRow], size: int, now: float, apart: Apart
) -> list[SearchRow]:
    chosen = [leader]
    for other in others:
        if len(chosen) == size:
            break
        if other.players not in {0, size}:
            continue
        if all(compatible(other, c, now, apart) for c in chosen):
            chosen.append(other)
    return chosen


def groups(
    searches: Iterable[SearchRow],
    now: float,
    counts: Callable[[str], tuple[int, int]],
    apart: Apart = frozenset(),
) -> list[Group]:
    """The tables to seat now from the waiting ``searches``; ``counts`` gives a game's
    fewest and most players; ``apart`` the pairs of accounts kept apart. Each search is in
    one group at most, and a group's members are in the order they came (their seats)."""
    order = sorted(searches, key=lambda s: (s.created_at, s.id))
    taken: set[str] = set()
    found: list[Group] = []
    for leader in order:
        if leader.id in taken:
            continue
        others = [s for s in order if s.id not in taken and s.id != leader.id]
        fewest, most = counts(leader.game)
        sizes = [leader.players] if leader.players else list(range(most, fewest - 1, -1))
        chosen: list[SearchRow] = []
        size, level = 0, None
        for size in sizes:
            chosen = _gather(leader, others, size, now, apart)
            if len(chosen) == size:
                break
        else:
            if not wait_over(leader, now):
                continue
            size, level = leader.players or fewest, leader.bot_level
            agreed = [s for s in others if s.bots_after is not None]
            chosen = _gather(leader, agreed, size, now, apart)
        members = tuple(sorted(chosen, key=lambda s: (s.created_at, s.id)))
        found.append(Group(members, size, level))
        taken |= {s.id for s in members}
    return found


__all__ = ["WINDOW_STEPS", "Apart", "Group", "compatible", "groups", "wait_over", "window"]
