"""Server CPU per stored action, in process, broken down by phase, for each game.

Does what ``ludoteca serve`` does per action without the network: a table made by play-now (a
person at seat 1, ``medium`` bots at the others) on a real SQLite file, and for every action the
person's random legal choice or the bot's decision, ``Table.submit`` (prepare, store, commit),
then the person's ``state`` message (``Table.message_for``) and its JSON text (``encode``), as
their connection would send it. One table at a time, so each store is its own commit (no group
commit: the load benchmark shares commits between tables).

    .venv/bin/python bench/profile_actions.py [--actions 3000] [--game heroes] [--profile]

Phases, in µs of process CPU per stored action (the store's database thread included):

- ``bot``: the bot's decision (``BotRunner.choose``: its world, its choice, its text);
- ``prepare``, ``store``, ``commit``: the three parts of ``Table.submit``;
- ``submit rest``: the rest of ``Table.submit`` (the lock, the log entry, rearming the timer);
- ``view``: ``Table.message_for`` for the person's connection;
- ``encode``: the message as JSON text.

``--profile`` also prints the functions that cost the most (cProfile, own time).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import logging
import pstats
import random
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from ludoteca.core import Match
from ludoteca.core.fairness import seat_commitment
from ludoteca.games import all_games
from ludoteca.server import connection
from ludoteca.server.config import Settings
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.storage import Storage, open_storage
from ludoteca.server.table.bot_runner import BotRunner
from ludoteca.server.table.services import Services
from ludoteca.server.table.table import Table

T = TypeVar("T")
PHASES = ("bot", "prepare", "store", "commit", "submit rest", "view", "encode")


class Phases:
    """CPU seconds per phase; ``submit`` holds the whole of ``Table.submit``."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def timed(self, phase: str, fn: Callable[..., T]) -> Callable[..., T]:
        def wrapper(*args: Any, **kwargs: Any) -> T:
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds[phase] += time.process_time() - start

        return wrapper

    def timed_async(
        self, phase: str, fn: Callable[..., Awaitable[T]]
    ) -> Callable[..., Awaitable[T]]:
        async def wrapper(*args: Any, **kwargs: Any) -> T:
            start = time.process_time()
            try:
                return await fn(*args, **kwargs)
            finally:
                self.seconds[phase] += time.process_time() - start

        return wrapper


def instrument(phases: Phases, storage: Storage) -> Callable[[], None]:
    """Time the phases by wrapping what the table calls; returns the undo."""
    saved = [
        (Match, "prepare", Match.prepare),
        (Match, "commit", Match.commit),
        (Table, "message_for", Table.message_for),
        (Table, "submit", Table.submit),
    ]
    Match.prepare = phases.timed("prepare", Match.prepare)  # type: ignore[method-assign]
    Match.commit = phases.timed("commit", Match.commit)  # type: ignore[method-assign]
    Table.message_for = phases.timed("view", Table.message_for)  # type: ignore[method-assign]
    Table.submit = phases.timed_async("submit", Table.submit)  # type: ignore[method-assign]
    storage.append = phases.timed_async("store", storage.append)  # type: ignore[method-assign]

    def undo() -> None:
        for owner, name, value in saved:
            setattr(owner, name, value)

    return undo


async def play(game_id: str, actions: int, db: str, phases: Phases) -> tuple[int, int, float]:
    """Play matches until ``actions`` are stored; returns (actions, matches, CPU seconds)."""
    storage = open_storage(db)
    settings = Settings(db_url=db, bot_delay=3600.0)  # the table's own bot timer never fires
    bots = BotRunner(processes=1)
    lobby = Lobby(Services(storage, bots, settings))
    await lobby.residency.load()
    undo = instrument(phases, storage)
    pick = random.Random(game_id)
    done = matches = 0
    cpu = setup = 0.0
    try:
        while done < actions:
            start = time.process_time()
            tbl, seat, token = await lobby.play_now(
                game_id, players=None, level="medium", name="load", turn_seconds=None
            )
            assert seat == 0 and token is not None
            salt = "0" * 32  # the person commits, then (the only one) reveals: dealt
            await tbl.commit(0, seat_commitment(f"seed{matches}", salt))
            await tbl.reveal(0, f"seed{matches}", salt)
            listener = Listener(tbl, seat)
            tbl.listeners.add(listener)
            listener.woken = True
            counted = phases.seconds.copy()
            listener.render(phases)  # the first state, as after hello: part of the set-up
            phases.seconds = counted
            setup += time.process_time() - start
            start = time.process_time()
            while (match := tbl.match) is not None and not match.over and done < actions:
                to_move = tbl.to_move()
                assert to_move is not None
                if to_move == seat:
                    text = pick.choice(listener.legal)
                    by: Any = "player"
                else:
                    t0 = time.process_time()
                    text = await bots.choose(tbl.game, match.state, to_move, "medium")
                    phases.seconds["bot"] += time.process_time() - t0
                    by = "bot"
                await tbl.submit(to_move, text, match.version, by=by)
                listener.render(phases)
                done += 1
            cpu += time.process_time() - start
            tbl.listeners.discard(listener)
            tbl.stop()
            matches += 1
    finally:
        undo()
        lobby.residency.shutdown()
        bots.close()
        await storage.close()
    phases.seconds["setup"] = setup
    return done, matches, cpu


class Listener:
    """The person's connection: renders the state message when the table changed."""

    def __init__(self, tbl: Table, seat: int) -> None:
        self.table, self.seat = tbl, seat
        self.log_from = 0
        self.legal: list[str] = []
        self.woken = False

    def wake(self) -> None:
        self.woken = True

    def render(self, phases: Phases) -> None:
        if not self.woken:
            return
        self.woken = False
        message = self.table.message_for(self.seat, self.log_from)
        self.log_from = len(self.table.log)
        t0 = time.process_time()
        connection.encode(message)
        phases.seconds["encode"] += time.process_time() - t0
        self.legal = message["legal"]


def report(game_id: str, actions: int, matches: int, cpu: float, phases: Phases) -> None:
    s = phases.seconds
    s["submit rest"] = s["submit"] - s["prepare"] - s["store"] - s["commit"]
    us = {p: 1e6 * s[p] / actions for p in PHASES}
    other = 1e6 * cpu / actions - sum(us.values())
    cells = "  ".join(f"{p} {us[p]:.0f}" for p in PHASES)
    print(
        f"  {game_id:<12} {1e6 * cpu / actions:5.0f} µs/action ({cells}  other {other:.0f})\n"
        f"  {'':<12} over {actions:,} actions in {matches} matches; "
        f"per match also {1e6 * s['setup'] / matches:,.0f} µs to make the table (play-now, "
        f"the person's seed, the first state)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=3000, help="stored actions per game")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--db", help="database URL (default: a new SQLite file)")
    parser.add_argument("--profile", action="store_true", help="print the costliest functions")
    args = parser.parse_args()
    logging.disable(logging.INFO)  # the server logs matches at info level; not what we time
    print(f"server CPU per stored action, in process, µs ({sys.version.split()[0]})")
    profiler = cProfile.Profile() if args.profile else None
    for game_id in args.game or list(all_games()):
        with tempfile.TemporaryDirectory() as tmp:
            db = args.db or f"sqlite:///{Path(tmp) / 'profile.sqlite3'}"
            phases = Phases()
            if profiler:
                profiler.enable()
            done, matches, cpu = asyncio.run(play(game_id, args.actions, db, phases))
            if profiler:
                profiler.disable()
            report(game_id, done, matches, cpu, phases)
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(40)


if __name__ == "__main__":
    main()
