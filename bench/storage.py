"""Storage: group-commit throughput of each store, and the time of ``ludoteca db upgrade``.

Appends: T tables each store K steps one after another (each waits for its own commit, as a table
does), all tables at once; prints stored actions per second and how many commits carried them.
Upgrade: a database at the schema from before migrations, filled with N finished matches, is
brought to head by the real ``ludoteca db upgrade`` in a subprocess; prints the command's wall
time and the migration time it reports.

    .venv/bin/python bench/storage.py [--tables 200] [--steps 50] [--matches 20000]
        [--postgres postgresql://postgres@127.0.0.1:5432/test] [--no-upgrade]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import psycopg
from alembic import command
from sqlalchemy import text

from ludoteca.server.storage import (
    ActionRow,
    Append,
    SeatRow,
    SqlStorage,
    Storage,
    TableRow,
    engine_for,
    open_storage,
)
from ludoteca.server.storage.migrate import FIRST, alembic_config


def row(table_id: str, created_at: float = 0.0, status: str = "playing") -> TableRow:
    return TableRow(
        id=table_id,
        game="heroes",
        params={"players": 2},
        seed="s",
        commitment="c",
        status=status,
        turn_seconds=60,
        created_at=created_at,
        seats=[SeatRow(0, "human", "A"), SeatRow(1, "bot", "B", "medium")],
    )


async def appends(url: str, tables: int, steps: int) -> str:
    store: Storage = open_storage(url)
    prefix = secrets.token_hex(3)
    for n in range(tables):
        await store.create_table(row(f"{prefix}{n}"))
    batches: list[int] = []
    if isinstance(store, SqlStorage):
        original = store.append_batch

        def counting(items: list[Append]) -> list[Exception | None]:
            batches.append(len(items))
            return original(items)

        store.append_batch = counting  # type: ignore[method-assign]

    async def play(table_id: str) -> None:
        for seq in range(1, steps + 1):
            step = ActionRow(seq, seq % 2, f"action {seq}", "player", float(seq))
            await store.append(Append(table_id, step, float(seq), None))

    began = time.perf_counter()
    await asyncio.gather(*(play(f"{prefix}{n}") for n in range(tables)))
    seconds = time.perf_counter() - began
    await store.close()
    total = tables * steps
    commits = f"{len(batches):6} commits, {total / len(batches):6.1f} per commit" if batches else ""
    return (
        f"  {store.dialect:10} {tables:4} tables x {steps:4} steps: "
        f"{total / seconds:9,.0f} actions/s  {commits}"
    )


def old_database(url: str, matches: int) -> None:
    """A database as the server made it before migrations, with ``matches`` finished matches."""
    engine = engine_for(url)
    with engine.begin() as conn:
        # revision 0001 is exactly the old schema (tests/server/test_migrations.py proves it)
        command.upgrade(alembic_config(conn), FIRST)
        conn.execute(text("DROP TABLE alembic_version"))
        conn.execute(
            text(
                "INSERT INTO tables VALUES (:id, 'heroes', '{}', 's', 'c', :status, 60, :at, :at,"
                " :at, 40, NULL)"
            ),
            [
                {"id": f"t{n}", "status": ("over", "playing", "open")[n % 3], "at": float(n)}
                for n in range(matches)
            ],
        )
        conn.execute(
            text("INSERT INTO seats VALUES (:id, :seat, 'human', 'A', NULL, NULL, false)"),
            [{"id": f"t{n}", "seat": s} for n in range(matches) for s in (0, 1)],
        )
        conn.execute(
            text("INSERT INTO actions VALUES (:id, :seq, 0, 'pass', 'player', 0.0)"),
            [{"id": f"t{n}", "seq": s} for n in range(matches) for s in range(1, 41)],
        )
    engine.dispose()


def upgrade(url: str, matches: int) -> str:
    old_database(url, matches)
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ludoteca.cli", "db", "upgrade", "--db", url],
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - began
    reported = re.search(r"in ([0-9.]+) s", done.stdout)
    assert reported and f"from {FIRST}" in done.stdout, done.stdout
    kind = url.split(":", 1)[0]
    return (
        f"  {kind:10} {matches:,} matches ({matches * 40:,} actions): "
        f"db upgrade {wall:.2f} s wall, {reported.group(1)} s migrating"
    )


@contextlib.contextmanager
def postgres_schema(base: str) -> Iterator[str]:
    schema = f"ludoteca_bench_{secrets.token_hex(4)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        sep = "&" if "?" in base else "?"
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--postgres", help="a PostgreSQL URL to measure too")
    parser.add_argument("--no-upgrade", action="store_true")
    args = parser.parse_args()
    print("== Appends (group commit): every table waits for its own step to be durable")
    with tempfile.TemporaryDirectory() as tmp:
        urls = ["memory://", f"sqlite:///{tmp}/bench.sqlite3"]
        for url in urls:
            print(asyncio.run(appends(url, args.tables, args.steps)), flush=True)
            print(asyncio.run(appends(url, 1, args.steps * 20)), flush=True)
        if args.postgres:
            with postgres_schema(args.postgres) as url:
                print(asyncio.run(appends(url, args.tables, args.steps)), flush=True)
                print(asyncio.run(appends(url, 1, args.steps * 20)), flush=True)
        if args.no_upgrade:
            return
        print("== ludoteca db upgrade of a database from before migrations")
        print(upgrade(f"sqlite:///{tmp}/old.sqlite3", args.matches), flush=True)
        if args.postgres:
            with postgres_schema(args.postgres) as url:
                print(upgrade(url, args.matches), flush=True)


if __name__ == "__main__":
    main()
