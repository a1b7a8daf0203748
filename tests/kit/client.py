"""A websocket client of one table, as the web table and the terminal are, and the table
helpers built on it: a started table of two people, a person's whole match against a bot, the
views a stored match gives each seat."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from typing import Any

import websockets

from kit.env import seconds
from kit.servers import api
from ludoteca.core import Match, MatchRecord
from ludoteca.core.fairness import seat_commitment
from ludoteca.games import get


class Client:
    """A websocket client of one table: sends messages, keeps the last state and every message."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.seed, self.salt = secrets.token_hex(16), secrets.token_hex(16)
        self.sent: set[str] = set()  # "commit", "reveal": each sent once

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
        """The next message, within ``timeout`` seconds (stretched by ``kit.env.seconds``)."""
        return await self._recv(seconds(timeout))

    async def _recv(self, timeout: float) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        message: dict[str, Any] = json.loads(text)
        self.raw.append(text)
        self.messages.append(message)
        if message["type"] == "state":
            await self._commit_and_reveal(message)
            if message["log_from"] == 0:
                self.log = []
            assert message["log_from"] == len(self.log), "log entries arrive in order, none lost"
            self.log.extend(message["log"])
            self.state = message
        return message

    async def _commit_and_reveal(self, state: dict[str, Any]) -> None:
        """As the web table does: a seated person commits to a seed of their own while the table
        takes commitments, and reveals it once the table says the reveals are open."""
        seat = state["seat"]
        table = state["table"]
        if seat is None or table["status"] not in ("open", "starting"):
            return
        row = table["seats"][seat]
        mine = seat_commitment(self.seed, self.salt)
        if not table["revealing"] and row["commitment"] is None and "commit" not in self.sent:
            self.sent.add("commit")
            await self.send({"type": "commit", "commitment": mine})
        revealing = table["revealing"] and row["commitment"] == mine and not row["contributed"]
        if revealing and "reveal" not in self.sent:
            self.sent.add("reveal")
            await self.send({"type": "reveal", "seed": self.seed, "salt": self.salt})

    async def until(self, predicate: Any, timeout: float = 20) -> dict[str, Any]:
        """Receive until a message satisfies ``predicate`` (within ``timeout`` seconds, stretched);
        return it."""
        deadline = time.monotonic() + seconds(timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the awaited message never came")
            message = await self._recv(left)
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
    base: str, game: str = "heroes", turn_seconds: int | None = None, pace: str | None = None
) -> tuple[str, list[str]]:
    """A started table of two people (Ana creates it, Bruno takes the last seat so it starts, each
    commits to a seed of their own, then reveals it, so it is dealt at once): its id and both
    seat tokens."""
    http = api(base)
    body: dict[str, Any] = {"game": game, "seats": [{"bot": False}] * 2, "name": "Ana"}
    if turn_seconds is not None:
        body["turn_seconds"] = turn_seconds
    if pace is not None:
        body["pace"] = pace
    created = http.post("/api/tables", json=body).json()
    table_id = created["table"]["id"]
    joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Bruno"}).json()
    tokens = [created["token"], joined["token"]]
    seeds = [(secrets.token_hex(16), secrets.token_hex(16)) for _ in tokens]
    for token, (seed, salt) in zip(tokens, seeds, strict=True):
        committed = http.post(
            f"/api/tables/{table_id}/commit",
            json={"commitment": seat_commitment(seed, salt)},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert committed.status_code == 200, committed.text
    for token, (seed, salt) in zip(tokens, seeds, strict=True):
        revealed = http.post(
            f"/api/tables/{table_id}/reveal",
            json={"seed": seed, "salt": salt},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert revealed.status_code == 200, revealed.text
    assert revealed.json()["table"]["status"] == "playing", revealed.text
    return table_id, tokens


def is_state(message: dict[str, Any]) -> bool:
    return message["type"] == "state"


async def stand_to_the_end(clients: list[Client]) -> None:
    """Every person stands on each of their turns until the match is over (the toy game,
    High Card: four turns)."""
    while True:
        states = [c.state for c in clients]
        if any(s is not None and s["view"] is not None and s["view"]["over"] for s in states):
            return
        movers = [c for c in clients if c.state is not None and "stand" in c.state["legal"]]
        if not movers:  # the deal or the next turn is on its way
            waits = [asyncio.ensure_future(c.until(is_state)) for c in clients]
            _, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for wait in pending:  # cancelling a websocket's recv loses no message
                wait.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            continue
        mover = movers[0]
        answer = await mover.act("stand", (mover.state or {})["version"])
        if answer["type"] == "error":  # the answer to the client's own late seed, or a race
            assert answer["code"] in {"already_dealt", "not_revealing", "stale_version"}, answer
            continue
        for client in clients:  # everyone hears the move
            await client.state_at_least(answer["version"])


async def person_against_bot(base: str, ws_base: str, game: str = "dwarves") -> str:
    """A whole match of a person (Ana, seat 0, over the websocket, choosing at random among the
    legal actions) against a random bot; the table's id once it is over."""
    created = (
        api(base)
        .post(
            "/api/tables",
            json={
                "game": game,
                "seats": [{"bot": False}, {"bot": True, "level": "random"}],
                "name": "Ana",
                "start": True,
            },
        )
        .json()
    )
    table_id: str = created["table"]["id"]
    client = await Client.connect(ws_base, table_id, created["token"])
    rng = random.Random(table_id)

    def mine_or_over(message: dict[str, Any]) -> bool:
        view = message.get("view") if message["type"] == "state" else None
        return view is not None and (view["over"] or bool(message["legal"]))

    try:
        state = await client.until(mine_or_over, timeout=60)
        while not state["view"]["over"]:
            answer = await client.act(rng.choice(state["legal"]), state["version"])
            assert answer["type"] == "state", answer
            state = answer if mine_or_over(answer) else await client.until(mine_or_over, 60)
    finally:
        await client.close()
    return table_id


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
