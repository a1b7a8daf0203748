"""Seeks: what posting, reading and taking them costs, in this process (no HTTP).

On a lobby on SQLite in a scratch directory (or ``--db``):

- **post**: ``--seeks`` (300) guests each post a 2-player Heroes seek; the milliseconds per post
  (median, 95th percentile);
- **tick**: one pass of the loop every process runs each half second (read every posted seek,
  keep them, push the counts) with that many posted; the milliseconds per pass (median of 20)
  and the share of one core the loop would take;
- **take**: another guest takes each seek (its match starts); the milliseconds per take.

    .venv/bin/python bench/seeks.py [--seeks 300] [--db postgresql://…]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from ludoteca.server.config import Settings
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.lobby.pairing import Pairing
from ludoteca.server.lobby.seeks import MAX_EACH, TICK_SECONDS, Seeker, Seeks
from ludoteca.server.storage import open_storage
from ludoteca.server.table.bot_runner import BotRunner
from ludoteca.server.table.services import Services


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms"


async def run(db: str, count: int) -> None:
    storage = open_storage(db)
    bots = BotRunner(processes=1)
    settings = Settings(db_url=db, max_open_tables_per_client=count + 1)
    lobby = Lobby(Services(storage, bots, settings))
    await lobby.residency.load()
    seeks = Seeks(lobby, Pairing(lobby))
    posts, takes, ticks = [], [], []
    tables = []
    assert MAX_EACH >= 1
    for i in range(count):
        began = time.perf_counter()
        table, _, _ = await seeks.post(
            "heroes",
            players=2,
            pace="turn-based",
            turn_seconds=None,
            rated=False,
            seeker=Seeker(f"P{i}", device=f"poster-{i}"),
        )
        posts.append(time.perf_counter() - began)
        tables.append(table.id)
    for _ in range(20):
        began = time.perf_counter()
        await seeks.tick()
        ticks.append(time.perf_counter() - began)
    for i, table_id in enumerate(tables):
        began = time.perf_counter()
        await seeks.take(table_id, Seeker(f"T{i}", device=f"taker-{i}"))
        takes.append(time.perf_counter() - began)
    tick = statistics.median(ticks)
    print(f"post ({count} seeks): {ms(posts)}")
    print(f"tick with {count} posted: {ms(ticks)}; {tick / TICK_SECONDS:.1%} of a core")
    print(f"take: {ms(takes)}")
    lobby.residency.shutdown()
    bots.close()
    await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeks", type=int, default=300)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        db = args.db or f"sqlite:///{Path(scratch) / 'seeks.db'}"
        asyncio.run(run(db, args.seeks))
    sys.exit(0)


if __name__ == "__main__":
    main()
