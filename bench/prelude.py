"""The cost per table of record format 5's chain from the creation (docs/fairness.md#the-prelude-
format-5): the events of a typical table before its deal, their bytes (as hashed, as stored, in the
record and in each state message before the deal), the time to hash them into heads (the server,
once per event; a client, once per message), to check a record's prelude, to check a head before
revealing (the client's witness), and to store one event on SQLite (and PostgreSQL, if given).

    .venv/bin/python bench/prelude.py [--people 2] [--bots 1] [--rounds 2000]
        [--postgres postgresql://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import tempfile
import time
from collections.abc import Callable
from typing import Any

import psycopg

from ludoteca.core.fairness import canonical_json, commitment, new_secret, seat_commitment
from ludoteca.core.prelude import (
    close_event,
    commit_event,
    create_event,
    prelude_heads,
    prelude_problem,
    reveal_event,
    sit_event,
)
from ludoteca.core.witness import Witness
from ludoteca.server.storage import open_storage
from ludoteca.server.storage.rows import SeatRow, TableRow


def table_events(people: int, bots: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The events of a table: opened by a person, the others sit, each person commits, the start
    seats the bots, the commitments close, each person reveals; and the record's fields."""
    secret, table = new_secret(), secrets.token_urlsafe(6)
    seeds = [(secrets.token_hex(16), secrets.token_hex(16)) for _ in range(people)]
    promised = [seat_commitment(c, s) for c, s in seeds]
    events = [create_event("heroes", {"players": people + bots}, table, commitment(secret))]
    events += [sit_event(n, f"Player {n + 1}") for n in range(people)]
    events += [commit_event(n, promised[n]) for n in range(people)]
    events += [
        sit_event(people + n, f"Bot {people + n + 1} (medium)", True, "medium") for n in range(bots)
    ]
    events.append(close_event())
    events += [reveal_event(n, *seeds[n]) for n in range(people)]
    record = {
        "game": "heroes",
        "params": {"players": people + bots},
        "table": table,
        "commitment": commitment(secret),
        "players": [(f"Player {n + 1}", False, None) for n in range(people)]
        + [(f"Bot {people + n + 1} (medium)", True, "medium") for n in range(bots)],
        "commitments": [*promised, *([None] * bots)],
        "contributions": [c for c, _ in seeds] + [None] * bots,
        "salts": [s for _, s in seeds] + [None] * bots,
    }
    return events, record


def micros(work: Callable[[], object], rounds: int) -> float:
    started = time.perf_counter()
    for _ in range(rounds):
        work()
    return (time.perf_counter() - started) / rounds * 1e6


async def store_micros(url: str, events: list[dict[str, Any]], tables: int) -> float:
    """One ``add_event`` (its own transaction), on average over ``tables`` tables' events."""
    store = open_storage(url)
    try:
        rows = []
        for _ in range(tables):
            row = TableRow(
                secrets.token_urlsafe(6), "heroes", {"players": 2}, "s", "c", "open", 60, 0.0
            )
            row.seats = [SeatRow(0, "open", "Seat 1"), SeatRow(1, "open", "Seat 2")]
            await store.create_table(row)
            rows.append(row.id)
        started = time.perf_counter()
        for table in rows:
            for seq, event in enumerate(events):
                await store.add_event(table, seq, event)
        return (time.perf_counter() - started) / (tables * len(events)) * 1e6
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--people", type=int, default=2)
    parser.add_argument("--bots", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--postgres", default="")
    args = parser.parse_args()
    events, record = table_events(args.people, args.bots)
    hashed = sum(len(canonical_json(e)) for e in events)
    stored = sum(len(json.dumps(e)) for e in events)
    in_message = len(json.dumps({"prelude": events}))
    heads = prelude_heads(events)
    print(
        f"a table of {args.people} people and {args.bots} bot(s): "
        f"{len(events)} events before the deal"
    )
    print(f"  bytes hashed (canonical JSON): {hashed} ({hashed / len(events):.0f} an event)")
    print(f"  bytes stored (prelude rows' event text): {stored}")
    print(f"  bytes in the record's 'prelude': {len(canonical_json(events))}")
    print(f"  bytes of 'prelude' in the last state message before the deal: {in_message}")
    gained = len(',"chain":""') + 64
    print(f"  bytes the log entry gains ('chain' at the close): {gained}")
    per = micros(lambda: prelude_heads(events), args.rounds)
    print(
        f"  hash every head (a client, per message): {per:.1f} µs "
        f"({per / len(events):.2f} µs an event)"
    )
    fields = dict(record)
    check = micros(lambda: prelude_problem(events, **fields), args.rounds)
    print(f"  check a record's prelude (verify): {check:.1f} µs")
    witness_us = micros(
        lambda: Witness(record["table"], 0, record["commitments"][0]).see(
            {
                "type": "state",
                "table": {"commitment": record["commitment"], "status": "starting"},
                "prelude": events,
                "chain": heads[-1],
                "version": 0,
            }
        ),
        args.rounds,
    )
    print(f"  a client's check before revealing (witness, one message): {witness_us:.1f} µs")
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = asyncio.run(store_micros(f"sqlite:///{tmp}/bench.sqlite3", events, args.tables))
    print(
        f"  store one event, SQLite (own transaction): {sqlite:.0f} µs; "
        f"a table: {sqlite * len(events) / 1000:.1f} ms"
    )
    if args.postgres:  # in a schema of its own, dropped after
        schema = f"bench_prelude_{secrets.token_hex(4)}"
        with psycopg.connect(args.postgres, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        sep = "&" if "?" in args.postgres else "?"
        url = f"{args.postgres}{sep}options=-csearch_path%3D{schema}"
        try:
            pg = asyncio.run(store_micros(url, events, args.tables))
        finally:
            with psycopg.connect(args.postgres, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
        print(
            f"  store one event, PostgreSQL: {pg:.0f} µs; a table: {pg * len(events) / 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
