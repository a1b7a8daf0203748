"""Engine speed: random playouts through the rules interface, actions per CPU second per game,
side by side with OpenSpiel's ``liars_dice`` (C++ behind pybind11) driven by the same loop.

    .venv/bin/python bench/engine.py [--seconds 0.25] [--repeats 16] [--game dwarves]

Every game at its smallest and largest player count through ``Game.step`` (what search and
playouts call: the same match as ``apply_unchecked`` without building the match log; ``--events``
adds rows through ``apply_unchecked``), and the reference, each run for ``--seconds`` of process
CPU time per repetition (``--adapter`` adds each game through the OpenSpiel adapter, in the
reference's loop, with its default chance, and a game that offers explicit chance once more
loaded with it: the row ``openspiel explicit``, whose chance nodes the loop draws); the
repetitions are short and interleaved (every target once, then every target again), so a
neighbour's load falls on all of them alike: on a shared machine, 3 runs of 2 s moved the ratios
by up to a third from one bench to the next, 16 runs of 0.25 s by about a tenth. Printed: the
median over the repetitions and its ratio to the reference's median in the same run, after a
line saying whether the rules run compiled (``make native``) or pure (``LUDOTECA_PURE=1``).

``--same-game`` times like for like: our ``liars-dice`` at ``players: 2, rounds: one`` is
OpenSpiel's ``liars_dice``, so each ``--dice`` count and ``--bidding`` rule runs in both engines,
interleaved with the rest, and its ratio is to OpenSpiel's row with the same dice and rule (our
set-up draws the dice inside ``new``; the loop draws OpenSpiel's at its chance nodes, timed, not
counted as actions). ``--game liars-dice`` adds its default table (five dice, last standing)
against itself at 2 and 6 players.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ludoteca import native
from ludoteca.core import Game
from ludoteca.core.spec import Chance
from ludoteca.games import all_games, get

GOAL = 0.5
"""Every engine should reach at least this share of the reference's actions per second."""

ADAPTER_GOAL = 2.0
"""Through the OpenSpiel adapter a game should be at most this many times slower than through
its own rules interface (both in the same loop; chance nodes are the loop's to draw)."""


@dataclass(frozen=True, slots=True)
class Speed:
    """Random-playout figures of one game at one player count."""

    label: str
    actions: int
    matches: int
    seconds: float

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds

    @property
    def matches_per_second(self) -> float:
        return self.matches / self.seconds

    @property
    def mean_length(self) -> float:
        return self.actions / self.matches

    def line(self) -> str:
        return (
            f"  {self.label:<32} {self.actions_per_second:>10,.0f} actions/s "
            f"{self.matches_per_second:>8,.0f} matches/s  {self.mean_length:>6.1f} actions/match"
        )


def playouts(
    game: Game[Any, Any],
    players: int,
    seconds: float,
    seed: str = "bench",
    events: bool = False,
    *,
    options: dict[str, Any] | None = None,
    label: str | None = None,
) -> Speed:
    """Random matches for about ``seconds`` of CPU time: ``new``, then ``legal_actions`` and
    ``step`` (what search and playouts call) with a uniformly random choice until the end (set-up
    is timed too); ``events``: ``apply_unchecked`` instead, which also builds the match log;
    ``options``: the table options beside ``players``."""
    params = {"players": players, **(options or {})}
    rng = random.Random(seed)
    legal, pick = game.legal_actions, rng.choice
    apply = game.apply_unchecked if events else game.step
    actions = matches = 0
    clock = time.process_time
    start = clock()
    while (elapsed := clock() - start) < seconds:
        state = game.new(params, f"{seed}-{matches}")
        while choices := legal(state):
            apply(state, pick(choices))
            actions += 1
        matches += 1
    label = label or f"{game.spec.id} {players}p" + (" +events" if events else "")
    return Speed(label, actions, matches, elapsed)


