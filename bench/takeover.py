"""Takeover at scale: how long until a killed process's tables are driven again.

Starts two ``ludoteca serve`` processes on a scratch PostgreSQL database and one Redis, starts N
play-now tables (a person who never connects, against a bot) at the first, waits until the two
share them, kills one with SIGKILL, and prints how long until the other drives all N (each
process's ``/healthz`` counts the tables it drives).

    .venv/bin/python bench/takeover.py [--tables 1000] [--db postgresql://…] [--redis redis://…]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import LIFTED_LIMITS, free_port, scratch_postgres, wait_up


def serve(port: int, db: str, env: dict[str, str], workdir: Path) -> subprocess.Popen[bytes]:
    log = (workdir / f"server-{port}.log").open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "ludoteca.cli", "serve", "--port", str(port), "--db", db],
        cwd=workdir,
        env={**os.environ, **LIFTED_LIMITS, **env},
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def driving(ports: list[int]) -> list[int]:
    counts = []
    for port in ports:
        try:
            counts.append(
                httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json()["driving"]
            )
        except httpx.HTTPError:
            counts.append(0)
    return counts


def until_driven(ports: list[int], tables: int, limit: float = 120) -> float:
    started = time.monotonic()
    while sum(driving(ports)) < tables:
        if time.monotonic() - started > limit:
            raise RuntimeError(f"only {driving(ports)} of {tables} driven after {limit} s")
        time.sleep(0.05)
    return time.monotonic() - started


@contextlib.contextmanager
def cluster(
    db: str, redis: str, workdir: Path, extra: dict[str, str] | None = None
) -> Iterator[tuple[list[int], dict[str, str]]]:
    env = {
        "LUDOTECA_REDIS": redis,
        "LUDOTECA_REDIS_PREFIX": f"bench-{secrets.token_hex(4)}",
        "LUDOTECA_CONTRIBUTION_SECONDS": "0.5",
        **(extra or {}),
    }
    ports = [free_port(), free_port()]
    processes = {}
    for port in ports:
        processes[port] = serve(port, db, env, workdir)
        wait_up(f"http://127.0.0.1:{port}/healthz")
    try:
        yield ports, {str(p): str(proc.pid) for p, proc in processes.items()}
    finally:
        for proc in processes.values():
            proc.kill()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        scratch_postgres(args.db) as db,
        cluster(db, args.redis, Path(tmp)) as (ports, pids),
    ):
        body = {"game": "heroes", "name": "Ana", "turn_seconds": 3600, "level": "random"}
        with ThreadPoolExecutor(16) as pool:
            made = list(
                pool.map(
                    lambda _: (
                        httpx.post(
                            f"http://127.0.0.1:{ports[0]}/api/play-now", json=body, timeout=30
                        ).status_code
                    ),
                    range(args.tables),
                )
            )
        assert made.count(201) == args.tables, f"could not start every table: {set(made)}"
        shared = until_driven(ports, args.tables)
        while min(driving(ports)) < args.tables // 3:
            time.sleep(0.2)
        before = driving(ports)
        print(f"{args.tables} tables driven by the two processes: {before} ({shared:.1f} s)")
        victim = ports[0]
        subprocess.run(["kill", "-KILL", pids[str(victim)]], check=True)
        took = until_driven(ports[1:], args.tables)
        print(
            f"SIGKILL of the process driving {before[0]}: "
            f"all {args.tables} driven again in {took:.2f} s"
        )


if __name__ == "__main__":
    main()
