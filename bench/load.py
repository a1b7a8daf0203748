"""Server load: N tables of a person against a bot, the people simulated over loopback.

Starts ``ludoteca serve`` (bots without delay) in subprocesses, opens one websocket per table, and
plays random legal actions as fast as the answers come. Prints accepted (stored) actions per second
— people's and bots' — and the p50/p99 latency from sending an action to receiving the acting
seat's new view, the server CPU per stored action (summed over every server process and its
children, from /proc), and, for scale, a bare FastAPI websocket echo with the same number of
connections measured first in the same run. Ends with a one-line summary (or, with ``--json``, the
figures as one JSON object on stdout, the rest on stderr).

One process (default) serves from a temporary SQLite file, or from ``--db`` (PostgreSQL: a scratch
database ``ludoteca_bench_<random>`` made on that server and dropped afterwards). ``--processes N``
starts N processes, each on its own port, on one PostgreSQL database (required) and one Redis
(``--redis``, default redis://127.0.0.1:6379/0); each table is made on one process and its
websocket goes to the next one, so the table moves to that process (the lease follows its
person) and every notice crosses between processes; with ``--local`` the websocket goes to the
process that made the table, which shows what several processes cost apart from that hop.

    .venv/bin/python bench/load.py [--tables 200] [--seconds 20] [--game heroes] [--no-echo]
    .venv/bin/python bench/load.py --db postgresql://postgres@127.0.0.1:5432/test
    .venv/bin/python bench/load.py --processes 2 --db postgresql://postgres@127.0.0.1:5432/test \\
        --redis redis://127.0.0.1:6379/0 --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import websockets

from ludoteca.core.fairness import seat_commitment

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_up(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=1).status_code < 500:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


# one load client stands for many people: the per-address limits are lifted
LIFTED_LIMITS = {
    "LUDOTECA_LIMIT_CREATE": "100000/minute",
    "LUDOTECA_LIMIT_WEBSOCKET": "100000/minute",
    "LUDOTECA_MAX_OPEN_TABLES_PER_CLIENT": "100000",
    "LUDOTECA_MAX_CONNECTIONS_PER_CLIENT": "100000",
    "LUDOTECA_MAX_HTTP_PER_CLIENT": "100000",  # handshakes in flight at once count as HTTP
}


def start_server(
    port: int, db: str, cwd: Path, env: dict[str, str], log: IO[str]
) -> subprocess.Popen[bytes]:
    """``ludoteca serve`` on ``port`` and ``db``, with the per-address limits lifted."""
    return subprocess.Popen(
        [sys.executable, "-m", "ludoteca.cli", "serve", "--port", str(port), "--db", db],
        cwd=cwd,
        env={**os.environ, **LIFTED_LIMITS, **env},
        stdout=log,
        stderr=subprocess.STDOUT,
    )


# -------------------------------------------------------------------------------- databases
def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgresql+psycopg://", "postgres://"))


def libpq_url(url: str) -> str:
    """A PostgreSQL URL as psycopg takes it (no SQLAlchemy driver name)."""
    return "postgresql://" + url.split("://", 1)[1]


@contextlib.contextmanager
def scratch_postgres(url: str) -> Iterator[str]:
    """A new database ``ludoteca_bench_<random>`` on the server of ``url`` (whose database is
    only used to connect), dropped afterwards: runs never meet each other's tables."""
    import psycopg  # noqa: PLC0415 - only PostgreSQL runs need it

    name = f"ludoteca_bench_{secrets.token_hex(4)}"
    with psycopg.connect(libpq_url(url), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    parts = urlsplit(url)
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(libpq_url(url), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def backend_work(db: str, redis_url: str | None) -> dict[str, Any]:
    """Counters of the work the database and Redis did so far: PostgreSQL's commits and rows
    written in this database, the CPU seconds of its server processes serving this database (when
    on this machine), and the commands Redis processed (all of that Redis's clients)."""
    work: dict[str, Any] = {}
    if is_postgres(db):
        import psycopg  # noqa: PLC0415

        with psycopg.connect(libpq_url(db), autocommit=True) as conn:
            row = conn.execute(
                "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted "
                "FROM pg_stat_database WHERE datname = current_database()"
            ).fetchone()
            pids = conn.execute(
                "SELECT pid FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
        if row is not None:
            work["db_commits"], work["db_rows"] = int(row[0]), int(row[1])
        work["db_cpu"] = {}
        for (pid,) in pids:
            with contextlib.suppress(OSError):
                work["db_cpu"][pid] = cpu_seconds(pid)
    if redis_url:
        import redis  # noqa: PLC0415

        client = redis.Redis.from_url(redis_url)
        try:
            work["redis_commands"] = int(client.info("stats")["total_commands_processed"])
        finally:
            client.close()
    return work


def stored_actions(db: str) -> int:
    """Every action stored so far, counted in the database itself (whichever process stored it)."""
    if is_postgres(db):
        import psycopg  # noqa: PLC0415

        with psycopg.connect(libpq_url(db)) as conn:
            row = conn.execute("SELECT count(*) FROM actions").fetchone()
    else:
        with contextlib.closing(sqlite3.connect(db.removeprefix("sqlite:///"), timeout=30)) as conn:
            row = conn.execute("SELECT count(*) FROM actions").fetchone()
    return int(row[0]) if row else 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_tree_cpu(roots: list[int]) -> dict[int, float]:
    """CPU seconds so far of each process in the trees under ``roots`` (the server processes and
    their children, such as a pool of bot processes), by pid."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                parents[int(entry.name)] = int(stat[1])
    tree, frontier = set(roots), list(roots)
    while frontier:
        pid = frontier.pop()
        children = [child for child, parent in parents.items() if parent == pid]
        tree.update(children)
        frontier.extend(children)
    seconds: dict[int, float] = {}
    for pid in tree:
        with contextlib.suppress(OSError):
            seconds[pid] = cpu_seconds(pid)
    return seconds


def cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU spent between two snapshots (a process started meanwhile counts from zero)."""
    return sum(used - before.get(pid, 0.0) for pid, used in after.items())


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


# ------------------------------------------------------------------------------------ echo
ECHO_APP = textwrap.dedent(
    """
    from fastapi import FastAPI, WebSocket, WebSocketDisconnect
    app = FastAPI()

    @app.websocket("/echo")
    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        try:
            while True:
                await ws.send_text(await ws.receive_text())
        except WebSocketDisconnect:
            pass
    """
)


async def echo_clients(port: int, connections: int, seconds: float) -> int:
    count = 0
    stop = time.monotonic() + seconds

    async def one() -> None:
        nonlocal count
        async with websockets.connect(f"ws://127.0.0.1:{port}/echo") as ws:
            while time.monotonic() < stop:
                await ws.send('{"type": "ping"}')
                await ws.recv()
                count += 1

    await asyncio.gather(*(one() for _ in range(connections)))
    return count


def measure_echo(connections: int, seconds: float) -> float:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "echo_app.py").write_text(ECHO_APP)
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "echo_app:app",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=tmp,
        )
        try:
            wait_up(f"http://127.0.0.1:{port}/docs")
            count = asyncio.run(echo_clients(port, connections, seconds))
        finally:
            server.terminate()
            server.wait(timeout=10)
    return count / seconds


# ----------------------------------------------------------------------------------- tables
HTTP_AT_ONCE = 32  # play-now requests the load client has in flight


class Load:
    """The simulated people. Table ``i`` is made on server ``i % N`` and its websocket opened on
    server ``(i + 1) % N`` (the same one when there is one, or with ``local``)."""

    def __init__(
        self,
        bases: list[str],
        game: str,
        seconds: float,
        server_pids: list[int],
        *,
        db: str,
        redis: str | None,
        local: bool = False,
        think: float = 0.0,
    ) -> None:
        self.bases, self.game, self.seconds = bases, game, seconds
        self.think = think
        self.hop = 0 if local else 1
        self.server_pids, self.db, self.redis = server_pids, db, redis
        self.work: dict[str, float] = {}  # database and Redis work while measuring
        self.server_cpu = self.client_cpu = 0.0
        self.stored = 0
        self.latencies: list[float] = []
        self.person_actions = 0
        self.rejected = 0
        self.finished = 0
        self.measuring = False
        self.stop_at = 0.0
        self.http_slots = asyncio.Semaphore(HTTP_AT_ONCE)

    async def table(self, https: list[httpx.AsyncClient], index: int) -> None:
        pick = random.Random(index)
        http = https[index % len(https)]
        ws_base = self.bases[(index + self.hop) % len(self.bases)].replace("http", "ws", 1)
        while time.monotonic() < self.stop_at:
            async with self.http_slots:
                created = (
                    await http.post("/api/play-now", json={"game": self.game, "name": f"p{index}"})
                ).json()
            table_id, token = created["table"]["id"], created["token"]
            async with websockets.connect(f"{ws_base}/ws/tables/{table_id}", max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                # as the web table does: commit to a seed of one's own, reveal it when asked, so
                # the deal need not wait for it
                seed, salt = secrets.token_hex(16), secrets.token_hex(16)
                commit = {"type": "commit", "commitment": seat_commitment(seed, salt)}
                await ws.send(json.dumps(commit))
                revealed = False
                sent_at: float | None = None
                sent_version = -1
                while time.monotonic() < self.stop_at:
                    message = json.loads(await ws.recv())
                    asked = message["type"] == "state" and message["table"]["revealing"]
                    if asked and not revealed:
                        revealed = True
                        reveal = {"type": "reveal", "seed": seed, "salt": salt}
                        await ws.send(json.dumps(reveal))
                    if message["type"] == "error":
                        self.rejected += 1
                        sent_at = None
                        continue
                    if message["type"] != "state" or message["view"] is None:
                        continue
                    if sent_at is not None and message["version"] > sent_version:
                        if self.measuring:
                            self.latencies.append(time.perf_counter() - sent_at)
                            self.person_actions += 1
                        sent_at = None
                    if message["view"]["over"]:
                        self.finished += 1
                        break
                    if message["legal"] and sent_at is None:
                        if self.think:  # a person thinks before moving (exponential, mean think)
                            await asyncio.sleep(pick.expovariate(1 / self.think))
                        sent_version = message["version"]
                        action = pick.choice(message["legal"])
                        sent_at = time.perf_counter()
                        await ws.send(
                            json.dumps({"type": "act", "action": action, "version": sent_version})
                        )

    async def run(self, tables: int, warmup: float) -> None:
        self.stop_at = time.monotonic() + warmup + self.seconds
        # httpx's pool scans its queue for every request: a thousand tables asking at once
        # would cost the load client more than the server; a few at a time it stays cheap
        self.http_slots = asyncio.Semaphore(HTTP_AT_ONCE)
        https = [httpx.AsyncClient(base_url=base, timeout=60) for base in self.bases]
        try:
            players = [asyncio.create_task(self.table(https, i)) for i in range(tables)]
            await asyncio.sleep(warmup)
            before = await asyncio.to_thread(stored_actions, self.db)
            work = await asyncio.to_thread(backend_work, self.db, self.redis)
            server_cpu, client_cpu = process_tree_cpu(self.server_pids), time.process_time()
            self.measuring = True
            await asyncio.sleep(self.seconds)
            self.measuring = False
            self.server_cpu = cpu_between(server_cpu, process_tree_cpu(self.server_pids))
            self.client_cpu = time.process_time() - client_cpu
            work_after = await asyncio.to_thread(backend_work, self.db, self.redis)
            after = await asyncio.to_thread(stored_actions, self.db)
            self.stored = after - before
            for name in ("db_commits", "db_rows", "redis_commands"):
                if name in work and name in work_after:
                    self.work[name] = work_after[name] - work[name]
            if "db_cpu" in work:
                self.work["db_cpu"] = cpu_between(work["db_cpu"], work_after["db_cpu"])
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
        finally:
            for http in https:
                await http.aclose()


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextlib.contextmanager
def servers(processes: int, db: str, redis: str | None, tmp: Path) -> Iterator[list[Server]]:
    """``processes`` servers on ``db`` (and ``redis``), each on its own port, started one after
    the other (the first makes the schema and the signing key, the others find them)."""
    env = {"LUDOTECA_BOT_DELAY": "0", "LUDOTECA_RATE": "1000", "LUDOTECA_RATE_BURST": "1000"}
    if redis:
        env["LUDOTECA_REDIS"] = redis
    started: list[Server] = []
    logs: list[IO[str]] = []
    try:
        for n in range(processes):
            port = free_port()
            logs.append((tmp / f"server-{n}.log").open("w"))
            started.append(Server(port, start_server(port, db, tmp, env, logs[-1])))
            wait_up(f"{started[-1].base}/healthz")
        yield started
    finally:
        for server in started:
            server.process.terminate()
        for server in started:
            server.process.wait(timeout=30)
        for log in logs:
            log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--game", default="heroes")
    parser.add_argument("--no-echo", action="store_true")
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes (more than 1: PostgreSQL, Redis)"
    )
    parser.add_argument(
        "--db",
        help="sqlite:///FILE, or a PostgreSQL server as postgresql://user@host:port/db (the "
        "bench makes a scratch database there and drops it); default: a temporary SQLite file",
    )
    parser.add_argument(
        "--redis", help="redis://host:port/0 (default for more than one process: the local one)"
    )
    parser.add_argument(
        "--local",
        action="store_true",
        help="each table's websocket on the process that made it (no move crosses processes)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a person thinks before each move (default 0: at once, the server "
        "saturated); with it, the latency of a server that is not",
    )
    parser.add_argument("--json", action="store_true", help="the figures as JSON on stdout")
    args = parser.parse_args()
    if args.processes < 1:
        parser.error("--processes must be 1 or more")
    if args.db is not None and not (is_postgres(args.db) or args.db.startswith("sqlite:///")):
        parser.error("--db: sqlite:///FILE or postgresql://... (stored actions are counted there)")
    if args.processes > 1:
        if args.db is None or not is_postgres(args.db):
            parser.error("--processes N>1 needs --db postgresql://... (the processes share it)")
        args.redis = args.redis or "redis://127.0.0.1:6379/0"
    if args.redis:
        import redis  # noqa: PLC0415

        try:
            redis.Redis.from_url(args.redis, socket_connect_timeout=3).ping()
        except redis.RedisError as exc:
            parser.error(f"--redis {args.redis} does not answer: {exc}")

    out = sys.stderr if args.json else sys.stdout
    figures = run(args, out)
    if args.json:
        print(json.dumps(figures))
    else:
        print(summary_line(figures))


def run(args: argparse.Namespace, out: IO[str]) -> dict[str, Any]:
    """One measured run; its report on ``out``; the figures."""
    database = "postgresql" if args.db and is_postgres(args.db) else "sqlite"
    print(
        f"server load: {args.tables} tables of a person against a bot ({args.game}), "
        f"{args.processes} server process(es) on {database}"
        f"{' and Redis' if args.redis else ''}, {os.cpu_count()} cores, "
        f"{args.seconds:.0f} s measured after {args.warmup:.0f} s warm-up",
        file=out,
    )
    echo = None
    if not args.no_echo:
        echo = measure_echo(args.tables, min(args.seconds, 10))
        print(
            f"  reference: bare FastAPI websocket echo, {args.tables} connections: "
            f"{echo:,.0f} messages/s",
            file=out,
        )
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        if args.db is None:
            db = f"sqlite:///{tmp}/load.sqlite3"
        elif is_postgres(args.db):
            db = stack.enter_context(scratch_postgres(args.db))
        else:
            db = args.db
        started = stack.enter_context(servers(args.processes, db, args.redis, tmp))
        pids = [server.process.pid for server in started]
        bases = [server.base for server in started]
        load = Load(
            bases,
            args.game,
            args.seconds,
            pids,
            db=db,
            redis=args.redis,
            local=args.local,
            think=args.think,
        )
        asyncio.run(load.run(args.tables, args.warmup))
    ms = [1000 * x for x in load.latencies]
    mean = statistics.fmean(ms) if ms else float("nan")
    print(
        f"  accepted and stored actions: {load.stored / args.seconds:,.0f}/s "
        f"(people {load.person_actions / args.seconds:,.0f}/s, the rest bots)",
        file=out,
    )
    print(
        f"  action -> acting seat's new view: p50 {percentile(ms, 50):.1f} ms, "
        f"p99 {percentile(ms, 99):.1f} ms, mean {mean:.1f} ms "
        f"over {len(ms):,} actions",
        file=out,
    )
    per_action = 1e6 * load.server_cpu / max(1, load.stored)
    print(
        f"  CPU: servers {load.server_cpu / args.seconds:.2f} cores "
        f"({per_action:.0f} us per stored action, summed over {args.processes} process(es)), "
        f"load client {load.client_cpu / args.seconds:.2f} cores",
        file=out,
    )
    stored = max(1, load.stored)
    work = {
        "db_commits_per_action": load.work.get("db_commits", 0) / stored,
        "db_rows_written_per_action": load.work.get("db_rows", 0) / stored,
        "db_cpu_us_per_action": 1e6 * load.work.get("db_cpu", 0.0) / stored,
        "redis_commands_per_action": load.work.get("redis_commands", 0) / stored,
    }
    if database == "postgresql":
        print(
            f"  PostgreSQL per stored action: {work['db_commits_per_action']:.2f} commits, "
            f"{work['db_rows_written_per_action']:.2f} rows written, "
            f"{work['db_cpu_us_per_action']:.0f} us CPU (its server processes for this database)",
            file=out,
        )
    if args.redis:
        print(
            f"  Redis: {work['redis_commands_per_action']:.2f} commands per stored action "
            "(everything that Redis served meanwhile)",
            file=out,
        )
    print(f"  matches finished: {load.finished}, refused actions: {load.rejected}", file=out)
    return {
        "tables": args.tables,
        "processes": args.processes,
        "local": args.local,
        "think": args.think,
        "db": database,
        "redis": bool(args.redis),
        "game": args.game,
        "cores": os.cpu_count(),
        "seconds": args.seconds,
        "stored_actions_per_s": round(load.stored / args.seconds, 1),
        "person_actions_per_s": round(load.person_actions / args.seconds, 1),
        "p50_ms": round(percentile(ms, 50), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "mean_ms": round(mean, 2),
        "server_cores": round(load.server_cpu / args.seconds, 3),
        "server_cpu_us_per_action": round(per_action, 1),
        "client_cores": round(load.client_cpu / args.seconds, 3),
        **{name: round(value, 3) for name, value in work.items()},
        "echo_messages_per_s": None if echo is None else round(echo, 1),
        "matches_finished": load.finished,
        "refused_actions": load.rejected,
    }


def summary_line(f: dict[str, Any]) -> str:
    echo = "-" if f["echo_messages_per_s"] is None else f"{f['echo_messages_per_s']:,.0f}/s"
    return (
        f"load: {f['tables']} tables, {f['processes']} process(es), {f['db']}: "
        f"{f['stored_actions_per_s']:,.0f} stored actions/s, "
        f"p50 {f['p50_ms']:.1f} ms, p99 {f['p99_ms']:.1f} ms, "
        f"{f['server_cpu_us_per_action']:,.0f} us server CPU per action, echo {echo}"
    )


if __name__ == "__main__":
    main()
