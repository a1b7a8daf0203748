"""Sleeping turn-based tables: memory, restart and deadlines at scale (docs/turn-based.md).

On a scratch PostgreSQL database: measures an empty server's RSS; stores N turn-based heroes
tables with two people each, dealt and waiting for a person (deadlines a day away), plus a batch
whose deadlines come due over a short window; starts a server and measures its RSS (the sleeping
tables must not be in memory) and its start-up after a restart (spawn to serving); then serves
them with two processes on one Redis, SIGKILLs the one holding the deadline duty midway through
the batch, and reports the delay from each due time to the table playing (p50, p99, max), the
deadlines fired more than once, and the tables whose deadline did not fire exactly once.

    .venv/bin/python bench/sleeping.py [--tables 10000] [--batch 300] [--window 20]
        [--db postgresql://…] [--redis redis://…]

Targets: RSS <= 1.3x the empty server's; restart <= 5 s; every deadline fired once; p99 <= 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import free_port, scratch_postgres, start_server, wait_up
from ludoteca.core import commitment
from ludoteca.server.storage import open_storage
from ludoteca.server.storage.schema import seats, tables
from soak import rss_mb

POSTGRES = os.environ.get("LUDOTECA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("LUDOTECA_TEST_REDIS", "redis://127.0.0.1:6379")
TURN = 24 * 3600


def store_tables(db: str, far: int, due_times: list[float]) -> list[str]:
    """``far`` tables due in a day, and one due at each of ``due_times``; returns the latter's
    ids. Rows written as the server writes a dealt table (format 1: the seed is stored)."""
    open_storage(db).engine.dispose()  # type: ignore[attr-defined]  # the schema, migrated
    engine = create_engine("postgresql+psycopg://" + db.split("://", 1)[1])
    now = time.time()
    rows, seat_rows, batch = [], [], []
    for n, due in enumerate([now + TURN] * far + due_times):
        table_id = f"s{n:07d}"
        seed = secrets.token_hex(32)
        rows.append(
            {
                "id": table_id,
                "game": "heroes",
                "params": '{"players": 2}',
                "seed": seed,
                "commitment": commitment(seed),
                "status": "playing",
                "turn_seconds": TURN,
                "created_at": now - 60,
                "started_at": due - TURN,
                "turn_started_at": due - TURN,
                "version": 0,
                "format": 1,
                "pace": "turn-based",
                "reserve_seconds": 0,
                "due_at": due,
            }
        )
        for seat, name in enumerate(("Ana", "Bruno")):
            token = secrets.token_hex(32)
            seat_rows.append(
                {
                    "table_id": table_id,
                    "seat": seat,
                    "kind": "human",
                    "name": name,
                    "token_hash": token,
                    "away": False,
                }
            )
        if n >= far:
            batch.append(table_id)
    with engine.begin() as conn:
        conn.execute(tables.insert(), rows)
        conn.execute(seats.insert(), seat_rows)
    engine.dispose()
    return batch


def settled_rss(process: subprocess.Popen[bytes], seconds: float = 4.0) -> float:
    time.sleep(seconds)
    return rss_mb(process.pid)


def health(port: int) -> dict[str, Any]:
    found: dict[str, Any] = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).json()
    return found


def serving(port: int, db: str, env: dict[str, str], workdir: Path) -> subprocess.Popen[bytes]:
    log = (workdir / f"server-{port}.log").open("a")
    process = start_server(port, db, workdir, env, log)
    wait_up(f"http://127.0.0.1:{port}/healthz", 60)
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    process.wait(30)


def fired_steps(db: str, batch: list[str]) -> dict[str, list[tuple[int, int, str, float]]]:
    engine = create_engine("postgresql+psycopg://" + db.split("://", 1)[1])
    with engine.connect() as conn:
        found = conn.execute(
            text("SELECT table_id, seq, seat, by, at FROM actions WHERE table_id = ANY(:ids)"),
            {"ids": batch},
        ).all()
    engine.dispose()
    steps: dict[str, list[tuple[int, int, str, float]]] = {t: [] for t in batch}
    for table_id, seq, seat, by, at in found:
        steps[table_id].append((seq, seat, by, at))
    return {t: sorted(s) for t, s in steps.items()}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=300)
    parser.add_argument(
        "--window", type=float, default=20.0, help="seconds the batch comes due over"
    )
    parser.add_argument("--lead", type=float, default=40.0, help="seconds before the first is due")
    parser.add_argument("--db", default=POSTGRES)
    parser.add_argument("--redis", default=REDIS)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="ludoteca-sleeping-"))
    env = {"LUDOTECA_LOG_FORMAT": "json", "LUDOTECA_KEYS": str(workdir / "keys")}
    with scratch_postgres(args.db) as db:
        port = free_port()
        started = time.monotonic()
        empty = serving(port, db, env, workdir)
        empty_start = time.monotonic() - started
        empty_rss = settled_rss(empty)
        stop(empty)
        started = time.monotonic()
        lead = args.lead  # until the batch starts coming due: two starts and the second process
        due_times = [
            time.time() + lead + args.window * n / max(1, args.batch) for n in range(args.batch)
        ]
        batch = store_tables(db, args.tables, due_times)
        print(f"stored {args.tables} + {args.batch} tables in {time.monotonic() - started:.1f} s")
        cluster = env | {
            "LUDOTECA_REDIS": args.redis,
            "LUDOTECA_REDIS_PREFIX": f"ludoteca-bench-{secrets.token_hex(4)}",
        }
        first = serving(port, db, cluster, workdir)
        full_rss = settled_rss(first)
        stop(first)
        started = time.monotonic()
        first = serving(port, db, cluster, workdir)
        restart = time.monotonic() - started
        second_port = free_port()
        second = serving(second_port, db, cluster, workdir)
        holder, other = (first, second_port) if health(port)["deadline_duty"] else (second, port)
        # kill the duty holder midway through the batch
        time.sleep(max(0.0, due_times[len(due_times) // 2] - time.time()))
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        time.sleep(max(0.0, due_times[-1] - time.time()) + 8)
        survivor = health(other)
        for process in (first, second):
            if process.poll() is None:
                stop(process)
        steps = fired_steps(db, batch)
    delays, not_once = [], 0
    for table_id, due in zip(batch, due_times, strict=True):
        played = steps[table_id]
        turns = [s for n, s in enumerate(played) if n == 0 or played[n - 1][1] != s[1]]
        if len(turns) != 1 or any(by != "table" for _, _, by, _ in played):
            not_once += 1
        if played:
            delays.append(played[0][3] - due)
    logs = "".join(p.read_text() for p in workdir.glob("server-*.log"))
    loads = [
        json.loads(line)
        for line in (workdir / f"server-{port}.log").read_text().splitlines()
        if '"tables_loaded"' in line
    ]
    loaded_ms = loads[-1].get("ms", float("nan")) if loads else float("nan")
    twice = logs.count("fired_twice")
    print(f"tables: {args.tables} sleeping + {args.batch} due over {args.window:.0f} s")
    print(
        f"RSS: empty {empty_rss:.1f} MB, with the tables {full_rss:.1f} MB "
        f"({full_rss / empty_rss:.2f}x; target <= 1.3x)"
    )
    print(
        f"restart to serving: {restart:.2f} s (target <= 5 s; an empty server's first start: "
        f"{empty_start:.2f} s; reading the tables at the restart: {loaded_ms:.0f} ms)"
    )
    print(
        f"deadlines fired: {len(delays)} of {args.batch}; not exactly once: {not_once}; "
        f"fired twice (stored nothing): {twice}; survivor's /healthz fired_twice "
        f"{survivor['fired_twice']}"
    )
    if delays:
        print(
            f"due to played: p50 {percentile(delays, 50):.3f} s, "
            f"p99 {percentile(delays, 99):.3f} s, "
            f"max {max(delays):.3f} s (target p99 <= 2 s; the duty holder SIGKILLed at "
            f"the batch's middle)"
        )
    print(f"logs: {workdir}")


if __name__ == "__main__":
    main()