def liars_dice(
    seconds: float, seed: str = "bench", dice: int = 1, bidding: str = "reset-face"
) -> Speed | None:
    """The same loop over OpenSpiel's ``liars_dice``: player actions per CPU second (chance
    outcomes are drawn by the loop and not counted); None when ``pyspiel`` is not installed.
    By default its default game (one die, ``reset-face``), the reference of every ratio."""
    try:
        import pyspiel  # noqa: PLC0415 (optional: OpenSpiel may be absent)
    except ImportError:
        return None
    if (dice, bidding) == (1, "reset-face"):
        return spiel_playouts(pyspiel.load_game("liars_dice"), REFERENCE, seconds, seed)
    game = pyspiel.load_game("liars_dice", {"numdice": dice, "bidding_rule": bidding})
    return spiel_playouts(game, f"{REFERENCE} {dice}d {bidding}", seconds, seed)


REFERENCE = "openspiel liars_dice"
SAME_GAME = "liars-dice"
"""Our game that is OpenSpiel's ``liars_dice`` at ``players: 2, rounds: one``: timed like for
like against it (``--same-game``), each dice count and bidding rule beside its own reference."""


def same_game(dice: list[int], rules: list[str]) -> list[Target]:
    """Our ``liars-dice`` at ``players: 2, rounds: one`` and OpenSpiel's ``liars_dice`` with the
    same dice and bidding rule, pair by pair."""
    game, found = get(SAME_GAME), []
    for d in dice:
        for rule in rules:
            options = {"dice": d, "rounds": "one", "bidding": rule}
            label = f"{SAME_GAME} 2p one {d}d {rule}"
            found.append(
                (label, lambda s, o=options, n=label: playouts(game, 2, s, options=o, label=n))
            )
            if (d, rule) != (1, "reset-face"):
                found.append(
                    (
                        f"{REFERENCE} {d}d {rule}",
                        lambda s, d=d, r=rule: liars_dice(s, dice=d, bidding=r),
                    )
                )
    return found


def adapter(
    game_id: str, players: int, seconds: float, seed: str = "bench", chance: str | None = None
) -> Speed | None:
    """The same loop over one of our games through the OpenSpiel adapter (registered as
    ``ludoteca_<game>``; ``chance``: loaded with that chance, else the game's default); None
    when ``pyspiel`` is not installed."""
    try:
        import pyspiel  # noqa: PLC0415 (optional: OpenSpiel may be absent)

        import ludoteca.interop.openspiel  # noqa: F401, PLC0415 (registers the games)
    except ImportError:
        return None
    name = "ludoteca_" + game_id.replace("-", "_")
    params: dict[str, Any] = {"players": players}
    if chance is not None:
        params["chance"] = chance
    game = pyspiel.load_game(name, params)
    label = f"{game_id} {players}p openspiel" + (f" {chance}" if chance else "")
    return spiel_playouts(game, label, seconds, seed)


def spiel_playouts(game: Any, label: str, seconds: float, seed: str) -> Speed:
    """Random matches of an OpenSpiel game for about ``seconds`` of CPU time; chance outcomes
    are drawn by the loop and not counted as actions."""
    rng = random.Random(seed)
    actions = matches = 0
    clock = time.process_time
    start = clock()
    while (elapsed := clock() - start) < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        matches += 1
    return Speed(label, actions, matches, elapsed)


Target = tuple[str, Callable[[float], Speed | None]]


def targets(
    game_ids: list[str], events: bool, through: bool, pairs: list[Target] | None = None
) -> list[Target]:
    """What to time: every game at its smallest and largest player count (also with the events
    when ``events``, and through the OpenSpiel adapter when ``through``), the like-for-like
    ``pairs``, then the reference."""
    found: list[Target] = list(pairs or [])
    for game_id in game_ids:
        game = get(game_id)
        for players in sorted({game.spec.min_players, game.spec.max_players}):
            found.append((f"{game_id} {players}p", lambda s, g=game, p=players: playouts(g, p, s)))
            if events:
                found.append(
                    (
                        f"{game_id} {players}p +events",
                        lambda s, g=game, p=players: playouts(g, p, s, events=True),
                    )
                )
            if through:
                found.append(
                    (
                        f"{game_id} {players}p openspiel",
                        lambda s, g=game_id, p=players: adapter(g, p, s),
                    )
                )
            if through and game.spec.chance is Chance.SAMPLED and game.spec.chance_outcomes:
                found.append(
                    (
                        f"{game_id} {players}p openspiel explicit",
                        lambda s, g=game_id, p=players: adapter(g, p, s, chance="explicit"),
                    )
                )
    found.append((REFERENCE, liars_dice))
    return found


