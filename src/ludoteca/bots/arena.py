"""Bot matches and tournaments: the engine behind ``ludoteca simulate`` and the strength benchmarks.

Match ``i`` of a tournament is dealt from ``derive_seed(seed, "<game>/<players>/<i>")`` and seats
the bots rotated by ``i`` (bot ``k`` sits at seat ``(k + i) mod players``), so no bot keeps the
first seat. Every match is independent: the results do not depend on the number of processes.
``iterations`` gives the searching level a fixed budget instead of its clock, so a tournament with
``hard`` bots replays the same on any machine at any load. Bots contribute nothing to a deal; with
``commit`` the seats that commit (``seat_seeds``) play as people would, marked as people (a bot
chooses their actions, as a person's helper might), so that the records carry every format-4
field for verifiers to check and no bot ever holds a commitment.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ludoteca.core import Deal, Game, Match, Player, decide, derive_seed
from ludoteca.core.fairness import seat_commitment
from ludoteca.core.record import RECORD_FORMAT, Actor
from ludoteca.games import get

from .levels import make_bot


def match_seed(master: str, game_id: str, players: int, index: int) -> str:
    return derive_seed(master, f"{game_id}/{players}/{index}")


SeatSeeds = tuple[tuple[str | None, ...], tuple[str | None, ...], tuple[str | None, ...]]


def seat_seeds(secret: str, players: int) -> SeatSeeds:
    """Contributions, commitments and salts of ``simulate --commit``: seat S's contribution and
    salt are the first 32 hex digits of ``derive_seed(secret, "contribution/S")`` and of
    ``derive_seed(secret, "salt/S")``; the first 8 hex digits of ``derive_seed(secret, "seat/S")``
    as a number, mod 4, say whether it is a bot and commits to nothing (0), or a person who
    commits and never reveals (1), or commits and reveals (2 or 3)."""
    contributions: list[str | None] = []
    commitments: list[str | None] = []
    salts: list[str | None] = []
    for seat in range(players):
        given = derive_seed(secret, f"contribution/{seat}")[:32]
        salt = derive_seed(secret, f"salt/{seat}")[:32]
        kind = int(derive_seed(secret, f"seat/{seat}")[:8], 16) % 4
        commitments.append(seat_commitment(given, salt) if kind else None)
        contributions.append(given if kind >= 2 else None)
        salts.append(salt if kind >= 2 else None)
    return tuple(contributions), tuple(commitments), tuple(salts)


def seat_of(bot_index: int, match_index: int, players: int) -> int:
    """The seat bot ``bot_index`` takes in match ``match_index`` (rotating seats)."""
    return (bot_index + match_index) % players


def play_match(
    game: Game[Any, Any],
    players: int,
    seed: str,
    levels: Sequence[str],
    iterations: int | None = None,
    *,
    table: str = "simulated",
    commit: bool = False,
    options: Mapping[str, Any] | None = None,
) -> Match:
    """One match between bots of the given levels (listed by seat), to the end. ``seed`` is the
    match's secret; bots contribute nothing, so it is dealt from HMAC(secret, table) and empty
    lines, unless ``commit`` gives each seat the commitment and reveal of ``seat_seeds``: a seat
    that commits is then a person's (``bot: false``, its steps ``by: "player"``), one that
    commits to nothing stays a bot's. ``options``: the game's table options (defaults for the
    rest)."""
    bots = [make_bot(level, game, iterations=iterations) for level in levels]
    nothing = (None,) * players
    seeds = seat_seeds(seed, players) if commit else (nothing, nothing, nothing)
    deal = Deal(seed, table, *seeds, RECORD_FORMAT)
    people = [promised is not None for promised in seeds[1]]
    seated = [
        Player(f"{lv} player") if person else Player(f"{lv} bot", True, lv)
        for lv, person in zip(levels, people, strict=True)
    ]
    match = Match(game, {**(options or {}), "players": players}, deal, seated)
    rngs = [random.Random(f"{seed}/bot/{seat}") for seat in range(players)]
    while (seat := game.to_move(match.state)) is not None:
        action = decide(bots[seat], game, match.state, seat, rngs[seat])
        by: Actor = "player" if people[seat] else "bot"
        match.act(seat, game.action_to_text(match.state, action), by=by)
    return match


@dataclass(frozen=True, slots=True)
class MatchResult:
    index: int
    winners: tuple[int, ...]  # bot indices (in the --bots order), not seats
    actions: int
    record: str | None


@dataclass(slots=True)
class Tournament:
    game: str
    players: int
    bots: list[str]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    nobody: int = 0
    total_actions: int = 0
    seconds: float = 0.0
    options: dict[str, Any] = field(default_factory=dict)

    def add(self, result: MatchResult) -> None:
        self.games += 1
        self.total_actions += result.actions
        if len(result.winners) > 1:
            self.draws += 1  # a shared result (a tie, a shared win)
            return
        if not result.winners:
            self.nobody += 1  # nobody at the table won (a game's own figure did)
        for bot in result.winners:
            self.wins[bot] += 1

    @property
    def mean_actions(self) -> float:
        return self.total_actions / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def win_rate(self, bot: int) -> tuple[float, float, float]:
        """Win rate of bot ``bot`` with its 95% Wilson interval (low, high)."""
        return (
            self.wins[bot] / self.games if self.games else 0.0,
            *wilson(self.wins[bot], self.games),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "players": self.players,
            "bots": self.bots,
            "options": self.options,
            "wins": self.wins,
            "win_rates": [
                {"rate": round(rate, 4), "low": round(low, 4), "high": round(high, 4)}
                for rate, low, high in map(self.win_rate, range(len(self.bots)))
            ],
            "draws": self.draws,
            "no_winner": self.nobody,
            "mean_actions": round(self.mean_actions, 3),
            "games_per_second": round(self.games_per_second, 3),
        }


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


Task = tuple[
    str, int, str, tuple[str, ...], int, bool, int | None, bool, tuple[tuple[str, Any], ...]
]


def _run_one(task: Task) -> MatchResult:
    game_id, players, master, levels, index, keep_record, iterations, commit, options = task
    game = get(game_id)
    seated = [""] * players
    for bot_index, level in enumerate(levels):
        seated[seat_of(bot_index, index, players)] = level
    seed = match_seed(master, game_id, players, index)
    match = play_match(
        game,
        players,
        seed,
        seated,
        iterations,
        table=f"{game_id}/{players}/{index}",
        commit=commit,
        options=dict(options),
    )
    outcome = game.outcome(match.state)
    assert outcome is not None
    winners = tuple(sorted((w - index) % players for w in outcome.winners))
    return MatchResult(
        index, winners, len(match.steps), match.record().dumps() if keep_record else None
    )


def run(
    game_id: str,
    players: int,
    bots: Sequence[str],
    games: int,
    seed: str,
    *,
    jobs: int = 1,
    keep_records: bool = False,
    iterations: int | None = None,
    on_result: Callable[[MatchResult], None] | None = None,
    commit: bool = False,
    options: Mapping[str, Any] | None = None,
) -> Tournament:
    """Play ``games`` matches; ``on_result`` sees each result in match order. ``iterations``: a
    fixed search budget for ``hard`` instead of its clock; ``commit``: the seats commit and
    reveal as people would (``seat_seeds``); ``options``: the game's table options."""
    if len(bots) != players:
        raise ValueError(f"{players} seats need {players} bots, got {len(bots)}")
    chosen = dict(options or {})
    tournament = Tournament(game_id, players, list(bots), wins=[0] * players, options=chosen)
    given = tuple(chosen.items())
    tasks: list[Task] = [
        (game_id, players, seed, tuple(bots), i, keep_records, iterations, commit, given)
        for i in range(games)
    ]
    start = time.perf_counter()
    for result in _results(tasks, jobs):
        tournament.add(result)
        if on_result is not None:
            on_result(result)
    tournament.seconds = time.perf_counter() - start
    return tournament


def _results(tasks: list[Task], jobs: int) -> Iterator[MatchResult]:
    if jobs <= 1 or len(tasks) <= 1:
        yield from map(_run_one, tasks)
        return
    chunk = max(1, min(16, len(tasks) // (jobs * 8)))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_run_one, tasks, chunksize=chunk)
