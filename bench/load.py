"""Server load: N tables of a person against a bot, the people simulated over loopback.

Starts ``ludoteca serve`` (SQLite file, bots without delay) in a subprocess, opens one websocket per
table, and plays random legal actions as fast as the answers come. Prints accepted (stored) actions
per second — people's and bots' — and the p50/p99 latency from sending an action to receiving the
acting seat's new view. For scale, it first measures a bare FastAPI websocket echo with the same
number of connections on this machine.

    .venv/bin/python bench/load.py [--tables 200] [--seconds 20] [--game heroes] [--no-echo]
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
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import IO

import httpx
import websockets

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


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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
class Load:
    def __init__(self, base: str, game: str, seconds: float, server_pid: int) -> None:
        self.base, self.game, self.seconds = base, game, seconds
        self.server_pid = server_pid
        self.server_cpu = self.client_cpu = 0.0
        self.latencies: list[float] = []
        self.person_actions = 0
        self.rejected = 0
        self.finished = 0
        self.measuring = False
        self.stop_at = 0.0

    async def table(self, http: httpx.AsyncClient, index: int) -> None:
        pick = random.Random(index)
        ws_base = self.base.replace("http", "ws", 1)
        while time.monotonic() < self.stop_at:
            created = (
                await http.post("/api/play-now", json={"game": self.game, "name": f"p{index}"})
            ).json()
            table_id, token = created["table"]["id"], created["token"]
            async with websockets.connect(f"{ws_base}/ws/tables/{table_id}", max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                # as the web table does: the person's own seed, so the deal need not wait for it
                await ws.send(json.dumps({"type": "contribute", "seed": secrets.token_hex(16)}))
                sent_at: float | None = None
                sent_version = -1
                while time.monotonic() < self.stop_at:
                    message = json.loads(await ws.recv())
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
                        sent_version = message["version"]
                        action = pick.choice(message["legal"])
                        sent_at = time.perf_counter()
                        await ws.send(
                            json.dumps({"type": "act", "action": action, "version": sent_version})
                        )

    async def run(self, tables: int, warmup: float) -> None:
        self.stop_at = time.monotonic() + warmup + self.seconds
        async with httpx.AsyncClient(base_url=self.base, timeout=60) as http:
            players = [asyncio.create_task(self.table(http, i)) for i in range(tables)]
            await asyncio.sleep(warmup)
            before = await self.stored_actions(http)
            server_cpu, client_cpu = cpu_seconds(self.server_pid), time.process_time()
            self.measuring = True
            await asyncio.sleep(self.seconds)
            self.measuring = False
            self.server_cpu = cpu_seconds(self.server_pid) - server_cpu
            self.client_cpu = time.process_time() - client_cpu
            after = await self.stored_actions(http)
            self.stored = after - before
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)

    async def stored_actions(self, http: httpx.AsyncClient) -> int:
        """Every action stored so far (sum of versions of all tables)."""
        total = 0
        for status in ("playing", "over"):
            offset = 0
            while True:  # the listing is paged
                params = {"status": status, "offset": offset, "limit": 200}
                listing = (await http.get("/api/tables", params=params)).json()
                total += sum(t["version"] for t in listing)
                offset += len(listing)
                if len(listing) < 200:
                    break
        return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--game", default="heroes")
    parser.add_argument("--no-echo", action="store_true")
    args = parser.parse_args()

    print(
        f"server load: {args.tables} tables of a person against a bot ({args.game}), "
        f"{os.cpu_count()} cores, {args.seconds:.0f} s measured after {args.warmup:.0f} s warm-up"
    )
    if not args.no_echo:
        echo = measure_echo(args.tables, min(args.seconds, 10))
        print(
            f"  reference: bare FastAPI websocket echo, {args.tables} connections: "
            f"{echo:,.0f} messages/s"
        )
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {"LUDOTECA_BOT_DELAY": "0", "LUDOTECA_RATE": "1000", "LUDOTECA_RATE_BURST": "1000"}
        log = (Path(tmp) / "server.log").open("w")
        server = start_server(port, f"sqlite:///{tmp}/load.sqlite3", Path(tmp), env, log)
        try:
            wait_up(f"http://127.0.0.1:{port}/healthz")
            load = Load(f"http://127.0.0.1:{port}", args.game, args.seconds, server.pid)
            asyncio.run(load.run(args.tables, args.warmup))
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.close()
    ms = [1000 * x for x in load.latencies]
    mean = statistics.fmean(ms) if ms else float("nan")
    print(
        f"  accepted and stored actions: {load.stored / args.seconds:,.0f}/s "
        f"(people {load.person_actions / args.seconds:,.0f}/s, the rest bots)"
    )
    print(
        f"  action -> acting seat's new view: p50 {percentile(ms, 50):.1f} ms, "
        f"p99 {percentile(ms, 99):.1f} ms, mean {mean:.1f} ms "
        f"over {len(ms):,} actions"
    )
    print(
        f"  CPU: server {load.server_cpu / args.seconds:.2f} cores "
        f"({1e6 * load.server_cpu / max(1, load.stored):.0f} us per stored action), "
        f"load client {load.client_cpu / args.seconds:.2f} cores"
    )
    print(f"  matches finished: {load.finished}, refused actions: {load.rejected}")


if __name__ == "__main__":
    main()