def median_speed(runs: list[Speed]) -> Speed:
    """The repetition with the median actions per second."""
    return sorted(runs, key=lambda s: s.actions_per_second)[len(runs) // 2]


def compare(
    game_ids: list[str],
    seconds: float,
    repeats: int,
    events: bool = False,
    through: bool = False,
    *,
    pairs: list[Target] | None = None,
) -> list[tuple[Speed, float | None]]:
    """Interleaved repetitions; per target its median run and the ratio to the reference (a
    like-for-like row of ``pairs``: to OpenSpiel's game with the same dice and bidding rule)."""
    plan = targets(game_ids, events, through, pairs)
    runs: dict[str, list[Speed]] = {label: [] for label, _ in plan}
    for _ in range(repeats):
        for label, run in plan:
            speed = run(seconds)
            if speed is not None:
                runs[label].append(speed)
    reference = runs.pop(REFERENCE)
    base = statistics.median(s.actions_per_second for s in reference) if reference else None
    medians = {
        label: statistics.median(s.actions_per_second for s in found)
        for label, found in runs.items()
        if found
    }
    rows: list[tuple[Speed, float | None]] = []
    for label, found in runs.items():
        if not found:
            continue
        speed, own = median_speed(found), base
        if label.startswith(f"{SAME_GAME} 2p one "):
            d, rule = label.split()[3:5]
            own = medians.get(
                f"{REFERENCE} {d} {rule}", base if (d, rule) == ("1d", "reset-face") else None
            )
        rows.append((speed, None if own is None else speed.actions_per_second / own))
    if reference:
        rows.append((median_speed(reference), 1.0))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=0.25, help="CPU seconds per run")
    parser.add_argument("--repeats", type=int, default=16, help="interleaved repetitions")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument(
        "--events", action="store_true", help="also time apply_unchecked (with the match log)"
    )
    parser.add_argument(
        "--adapter", action="store_true", help="also time the games through the OpenSpiel adapter"
    )
    parser.add_argument(
        "--same-game",
        action="store_true",
        help=f"time {SAME_GAME} at 2 players, one round, against OpenSpiel's liars_dice with the"
        " same dice and bidding rule (ratios to that row)",
    )
    parser.add_argument("--dice", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--bidding", nargs="+", default=["reset-face", "reset-quantity"])
    args = parser.parse_args(argv)
    game_ids = args.game or list(all_games())
    pairs = same_game(args.dice, args.bidding) if args.same_game else None
    print(
        f"random playouts, CPU time, {args.repeats} interleaved repetitions of "
        f"{args.seconds:g} s, medians; ratio = actions/s over openspiel liars_dice's"
    )
    print(f"rules: {native.status}" + (" (mypyc)" if native.status == "compiled" else ""))
    rows = compare(game_ids, args.seconds, args.repeats, args.events, args.adapter, pairs=pairs)
    own = {speed.label: speed for speed, _ in rows}
    for speed, ratio in rows:
        plain = speed.label.split(" +")[0].split(" openspiel")[0]
        low = ratio is not None and ratio < GOAL and plain == speed.label
        low = low and not plain.startswith(REFERENCE)
        mark = "" if ratio is None else f"  {ratio:5.2f}x" + ("  BELOW" if low else "")
        if " openspiel" in speed.label and plain in own:
            slower = own[plain].actions_per_second / speed.actions_per_second
            mark += f"  ({slower:.1f}x slower than its own interface" + (
                ")" if slower <= ADAPTER_GOAL else ", over the goal)"
            )
        print(speed.line() + mark, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
