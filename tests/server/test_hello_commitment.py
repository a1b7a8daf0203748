"""A seat's commitment sent with its ``hello`` (docs/protocol.md, *Client to server*): applied as a
``commit`` before the first state, so a page saves the round trip of a separate ``commit``; a
commitment the table refuses gets the error a ``commit`` would, and the hello is still welcomed."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets

from kit.servers import ThreadServer, api
from ludoteca.core.fairness import seat_commitment

SALT = "5a" * 16


async def greet(
    server: ThreadServer, table_id: str, hello: dict[str, Any]
) -> tuple[list[dict[str, Any]], Any]:
    """Open the table's websocket and send ``hello``: every message up to the first state (or
    the first error when no welcome follows it), and the open connection."""
    ws = await websockets.connect(f"{server.ws_base}/ws/tables/{table_id}")
    await ws.send(json.dumps({"type": "hello", **hello}))
    heard: list[dict[str, Any]] = []
    while not heard or heard[-1]["type"] != "state":
        heard.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        if heard[-1]["type"] == "error" and heard[-1]["code"] == "bad_message":
            break  # an invalid hello: no welcome follows
    return heard, ws


def kinds(heard: list[dict[str, Any]]) -> list[str]:
    return [m["type"] if m["type"] != "error" else f"error:{m['code']}" for m in heard]


def seat_row(state: dict[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = state["table"]["seats"][state["seat"]]
    return row


def test_a_commitment_with_the_hello_shows_in_the_first_state(server: ThreadServer) -> None:
    """Against a bot the person is the last to commit: the first state already shows the
    commitments closed (``revealing``), the chain's last events the commit and the close; the
    same hello again (a reconnection) changes nothing, another one is refused as a late
    ``commit`` is; a spectator's commitment is refused and it watches."""
    played = api(server.base).post("/api/play-now", json={"game": "heroes"}).json()
    table_id, token = played["table"]["id"], played["token"]
    mine = seat_commitment("my-own-seed", SALT)

    async def scenario() -> None:
        heard, ws = await greet(server, table_id, {"token": token, "commitment": mine})
        assert kinds(heard) == ["welcome", "chat_history", "state"], heard
        state = heard[-1]
        assert heard[0]["role"] == "player"
        assert seat_row(state)["commitment"] == mine
        assert state["table"]["status"] == "starting" and state["table"]["revealing"]
        events = [e["event"] for e in state["prelude"]]
        assert events[-2:] == ["commit", "close"], events
        assert state["prelude"][-2]["commitment"] == mine
        await ws.close()

        again, ws = await greet(server, table_id, {"token": token, "commitment": mine})
        assert kinds(again) == ["welcome", "chat_history", "state"], again
        assert again[-1]["chain"] == state["chain"] and again[-1]["prelude"] == state["prelude"]
        await ws.close()

        other = seat_commitment("another-seed", SALT)
        late, ws = await greet(server, table_id, {"token": token, "commitment": other})
        assert kinds(late) == ["welcome", "chat_history", "error:commitments_closed", "state"]
        assert seat_row(late[-1])["commitment"] == mine and late[-1]["chain"] == state["chain"]
        # the reveal the page sends once it checked the prelude deals the match
        await ws.send(json.dumps({"type": "reveal", "seed": "my-own-seed", "salt": SALT}))
        while late[-1]["type"] != "state" or late[-1]["table"]["status"] != "playing":
            late.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        await ws.close()

        after, ws = await greet(server, table_id, {"token": token, "commitment": other})
        assert kinds(after) == ["welcome", "chat_history", "error:already_dealt", "state"]
        assert after[-1]["view"]["commitments"][played["seat"]] == mine
        await ws.close()
        again, ws = await greet(server, table_id, {"token": token, "commitment": mine})
        assert kinds(again) == ["welcome", "chat_history", "state"], "its own: nothing to say"
        await ws.close()

        watcher, ws = await greet(server, table_id, {"commitment": other})
        assert kinds(watcher) == ["welcome", "chat_history", "error:spectator", "state"]
        assert watcher[0]["role"] == "spectator" and watcher[-1]["seat"] is None
        await ws.close()

    asyncio.run(scenario())


def test_a_bad_commitment_in_a_hello_changes_nothing(server: ThreadServer) -> None:
    """At an open table of two people: a commitment that is not 64 lowercase hex digits is
    ``bad_commitment`` after the welcome; one that is not a string makes the hello invalid (no
    welcome: the connection still waits for a valid hello); a good one replaces the last, as a
    second ``commit`` does while the commitments are open."""
    body = {"game": "heroes", "seats": [{"bot": False}] * 2, "name": "Ana"}
    created = api(server.base).post("/api/tables", json=body).json()
    table_id, token = created["table"]["id"], created["token"]
    first, second = seat_commitment("one", SALT), seat_commitment("two", SALT)

    async def scenario() -> None:
        for bad in ("ABC", first.upper(), first + "0"):
            heard, ws = await greet(server, table_id, {"token": token, "commitment": bad})
            assert kinds(heard) == ["welcome", "chat_history", "error:bad_commitment", "state"]
            assert seat_row(heard[-1])["commitment"] is None
            assert [e["event"] for e in heard[-1]["prelude"]] == ["create", "sit"]
            await ws.close()
        for bad in (5, ["x"], {"hex": first}):
            heard, ws = await greet(server, table_id, {"token": token, "commitment": bad})
            assert kinds(heard) == ["error:bad_message"], heard
            assert "commitment" in heard[0]["message"]
            await ws.send(json.dumps({"type": "hello", "token": token}))  # still waits for one
            welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            await ws.close()

        heard, ws = await greet(server, table_id, {"token": token, "commitment": first})
        assert kinds(heard) == ["welcome", "chat_history", "state"]
        assert seat_row(heard[-1])["commitment"] == first
        assert not heard[-1]["table"]["revealing"], "Bob's seat is still open"
        await ws.close()
        heard, ws = await greet(server, table_id, {"token": token, "commitment": second})
        assert kinds(heard) == ["welcome", "chat_history", "state"]
        assert seat_row(heard[-1])["commitment"] == second
        commits = [e["commitment"] for e in heard[-1]["prelude"] if e["event"] == "commit"]
        assert commits == [first, second]
        await ws.close()

    asyncio.run(scenario())
