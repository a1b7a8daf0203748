"""Soak: N tables played continuously for a long time, with spectators coming and going.

Starts ``ludoteca serve`` (SQLite file unless --db) in a subprocess. Each table is a simulated
person (random legal actions after a think time) against bots; when its match ends the person
starts a new one at once. Spectators open a random live table, watch for a few seconds and leave.
Every --every seconds it prints the server's memory (RSS), the actions stored so far, the p99
latency from a person's action to its new view, the tables in the server's memory and the errors;
at the end a summary. Errors are any ``error`` message, an unexpected close or a failed request.

    .venv/bin/python bench/soak.py [--tables 200] [--minutes 30] [--spectators 50] [--every 60]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import websockets

from load import free_port, percentile, start_server, wait_up
from ludoteca.core.fairness import seat_commitment


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Soak:
    def __init__(self, base: str, args: argparse.Namespace) -> None:
        self.base, self.ws_base = base, base.replace("http", "ws", 1)
        self.args = args
        self.stop_at = time.monotonic() + args.minutes * 60
        self.latencies: list[float] = []
        self.stored = 0
        self.matches = 0
        self.watched = 0
        self.errors: Counter[str] = Counter()
        self.live: list[str] = []

    def running(self) -> bool:
        return time.monotonic() < self.stop_at

    async def person(self, http: httpx.AsyncClient, index: int) -> None:
        pick = random.Random(index)
        await asyncio.sleep(pick.random() * 5)  # do not all start at once
        while self.running():
            try:
                await self.one_match(http, pick, index)
            except (OSError, httpx.HTTPError, websockets.WebSocketException, KeyError) as exc:
                self.errors[f"person: {type(exc).__name__}"] += 1
                await asyncio.sleep(1)

    async def one_match(self, http: httpx.AsyncClient, pick: random.Random, index: int) -> None:
        body = {"game": self.args.game, "name": f"p{index}", "level": self.args.level}
        answer = await http.post("/api/play-now", json=body)
        if answer.status_code != 201:
            self.errors[f"play-now {answer.status_code}"] += 1
            await asyncio.sleep(1)
            return
        created = answer.json()
        table_id, token = created["table"]["id"], created["token"]
        self.live.append(table_id)
        last_version = 0
        try:
            async with websockets.connect(f"{self.ws_base}/ws/tables/{table_id}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                # as the web table does: commit to a seed of one's own, reveal it when asked, so
                # the deal need not wait for it
                seed, salt = secrets.token_hex(16), secrets.token_hex(16)
                commit = {"type": "commit", "commitment": seat_commitment(seed, salt)}
                await ws.send(json.dumps(commit))
                revealed = False
                sent_at: float | None = None
                sent_version = -1
                while self.running():
                    message = json.loads(await asyncio.wait_for(ws.recv(), 120))
                    asked = message["type"] == "state" and message["table"]["revealing"]
                    if asked and not revealed:
                        revealed = True
                        reveal = {"type": "reveal", "seed": seed, "salt": salt}
                        await ws.send(json.dumps(reveal))
                    if message["type"] == "error":
                        self.errors[f"ws {message['code']}"] += 1
                        sent_at = None
                        continue
                    if message["type"] != "state" or message["view"] is None:
                        continue
                    self.stored += max(0, message["version"] - last_version)
                    last_version = max(last_version, message["version"])
                    if sent_at is not None and message["version"] > sent_version:
                        self.latencies.append(time.perf_counter() - sent_at)
                        sent_at = None
                    if message["view"]["over"]:
                        self.matches += 1
                        return
                    if message["legal"] and sent_at is None:
                        await asyncio.sleep(self.args.think * (0.5 + pick.random()))
                        action = pick.choice(message["legal"])
                        sent_at, sent_version = time.perf_counter(), message["version"]
                        act = {"type": "act", "action": action, "version": message["version"]}
                        await ws.send(json.dumps(act))
        finally:
            self.live.remove(table_id)

    async def spectator(self, index: int) -> None:
        pick = random.Random(10_000 + index)
        while self.running():
            await asyncio.sleep(pick.uniform(0.5, 3))
            if not self.live:
                continue
            table_id = pick.choice(self.live)
            try:
                async with websockets.connect(f"{self.ws_base}/ws/tables/{table_id}") as ws:
                    await ws.send(json.dumps({"type": "hello"}))
                    until = time.monotonic() + pick.uniform(2, 10)
                    while time.monotonic() < until and self.running():
                        with contextlib.suppress(TimeoutError):
                            message = json.loads(await asyncio.wait_for(ws.recv(), 1))
                            if message["type"] == "error":
                                self.errors[f"spectator {message['code']}"] += 1
                self.watched += 1
            except (OSError, websockets.WebSocketException) as exc:
                self.errors[f"spectator: {type(exc).__name__}"] += 1

    async def report(self, http: httpx.AsyncClient, pid: int) -> None:
        started = time.monotonic()
        print("  min   rss MB  stored  matches  p99 ms  in memory  watched  errors", flush=True)
        while self.running():
            await asyncio.sleep(min(self.args.every, max(0.1, self.stop_at - time.monotonic())))
            window, self.latencies = self.latencies, []
            try:
                health = (await http.get("/healthz")).json()
            except httpx.HTTPError:
                health = {"in_memory": "?"}
                self.errors["healthz"] += 1
            print(
                f"{(time.monotonic() - started) / 60:5.1f} {rss_mb(pid):8.1f} {self.stored:7d} "
                f"{self.matches:8d} {1000 * percentile(window, 99):7.1f} "
                f"{health.get('in_memory', '?')!s:>10} {self.watched:8d} "
                f"{sum(self.errors.values()):7d}",
                flush=True,
            )

    async def run(self, pid: int) -> None:
        limits = httpx.Limits(max_connections=100)
        async with httpx.AsyncClient(base_url=self.base, timeout=60, limits=limits) as http:
            tasks = [asyncio.create_task(self.person(http, i)) for i in range(self.args.tables)]
            tasks += [asyncio.create_task(self.spectator(i)) for i in range(self.args.spectators)]
            await self.report(http, pid)
            await asyncio.gather(*tasks, return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--every", type=float, default=60, help="seconds between report lines")
    parser.add_argument("--think", type=float, default=1.0, help="a person's mean think time, s")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--game", default="heroes")
    parser.add_argument("--level", default="easy")
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    print(
        f"soak: {args.tables} tables ({args.game}, a person against {args.level} bots), "
        f"{args.spectators} spectators, {args.minutes:g} minutes, on {os.cpu_count()} cores",
        flush=True,
    )
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{tmp}/soak.sqlite3"
        log_path = Path(tmp) / "server.log"
        with log_path.open("w") as log:
            env = {"LUDOTECA_BOT_DELAY": str(args.bot_delay)}
            server = start_server(port, db, Path(tmp), env, log)
            try:
                wait_up(f"http://127.0.0.1:{port}/healthz")
                soak = Soak(f"http://127.0.0.1:{port}", args)
                asyncio.run(soak.run(server.pid))
            finally:
                server.terminate()
                server.wait(timeout=30)
        server_errors = [
            line for line in log_path.read_text().splitlines() if '"level": "error"' in line
        ]
    print(
        f"done: {soak.stored} stored actions, {soak.matches} matches, {soak.watched} spectator "
        f"visits, {sum(soak.errors.values())} errors {dict(soak.errors)}, "
        f"{len(server_errors)} error lines in the server log"
    )
    for line in server_errors[:5]:
        print("  ", line[:300])


if __name__ == "__main__":
    main()
