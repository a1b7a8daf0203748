"""The public log's cost per table (docs/log.md): the bytes of a table's entry and of its end, the
bytes of their rows, the time of one append on SQLite and on PostgreSQL (one after another, each
its own transaction, as a table's commitments closing does), and the time of an inclusion proof
and its check, of a consistency proof, and of a signed head, in a log of N tables.

    .venv/bin/python bench/publog.py [--tables 2000] [--proof-size 100000]
        [--postgres postgresql://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
import time

import psycopg

from ludoteca.core.merkle import MerkleTree, included, leaf_hash
from ludoteca.core.publog import status_entry, table_entry
from ludoteca.server.publog import MemoryLogStore, PublicLog, SqlLogStore
from ludoteca.server.signing import KeyRing
from ludoteca.server.storage import SqlStorage, open_storage


def entry(i: int) -> tuple[str, str]:
    table = secrets.token_urlsafe(6)
    seats = [(0, "human", secrets.token_hex(32)), (1, "human", secrets.token_hex(32))]
    text = table_entry(
        table,
        "heroes",
        3,
        server_commitment=secrets.token_hex(32),
        seats=seats,
        status="starting",
        at=1_796_500_000.0 + i,
    )
    return table, text


def appends(url: str, tables: int) -> tuple[float, float]:
    """µs per append (median, 95th percentile) of a table's entry into the log at ``url``."""
    storage = open_storage(url)
    assert isinstance(storage, SqlStorage)
    store = SqlLogStore(storage.engine)
    times = []
    try:
        for i in range(tables):
            table, text = entry(i)
            started = time.perf_counter()
            store.append_now(table, "table", text, leaf_hash(text.encode()).hex(), 0.0)
            times.append((time.perf_counter() - started) * 1e6)
    finally:
        store.close()
        asyncio.run(storage.close())
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)]


def postgres_schema(base: str) -> tuple[str, str]:
    schema = f"bench_publog_{secrets.token_hex(4)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}", schema


def proofs(size: int) -> dict[str, float]:
    hashes = [leaf_hash(entry(i)[1].encode()) for i in range(size)]
    started = time.perf_counter()
    tree = MerkleTree(hashes)
    build = (time.perf_counter() - started) * 1e6 / size
    root, n = tree.root(), 2000
    started = time.perf_counter()
    paths = [(i, tree.audit_path(i)) for i in range(0, size, max(1, size // n))]
    prove = (time.perf_counter() - started) * 1e6 / len(paths)
    started = time.perf_counter()
    assert all(included(i, size, hashes[i], p, root) for i, p in paths)
    check = (time.perf_counter() - started) * 1e6 / len(paths)
    started = time.perf_counter()
    for first in range(1, size, max(1, size // n)):
        tree.consistency_path(first)
    consistency = (time.perf_counter() - started) * 1e6 / len(range(1, size, max(1, size // n)))
    path_bytes = 32 * len(paths[len(paths) // 2][1])
    return {
        "tree append µs": build,
        "inclusion proof µs": prove,
        "inclusion check µs": check,
        "consistency proof µs": consistency,
        "audit path bytes": path_bytes,
    }


def signed_head(size: int) -> float:
    async def go() -> float:
        log = PublicLog(MemoryLogStore(), KeyRing.ephemeral(), time.time)
        for i in range(size):
            table, text = entry(i)
            await log.add(table, "table", text)
        await log.head()  # the tree read once, as at a server's first question
        table, text = entry(size)
        await log.add(table, "table", text)
        started = time.perf_counter()
        await log.head()  # one new entry: read it, sign, keep
        return (time.perf_counter() - started) * 1e6

    return asyncio.run(go())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--proof-size", type=int, default=100_000)
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()

    _, text = entry(0)
    end = status_entry("abcdefgh", "over", 57, 1_796_500_000.125)
    row = 8 + 8 + 5 + 64 + 8  # idx, table id, kind, leaf hash (hex), at: besides the text
    print(f"table entry: {len(text)} bytes (two people), row ≈ {len(text) + row} bytes + index")
    print(f"end entry: {len(end)} bytes, row ≈ {len(end) + row} bytes + index")
    print("in the server's memory: 32 bytes an entry (its leaf hash), ~2 entries a table")

    with tempfile.TemporaryDirectory() as folder:
        median, p95 = appends(f"sqlite:///{folder}/bench.sqlite3", args.tables)
    print(f"append on SQLite: {median:.0f} µs median, {p95:.0f} µs p95 ({args.tables} tables)")
    try:
        url, schema = postgres_schema(args.postgres)
    except Exception as exc:
        print(f"append on PostgreSQL: skipped ({exc})")
    else:
        try:
            median, p95 = appends(url, args.tables)
            print(
                f"append on PostgreSQL: {median:.0f} µs median, {p95:.0f} µs p95 "
                f"({args.tables} tables)"
            )
        finally:
            with psycopg.connect(args.postgres, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")

    for name, value in proofs(args.proof_size).items():
        print(f"log of {args.proof_size}: {name} {value:.1f}")
    print(f"log of {args.proof_size}: a new signed head {signed_head(args.proof_size):.0f} µs")


if __name__ == "__main__":
    main()
