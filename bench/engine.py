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
    game: Game[Any, Any], players: int, seconds: float, seed: str = "bench", events: bool = False
) -> Speed:
    """Random matches for about ``seconds`` of CPU time: ``new``, then ``legal_actions`` and
    ``step`` (what search and playouts call) with a uniformly random choice until the end (set-up
    is timed too); ``events``: ``apply_unchecked`` instead, which also builds the match log."""
    rng = random.Random(seed)
    legal, pick = game.legal_actions, rng.choice
    apply = game.apply_unchecked if events else game.step
    actions = matches = 0
    clock = time.process_time
    start = clock()
    while (elapsed := clock() - start) < seconds:
        state = game.new({"players": players}, f"{seed}-{matches}")
        while options := legal(state):
            apply(state, pick(options))
            actions += 1
        matches += 1
    label = f"{game.spec.id} {players}p" + (" +events" if events else "")
    return Speed(label, actions, matches, elapsed)


def liars_dice(seconds: float, seed: str = "bench") -> Speed | None:
    """The same loop over OpenSpiel's ``liars_dice``: player actions per CPU second (chance
    outcomes are drawn by the loop and not counted); None when ``pyspiel`` is not installed."""
    try:
        import pyspiel  # noqa: PLC0415 (optional: OpenSpiel may be absent)
    except ImportError:
        return None
    return spiel_playouts(pyspiel.load_game("liars_dice"), "openspiel liars_dice", seconds, seed)


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


def targets(game_ids: list[str], events: bool, through: bool) -> list[Target]:
    """What to time: every game at its smallest and largest player count (also with the events
    when ``events``, and through the OpenSpiel adapter when ``through``), then the reference."""
    found: list[Target] = []
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
    found.append(("openspiel liars_dice", liars_dice))
    return found


def median_speed(runs: list[Speed]) -> Speed:
    """The repetition with the median actions per second."""
    return sorted(runs, key=lambda s: s.actions_per_second)[len(runs) // 2]


def compare(
    game_ids: list[str], seconds: float, repeats: int, events: bool = False, through: bool = False
) -> list[tuple[Speed, float | None]]:
    """Interleaved repetitions; per target its median run and the ratio to the reference."""
    plan = targets(game_ids, events, through)
    runs: dict[str, list[Speed]] = {label: [] for label, _ in plan}
    for _ in range(repeats):
        for label, run in plan:
            speed = run(seconds)
            if speed is not None:
                runs[label].append(speed)
    reference = runs.pop("openspiel liars_dice")
    base = statistics.median(s.actions_per_second for s in reference) if reference else None
    rows: list[tuple[Speed, float | None]] = []
    for found in runs.values():
        speed = median_speed(found)
        rows.append((speed, None if base is None else speed.actions_per_second / base))
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
    args = parser.parse_args(argv)
    game_ids = args.game or list(all_games())
    print(
        f"random playouts, CPU time, {args.repeats} interleaved repetitions of "
        f"{args.seconds:g} s, medians; ratio = actions/s over openspiel liars_dice's"
    )
    print(f"rules: {native.status}" + (" (mypyc)" if native.status == "compiled" else ""))
    rows = compare(game_ids, args.seconds, args.repeats, args.events, args.adapter)
    own = {speed.label: speed for speed, _ in rows}
    for speed, ratio in rows:
        plain = speed.label.split(" +")[0].split(" openspiel")[0]
        low = ratio is not None and ratio < GOAL and speed.label == plain
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
