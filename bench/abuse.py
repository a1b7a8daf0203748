"""What a hostile client costs the server: each finding of the abuse review, measured.

Starts ``ludoteca serve`` from a source tree (this one by default; ``--src`` another checkout to
compare, e.g. ``git archive prep | tar -x -C /tmp/before``) on a fresh SQLite file and prints, per
probe, the server's memory (RSS), times and bytes:

- flood: one socket sends pings as fast as it can for --seconds and never reads;
- body: a 20 MB name posted to /join (status and seconds), a health check meanwhile;
- spam: tables created as fast as possible for 5 s from one address;
- feed: bytes a lobby watcher receives for one change with 10 and with 300 open tables;
- finished: memory after reading back 300 finished tables by id (summary and record);
- hello: a socket that never says hello but sends a byte every 2 s: still open after 15 s?;
- input: status codes of out-of-range requests;
- utf8: lines the server logs for one invalid UTF-8 frame, and whether they hold a traceback.

    .venv/bin/python bench/abuse.py [--src PATH] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from load import LIFTED_LIMITS, free_port, start_server, wait_up
from soak import rss_mb

ROOT = Path(__file__).resolve().parent.parent


class Server:
    def __init__(self, src: Path, tmp: Path, lifted: bool, db: str = "") -> None:
        self.port = free_port()
        db = db or f"sqlite:///{tmp}/abuse-{self.port}.sqlite3"
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.log = tmp / f"server-{self.port}.log"
        self.db = db
        env = {"PYTHONPATH": str(src), "LUDOTECA_BOT_DELAY": "0"}
        if not lifted:  # the limits as shipped
            env.update(dict.fromkeys(LIFTED_LIMITS, ""))
        with self.log.open("w") as out:
            self.process = start_server(self.port, db, tmp, env, out)
        wait_up(f"{self.base}/healthz")
        self.http = httpx.Client(base_url=self.base, timeout=120)

    def rss(self) -> float:
        return rss_mb(self.process.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.http.close()
            self.process.terminate()
            self.process.wait(timeout=30)

    def table(self, **body: Any) -> dict[str, Any]:
        body = {"game": "heroes", "seats": [{"bot": False}] * 2, "name": "A", **body}
        answer: dict[str, Any] = self.http.post("/api/tables", json=body).json()
        return answer

    def health_ms(self) -> float:
        started = time.perf_counter()
        self.http.get("/healthz")
        return 1000 * (time.perf_counter() - started)


async def flood(server: Server, seconds: float) -> str:
    table = server.table()
    before = server.rss()
    sent, closed = 0, "open"
    ping = json.dumps({"type": "ping"})
    started = time.monotonic()
    health: list[float] = []
    async with websockets.connect(f"{server.ws}/ws/tables/{table['table']['id']}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": table["token"]}))
        try:
            while time.monotonic() - started < seconds:
                await ws.send(ping)
                sent += 1
                if sent % 100 == 0:
                    await asyncio.sleep(0)  # hear the server, as a real client's loop would
                if sent % 20_000 == 0:
                    health.append(await asyncio.to_thread(server.health_ms))
        except websockets.ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else "none"
            closed = f"closed {code} after {time.monotonic() - started:.2f} s"
    worst = max(health, default=float("nan"))
    return (
        f"flood: {sent:,} pings in {time.monotonic() - started:.1f} s, {closed}; server RSS "
        f"{before:.0f} -> {server.rss():.0f} MB; slowest health check meanwhile {worst:.0f} ms"
    )


def body(server: Server) -> str:
    table = server.table()["table"]["id"]
    payload = b'{"name": "' + b"x" * (20 * 1024 * 1024) + b'"}'
    before = server.rss()
    started = time.perf_counter()
    answer = server.http.post(f"/api/tables/{table}/join", content=payload)
    took = time.perf_counter() - started
    return (
        f"body: 20 MB name to /join -> {answer.status_code} in {took:.2f} s; server RSS "
        f"{before:.0f} -> {server.rss():.0f} MB; health check after {server.health_ms():.0f} ms"
    )


def spam(server: Server) -> str:
    codes: dict[int, int] = {}
    started = time.monotonic()
    with httpx.Client(base_url=server.base, timeout=30) as http:
        while time.monotonic() - started < 5:
            status = http.post("/api/tables", json={"game": "heroes", "name": "A"}).status_code
            codes[status] = codes.get(status, 0) + 1
    listing = server.http.get("/api/tables")
    return (
        f"spam: 5 s of POST /api/tables -> {dict(sorted(codes.items()))}; GET /api/tables is "
        f"{len(listing.content):,} bytes"
    )


async def feed_bytes(server: Server) -> int:
    table = server.table()["table"]["id"]
    async with websockets.connect(f"{server.ws}/ws/lobby", max_size=2**26) as ws:
        first = json.loads(await ws.recv())
        assert first["type"] == "tables"
        await asyncio.to_thread(server.http.post, f"/api/tables/{table}/join", json={"name": "B"})
        change = await asyncio.wait_for(ws.recv(), 30)
        with contextlib.suppress(TimeoutError):  # the join's own add, when it comes separately
            change += await asyncio.wait_for(ws.recv(), 0.5)
        return len(change)


async def feed(server: Server) -> str:
    for _ in range(10):
        server.table()
    few = await feed_bytes(server)
    for _ in range(290):
        server.table()
    many = await feed_bytes(server)
    return f"feed: bytes per change with ~10 open tables {few:,}, with ~300 {many:,}"


def finished(server: Server) -> list[str]:
    """300 matches of bots, played to the end."""
    ids = []
    for _ in range(300):
        bots = [{"bot": True, "level": "random"}] * 2
        ids.append(server.table(seats=bots, name=None, start=True)["table"]["id"])
    deadline = time.monotonic() + 600
    while server.http.get("/api/tables", params={"status": "playing"}).json():
        if time.monotonic() > deadline:
            raise RuntimeError("the bot matches did not finish")
        time.sleep(1)
    return ids


def read_back(server: Server, ids: list[str]) -> str:
    before = server.rss()
    for table_id in ids:
        server.http.get(f"/api/tables/{table_id}")
        server.http.get(f"/api/tables/{table_id}/record")
    after = server.rss()
    in_memory = server.http.get("/healthz").json().get("in_memory", "n/a")
    return (
        f"finished: reading back {len(ids)} finished tables by id: server RSS {before:.0f} -> "
        f"{after:.0f} MB ({1000 * (after - before) / len(ids):.0f} kB each); tables in memory "
        f"{in_memory}"
    )


async def hello(server: Server) -> str:
    table = server.table()["table"]["id"]
    started = time.monotonic()
    async with websockets.connect(f"{server.ws}/ws/tables/{table}") as ws:
        try:
            while time.monotonic() - started < 15:
                await ws.send("x")
                await asyncio.sleep(2)
            return "hello: a silent socket sending a byte every 2 s is still open after 15 s"
        except websockets.ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else "none"
            return f"hello: closed {code} after {time.monotonic() - started:.1f} s"


def inputs(server: Server) -> str:
    table = server.table()["table"]["id"]
    probes = {
        "players 0": ("/api/tables", {"game": "heroes", "players": 0}),
        "players true": ("/api/tables", {"game": "heroes", "players": True, "name": "A"}),
        "seats []": ("/api/tables", {"game": "heroes", "seats": []}),
        "seat 99": (f"/api/tables/{table}/join", {"seat": 99}),
        "seat -1": (f"/api/tables/{table}/join", {"seat": -1}),
    }
    codes = {k: server.http.post(path, json=b).status_code for k, (path, b) in probes.items()}
    return f"input: {codes}"


async def utf8(server: Server) -> str:
    table = server.table()["table"]["id"]
    lines = len(server.log.read_text().splitlines())
    async with websockets.connect(f"{server.ws}/ws/tables/{table}") as ws:
        await ws.send(b"\xff\xfe", text=True)
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.recv()
    await asyncio.sleep(0.5)
    new = server.log.read_text().splitlines()[lines:]
    traceback = "Traceback" in "".join(new)
    return f"utf8: {len(new)} log lines for one invalid frame, traceback: {traceback}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    print(f"abuse probes against the server from {args.src}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for probe in ("flood", "body", "spam", "feed", "finished", "hello", "input", "utf8"):
            # the probes measure cost: only spam meets the per-address limits as shipped
            server = Server(args.src, Path(tmp), lifted=probe != "spam")
            try:
                if probe == "flood":
                    line = asyncio.run(flood(server, args.seconds))
                elif probe == "body":
                    line = body(server)
                elif probe == "spam":
                    line = spam(server)
                elif probe == "feed":
                    line = asyncio.run(feed(server))
                elif probe == "finished":  # played by one server, read back by the next
                    ids = finished(server)
                    server.stop()
                    server = Server(args.src, Path(tmp), True, server.db)
                    line = read_back(server, ids)
                elif probe == "hello":
                    line = asyncio.run(hello(server))
                elif probe == "input":
                    line = inputs(server)
                else:
                    line = asyncio.run(utf8(server))
            finally:
                server.stop()
            print(line, flush=True)


if __name__ == "__main__":
    main()
