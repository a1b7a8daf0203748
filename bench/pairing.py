"""Quick pairing: how long two people wait to be seated together, and the pool under load.

Starts one ``ludoteca serve`` (SQLite in a scratch directory, or ``--db``) and measures

- **two clients**: both post a search for a 2-player Heroes table at once and poll every 0.1 s;
  the time until both are seated, median of ``--runs`` (20);
- **the pool alone**: the same crowd arriving at once at a lobby in this process (no HTTP):
  the time until all are seated and the CPU it took;
- **the pool under load**: ``--searches`` (200) people, each its own client (cookies), post at
  once — half for 2-player Heroes, half for 4-player Dice Heroes — and poll every 0.5 s until
  seated; the time to seat (median, 95th percentile, most) and the server's CPU over the run.

    .venv/bin/python bench/pairing.py [--runs 20] [--searches 200] [--db postgresql://…]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import free_port, is_postgres, scratch_postgres, start_server, wait_up
from ludoteca.server.config import Settings
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.lobby.pairing import Pairing, Wanted
from ludoteca.server.storage import open_storage
from ludoteca.server.table.bot_runner import BotRunner
from ludoteca.server.table.services import Services

LIMITS = {"LUDOTECA_LIMIT_JOIN": "100000/minute", "LUDOTECA_BOT_DELAY": "0.05"}


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def seat(base: str, body: dict[str, Any], poll: float) -> float:
    """Post one search with a client of its own; seconds until it is seated."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        started = time.monotonic()
        answer = await http.post("/api/pairing", json=body)
        answer.raise_for_status()
        found = answer.json()
        search = found["id"]
        while found["state"] != "seated":
            if found["state"] != "waiting":
                raise RuntimeError(f"search ended: {found}")
            await asyncio.sleep(poll)
            found = (await http.get(f"/api/pairing/{search}")).json()
        return time.monotonic() - started


async def two_clients(base: str, runs: int) -> list[float]:
    body = {"game": "heroes", "players": 2}
    times = []
    for _ in range(runs):
        both = await asyncio.gather(seat(base, body, 0.1), seat(base, body, 0.1))
        times.append(max(both))
    return times


async def crowd(base: str, searches: int) -> list[float]:
    bodies = [
        {"game": "heroes", "players": 2} if i % 2 else {"game": "dice-heroes", "players": 4}
        for i in range(searches)
    ]
    return list(await asyncio.gather(*(seat(base, b, 0.5) for b in bodies)))


async def pool_alone(db: str, searches: int) -> tuple[float, float, int]:
    """The pool without HTTP: ``searches`` arrive at once at one lobby on ``db``; the seconds
    until every one is seated, the CPU seconds spent, and the tables made."""
    storage = open_storage(db)
    bots = BotRunner(processes=1)
    lobby = Lobby(Services(storage, bots, Settings(db_url=db)))
    await lobby.residency.load()
    pairing = Pairing(lobby)
    wanted = [
        Wanted(
            "heroes" if i % 2 else "dice-heroes",
            2 if i % 2 else 4,
            "real-time",
            False,
            None,
            "medium",
            f"P{i}",
            device=f"bench-{i}",
        )
        for i in range(searches)
    ]
    cpu, started = time.process_time(), time.monotonic()
    ids = [sid for sid, _ in await asyncio.gather(*(pairing.search(w) for w in wanted))]
    while True:
        states = [(await pairing.state(sid))["state"] for sid in ids]
        if all(s == "seated" for s in states):
            break
        await pairing.match()
    took, used = time.monotonic() - started, time.process_time() - cpu
    tables = len({(await pairing.state(sid))["table"] for sid in ids})
    lobby.residency.shutdown()
    bots.close()
    await storage.close()
    return took, used, tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        db = args.db or f"sqlite:///{workdir / 'bench.sqlite3'}"
        if is_postgres(db):  # a database of its own, dropped afterwards
            db = stack.enter_context(scratch_postgres(db))
        port = free_port()
        log = (workdir / "server.log").open("w")
        process = start_server(port, db, workdir, LIMITS, log)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_up(f"{base}/healthz")
            pairs = asyncio.run(two_clients(base, args.runs))
            print(
                f"two clients, 2-player Heroes: median {statistics.median(pairs) * 1000:.0f} ms "
                f"to seat both (of {args.runs}; min {min(pairs) * 1000:.0f} ms, "
                f"max {max(pairs) * 1000:.0f} ms)"
            )
            cpu = cpu_seconds(process.pid)
            mine = time.process_time()
            started = time.monotonic()
            waits = sorted(asyncio.run(crowd(base, args.searches)))
            wall = time.monotonic() - started
            used = cpu_seconds(process.pid) - cpu
            clients = time.process_time() - mine
            p95 = waits[int(0.95 * (len(waits) - 1))]
            print(
                f"{args.searches} searches at once (half 2-player Heroes, half 4-player Dice "
                f"Heroes): median {statistics.median(waits):.2f} s to seat, 95th percentile "
                f"{p95:.2f} s, most {waits[-1]:.2f} s; all seated in {wall:.2f} s, server CPU "
                f"{used:.2f} s ({100 * used / wall:.0f}% of one core); the clients' own CPU "
                f"{clients:.2f} s; load average {os.getloadavg()[0]:.1f}"
            )
            alone_db = f"sqlite:///{workdir / 'pool.sqlite3'}" if not is_postgres(db) else db
            took, used, tables = asyncio.run(pool_alone(alone_db, args.searches))
            print(
                f"the pool alone (in process, no HTTP): {args.searches} searches seated at "
                f"{tables} tables in {took:.2f} s, {used:.2f} s of CPU"
            )
        finally:
            process.terminate()
            process.wait(timeout=30)


if __name__ == "__main__":
    main()
