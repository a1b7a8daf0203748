"""Real servers and a websocket client for the server tests (fixtures are in conftest.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from ludoteca.core import Match, MatchRecord
from ludoteca.games import get
from ludoteca.server.app import create_app
from ludoteca.server.config import Settings
from ludoteca.server.main import uvicorn_options

POSTGRES_URL = os.environ.get("LUDOTECA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("LUDOTECA_TEST_REDIS", "redis://127.0.0.1:6379")
IN_CI = os.environ.get("CI", "").lower() == "true"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_healthy(base: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        time.sleep(0.05)
    raise RuntimeError(f"server at {base} did not become healthy")


@dataclass
class ThreadServer:
    """uvicorn serving the app on a real port, in a thread of the test process."""

    settings: Settings
    port: int = field(default_factory=free_port)
    server: uvicorn.Server | None = None
    thread: threading.Thread | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ThreadServer:
        config = uvicorn.Config(
            create_app(self.settings),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            **uvicorn_options(self.settings),  # type: ignore[arg-type]
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        wait_healthy(self.base)
        return self

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        close_api(self.base)
        self.server.should_exit = True
        self.thread.join(timeout=20)
        assert not self.thread.is_alive(), "server thread did not stop"


def fast_settings(db_url: str, **changes: Any) -> Settings:
    base = Settings(
        db_url=db_url, bot_delay=0.0, away_grace=0.3, min_turn_seconds=1, contribution_seconds=2.0
    )
    return replace(base, **changes)


@dataclass
class ProcessServer:
    """``ludoteca serve`` in a subprocess (killable with SIGKILL, restartable on the same db)."""

    db_url: str
    workdir: Path
    env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ProcessServer:
        env = {**os.environ, "LUDOTECA_BOT_DELAY": "0.01", "LUDOTECA_MIN_TURN_SECONDS": "1"}
        env.update(self.env)
        with (self.workdir / f"server-{self.port}.log").open("ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "ludoteca.cli",
                    "serve",
                    "--port",
                    str(self.port),
                    "--db",
                    self.db_url,
                ],
                cwd=self.workdir,
                env=env,
                stdout=log,
                stderr=log,
            )
        wait_healthy(self.base, 30)
        return self

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def terminate(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=20)

    def log_text(self) -> str:
        return (self.workdir / f"server-{self.port}.log").read_text(errors="replace")


# ------------------------------------------------------------------------------ a client
class Client:
    """A websocket client of one table: sends messages, keeps the last state and every message."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.contributed = False

    @classmethod
    async def connect(cls, ws_base: str, table_id: str, token: str | None = None) -> Client:
        ws = await websockets.connect(f"{ws_base}/ws/tables/{table_id}", max_size=2**22)
        client = cls(ws)
        try:
            await client.send({"type": "hello", **({"token": token} if token else {})})
        except BaseException:
            await ws.close()  # the server went away at once: leave no socket open
            raise
        return client

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        message: dict[str, Any] = json.loads(text)
        self.raw.append(text)
        self.messages.append(message)
        if message["type"] == "state":
            await self._contribute_once(message)
            if message["log_from"] == 0:
                self.log = []
            assert message["log_from"] == len(self.log), "log entries arrive in order, none lost"
            self.log.extend(message["log"])
            self.state = message
        return message

    async def _contribute_once(self, state: dict[str, Any]) -> None:
        """As the web table does: a seated person adds a seed of their own while the table
        waits for it (after the commitment is out, before the deal)."""
        seat = state["seat"]
        table = state["table"]
        if self.contributed or seat is None or table["status"] not in ("open", "starting"):
            return
        if not table["seats"][seat]["contributed"]:
            self.contributed = True
            await self.send({"type": "contribute", "seed": secrets.token_hex(16)})

    async def until(self, predicate: Any, timeout: float = 20) -> dict[str, Any]:
        """Receive until a message satisfies ``predicate``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the awaited message never came")
            message = await self.recv(left)
            if predicate(message):
                return message

    async def state_at_least(self, version: int, timeout: float = 20) -> dict[str, Any]:
        if self.state is not None and self.state["version"] >= version:
            return self.state
        return await self.until(lambda m: m["type"] == "state" and m["version"] >= version, timeout)

    async def act(self, action: str, version: int) -> dict[str, Any]:
        """Send an action and wait for its answer: the next state, or an error.

        A ``rate_limited`` answer is honoured the way a client should: wait a little, send again.
        """
        while True:
            await self.send({"type": "act", "action": action, "version": version})
            answer = await self.until(
                lambda m: m["type"] == "error" or (m["type"] == "state" and m["version"] > version)
            )
            if answer["type"] == "error" and answer["code"] == "rate_limited":
                await asyncio.sleep(0.2)
                continue
            return answer

    async def error(self, timeout: float = 10) -> dict[str, Any]:
        return await self.until(lambda m: m["type"] == "error", timeout)

    async def close(self) -> None:
        await self.ws.close()


def two_people_table(
    base: str, game: str = "heroes", turn_seconds: int | None = None
) -> tuple[str, list[str]]:
    """A started table of two people (Ana creates it, Bruno takes the last seat so it starts, each
    adds a seed of their own, so it is dealt at once): its id and both seat tokens."""
    http = api(base)
    body: dict[str, Any] = {"game": game, "seats": [{"bot": False}] * 2, "name": "Ana"}
    if turn_seconds is not None:
        body["turn_seconds"] = turn_seconds
    created = http.post("/api/tables", json=body).json()
    table_id = created["table"]["id"]
    joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Bruno"}).json()
    for token in (created["token"], joined["token"]):
        added = http.post(
            f"/api/tables/{table_id}/contribute",
            json={"seed": secrets.token_hex(16)},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert added.status_code == 200, added.text
    assert added.json()["table"]["status"] == "playing", added.text
    return table_id, [created["token"], joined["token"]]


_clients: dict[str, httpx.Client] = {}


def api(base: str) -> httpx.Client:
    """An HTTP client for a server (one per server, closed by ``close_api``)."""
    if base not in _clients:
        _clients[base] = httpx.Client(base_url=base, timeout=30)
    return _clients[base]


def close_api(base: str) -> None:
    client = _clients.pop(base, None)
    if client is not None:
        client.close()


def replay(record: dict[str, Any], upto: int | None = None) -> Match:
    """The match a stored record's steps give (the first ``upto`` of them), replayed."""
    parsed = MatchRecord.from_json(record)
    steps = parsed.actions[:upto]
    return Match.replay(get(parsed.game), parsed.params, parsed.deal(), parsed.players, steps)


def replayed_views(record: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """What the match authority shows ``seat`` after each version of a stored match (index =
    version), replayed from the record."""
    match = replay(record, 0)
    views = [match.view(seat)]
    for step in MatchRecord.from_json(record).actions:
        match.act(step.seat, step.action, step.by)
        views.append(match.view(seat))
    return views
