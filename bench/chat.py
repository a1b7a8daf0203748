"""Table chat at scale: messages per second per process, and how long one takes to reach the
other process.

Starts two ``ludoteca serve`` processes on a scratch PostgreSQL database and one Redis, opens
``--tables`` tables of four seats (1,000 people at 250 tables by default), and connects each
person to one of the two processes in turn (every table has people at both). For ``--seconds``
every person sends quick phrases, one every ``--interval`` seconds (each after the
acknowledgement of the last; 0: as fast as acknowledgements come, never more than the
websocket's 10 a second); the per-person chat limit is lifted. It prints, per
process, the messages acknowledged (stored) and delivered per second, and the time a message
said at one process takes to reach a person at the other: measured at a table of two people,
one at each process, with the load running and again with nothing else happening. The CPU
seconds each server process used tell what it would do with a core of its own, on a machine
busy with other work.

    .venv/bin/python bench/chat.py [--tables 250] [--seconds 20] [--db postgresql://…] \
        [--redis redis://…]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import cpu_seconds, percentile, scratch_postgres
from takeover import cluster

PHRASES = ("gg", "wp", "your_turn", "thinking", "brb", "oops", "thanks", "gl")
GAME = "dwarves"  # four people a table
LIFTED = {"LUDOTECA_LIMIT_CHAT": "100000/minute", "LUDOTECA_LIMIT_JOIN": "100000/minute"}


def open_tables(base: str, tables: int, seats: int) -> list[tuple[str, list[str]]]:
    """``tables`` open tables of ``seats`` people, not started: their ids and seat tokens."""
    made = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for _ in range(tables):
            body = {"game": GAME, "players": seats + 1, "seats": [{"bot": False}] * (seats + 1)}
            answer = http.post("/api/tables", json={**body, "name": "P0"}).json()
            table, tokens = answer["table"]["id"], [answer["token"]]
            for i in range(1, seats):
                joined = http.post(f"/api/tables/{table}/join", json={"name": f"P{i}"}).json()
                tokens.append(joined["token"])
            made.append((table, tokens))
    return made


class Person:
    def __init__(self, ws: Any, process: int, interval: float) -> None:
        self.ws = ws
        self.interval = max(0.105, interval)
        self.process = process
        self.acked = 0
        self.heard = 0
        self.refused: Counter[str] = Counter()
        self.unanswered = 0
        self.ack = asyncio.Event()

    async def read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            kind = message["type"]
            if kind == "chat_ack":
                self.acked += 1
                self.ack.set()
            elif kind == "chat":
                self.heard += 1
            elif kind == "error":
                self.refused[message["code"]] += 1
                self.ack.set()  # refused (over the rate): go on

    async def talk(self, until: float) -> None:
        await asyncio.sleep(random.uniform(0, self.interval))  # not everyone at once
        i = 0
        while time.monotonic() < until:
            self.ack.clear()
            started = time.monotonic()
            await self.ws.send(json.dumps({"type": "chat", "phrase": PHRASES[i % 8], "ref": i}))
            i += 1
            try:
                await asyncio.wait_for(self.ack.wait(), 10)
            except TimeoutError:
                self.unanswered += 1
            await asyncio.sleep(max(0.0, self.interval - (time.monotonic() - started)))


async def connect(port: int, table: str, token: str | None) -> Any:
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table}", max_size=2**22)
    await ws.send(json.dumps({"type": "hello", **({"token": token} if token else {})}))
    return ws


async def crossing(
    ports: list[int], probe: tuple[str, list[str]], samples: int
) -> tuple[list[float], int]:
    """Seconds from sending a phrase at the first process to its arrival at the second, and how
    many did not arrive within 30 s."""
    table, (token_a, token_b) = probe[0], probe[1][:2]
    a, b = await connect(ports[0], table, token_a), await connect(ports[1], table, token_b)
    times, late = [], 0
    try:
        for ws in (a, b):  # welcome, chat_history, state…: drained until the first send
            with contextlib.suppress(TimeoutError):
                while True:
                    await asyncio.wait_for(ws.recv(), 0.5)
        for i in range(samples):
            sent = time.perf_counter()
            await a.send(json.dumps({"type": "chat", "phrase": PHRASES[i % 8], "ref": i}))
            try:
                while True:
                    message = json.loads(await asyncio.wait_for(b.recv(), 30))
                    if message["type"] == "chat" and message["message"]["phrase"] == PHRASES[i % 8]:
                        times.append(time.perf_counter() - sent)
                        break
            except TimeoutError:
                late += 1
            await asyncio.sleep(0.15)
    finally:
        await a.close()
        await b.close()
    return times, late


def show(label: str, measured: tuple[list[float], int]) -> None:
    times, late = measured
    if not times:
        print(f"{label}: none arrived within 30 s ({late} sent)")
        return
    ms = [t * 1000 for t in times]
    print(
        f"{label}: median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
        f"max {max(ms):.1f} ms ({len(ms)} messages; {late} later than 30 s)"
    )


async def run(ports: list[int], pids: list[int], args: argparse.Namespace) -> None:
    base = f"http://127.0.0.1:{ports[0]}"
    tables = await asyncio.to_thread(open_tables, base, args.tables, 4)
    probe = (await asyncio.to_thread(open_tables, base, 1, 2))[0]
    people: list[Person] = []
    for n, (table, tokens) in enumerate(tables):
        for seat, token in enumerate(tokens):
            process = (n + seat) % 2
            ws = await connect(ports[process], table, token)
            people.append(Person(ws, process, args.interval))
    print(
        f"{len(people)} people at {len(tables)} tables, half at each of two processes, "
        f"each sending a phrase every {args.interval:g} s (at least 0.105)"
    )
    readers = [asyncio.create_task(p.read()) for p in people]
    await asyncio.sleep(1)
    idle = await crossing(ports, probe, args.samples)
    for p in people:
        p.acked = p.heard = 0
    until = time.monotonic() + args.seconds
    started = time.monotonic()
    cpu = [cpu_seconds(pid) for pid in pids]
    talkers = [asyncio.create_task(p.talk(until)) for p in people]
    probing = asyncio.create_task(crossing(ports, probe, args.samples))
    await asyncio.sleep(args.seconds)  # the window counted: what came after is left out
    took = time.monotonic() - started
    cpu = [cpu_seconds(pid) - before for pid, before in zip(pids, cpu, strict=True)]
    acked, heard = Counter[int](), Counter[int]()
    for p in people:
        acked[p.process] += p.acked
        heard[p.process] += p.heard
    loaded = await probing
    await asyncio.gather(*talkers)
    for process in (0, 1):
        print(
            f"process {process + 1}: {acked[process] / took:.0f} chat messages a second stored "
            f"and acknowledged, {heard[process] / took:.0f} delivered a second to its readers; "
            f"{cpu[process]:.1f} CPU s, so {acked[process] / max(cpu[process], 1e-9):.0f} "
            "messages per CPU second (its own and the other's notices included)"
        )
    print(f"both: {sum(acked.values()) / took:.0f} messages a second over {took:.1f} s")
    refused = sum((p.refused for p in people), Counter[str]())
    unanswered = sum(p.unanswered for p in people)
    print(f"refused: {dict(refused) or 'none'}; unanswered after 10 s: {unanswered}")
    show("to the other process, idle", idle)
    show("to the other process, under that load", loaded)
    for task in readers:
        task.cancel()
    for p in people:
        await p.ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        scratch_postgres(args.db) as db,
        cluster(db, args.redis, Path(tmp), LIFTED) as (ports, pids),
    ):
        asyncio.run(run(ports, [int(pids[str(port)]) for port in ports], args))


if __name__ == "__main__":
    main()
