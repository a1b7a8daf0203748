"""Bad input at the table: each is refused with a clear error to its sender, and nothing changes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from typing import Any

import pytest
import websockets

from kit.client import Client, replayed_views, two_people_table
from kit.servers import ThreadServer, api
from ludoteca.core import Match
from ludoteca.games import all_games, get


def stored_actions(server: ThreadServer, table_id: str) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = (
        api(server.base).get(f"/api/tables/{table_id}/record").json()["actions"]
    )
    return actions


def test_every_bad_message_is_refused_and_changes_nothing(server: ThreadServer) -> None:
    table_id, tokens = two_people_table(server.base)

    async def scenario() -> None:
        first = await Client.connect(server.ws_base, table_id, tokens[0])
        second = await Client.connect(server.ws_base, table_id, tokens[1])
        watcher = await Client.connect(server.ws_base, table_id)
        state = await first.until(lambda m: m["type"] == "state" and m["view"] is not None)
        await second.until(lambda m: m["type"] == "state")
        await watcher.until(lambda m: m["type"] == "state")
        mover = state["view"]["to_move"]
        clients = [first, second]
        to_move, waiting = clients[mover], clients[1 - mover]
        await to_move.state_at_least(0)
        legal = to_move.state["legal"]  # type: ignore[index]
        assert legal
        version = state["version"]

        async def refused(client: Client, payload: str | dict[str, Any], code: str) -> None:
            text = payload if isinstance(payload, str) else json.dumps(payload)
            await client.ws.send(text)
            error = await client.error()
            assert error["code"] == code, error
            assert error["message"] and error["version"] == version

        act = {"type": "act", "action": legal[0], "version": version}
        await refused(watcher, act, "spectator")  # acting without a token
        await refused(waiting, act, "not_your_turn")  # another seat's token / out of turn
        await refused(to_move, {**act, "version": version - 1}, "stale_version")
        await refused(to_move, {**act, "version": version + 5}, "stale_version")
        await refused(to_move, {**act, "action": "fly to the moon"}, "invalid_action")
        await refused(to_move, {**act, "action": 42}, "bad_message")
        await refused(to_move, {"type": "act", "action": legal[0]}, "bad_message")
        await refused(to_move, "{not json", "bad_json")
        await refused(to_move, "[1, 2]", "bad_message")
        await refused(to_move, {"type": "teleport"}, "unknown_type")
        await refused(to_move, {"type": "hello"}, "already_greeted")
        await refused(
            to_move, {"type": "act", "action": "x" * 5000, "version": version}, "too_large"
        )
        await to_move.ws.send(b"\x00\x01")
        assert (await to_move.error())["code"] == "binary"

        # nothing happened: the table is where it was, and still playable by the right seat
        assert stored_actions(server, table_id) == []
        await to_move.send(act)
        after = await to_move.until(lambda m: m["type"] == "state" and m["version"] == version + 1)
        assert after["version"] == version + 1
        for client in (first, second, watcher):
            await client.close()

    asyncio.run(scenario())
    assert [a["action"] for a in stored_actions(server, table_id)] == [
        stored_actions(server, table_id)[0]["action"]
    ]


def test_a_token_only_acts_for_its_own_table(server: ThreadServer) -> None:
    table_a, tokens_a = two_people_table(server.base)
    table_b, _ = two_people_table(server.base)

    async def scenario() -> None:
        intruder = await Client.connect(server.ws_base, table_b, tokens_a[0])
        error = await intruder.error()
        assert error["code"] == "bad_token"
        welcome = await intruder.until(lambda m: m["type"] == "welcome")
        assert welcome["role"] == "spectator"
        state = await intruder.until(lambda m: m["type"] == "state")
        assert state["legal"] == []
        await intruder.send({"type": "act", "action": "draw", "version": state["version"]})
        assert (await intruder.error())["code"] == "spectator"
        await intruder.close()

    asyncio.run(scenario())
    assert stored_actions(server, table_b) == []
    assert stored_actions(server, table_a) == []


def test_the_first_message_must_be_hello(server: ThreadServer) -> None:
    table_id, _ = two_people_table(server.base)

    async def scenario() -> None:
        async with websockets.connect(f"{server.ws_base}/ws/tables/{table_id}") as ws:
            await ws.send(json.dumps({"type": "act", "action": "draw", "version": 0}))
            error = json.loads(await ws.recv())
            assert error["type"] == "error" and error["code"] == "no_hello"

    asyncio.run(scenario())


@pytest.mark.slow
def test_flooding_is_rate_limited_with_one_notice(server: ThreadServer) -> None:
    """Messages past the rate are dropped: the first drop is answered ``rate_limited``, the rest
    get no reply at all, so a flood cannot make the server write more than the rate allows."""
    table_id, tokens = two_people_table(server.base)

    async def scenario() -> None:
        client = await Client.connect(server.ws_base, table_id, tokens[0])
        for _ in range(60):
            await client.send({"type": "ping"})
        await client.send({"type": "ping"})  # still over the rate: dropped too
        kinds = []
        with contextlib.suppress(TimeoutError):
            while True:
                message = await client.recv(timeout=1.0)
                if message["type"] in {"pong", "error"}:
                    kinds.append(message.get("code", "pong"))
        assert kinds.count("rate_limited") == 1
        assert 15 <= kinds.count("pong") < 40
        await client.close()

    asyncio.run(scenario())


def test_an_unknown_table_is_refused(server: ThreadServer) -> None:
    async def scenario() -> None:
        async with websockets.connect(f"{server.ws_base}/ws/tables/no-such-table") as ws:
            error = json.loads(await ws.recv())
            assert error["type"] == "error" and error["code"] == "no_table"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404

    asyncio.run(scenario())
    assert api(server.base).get("/api/tables/no-such-table").status_code == 404


@pytest.mark.slow
@pytest.mark.parametrize("game_id", list(all_games()))
def test_no_message_to_a_seat_holds_another_seats_secret_or_the_seed(
    server: ThreadServer, game_id: str
) -> None:
    """Over several whole matches through the server: every view a seat receives is exactly the
    game's view for that seat at that version (a function of what the seat may know), every log
    event is shown as that seat may see it, and the seed appears only once the match is over."""
    game = get(game_id)
    players = game.spec.max_players
    for round_ in range(3):
        created = (
            api(server.base)
            .post(
                "/api/tables",
                json={
                    "game": game_id,
                    "players": players,
                    "seats": [{"bot": False}] + [{"bot": True, "level": "random"}] * (players - 1),
                    "name": "Ana",
                    "start": True,
                },
            )
            .json()
        )
        table_id = created["table"]["id"]
        client = asyncio.run(
            play_random(server.ws_base, table_id, created["token"], random.Random(round_))
        )
        record = api(server.base).get(f"/api/tables/{table_id}/record").json()
        views = replayed_views(record, 0)
        seed = record["seed"]
        for raw, message in zip(client.raw, client.messages, strict=True):
            if message["type"] != "state" or message["view"] is None:
                continue
            view = views[message["version"]]
            assert message["view"] == view
            assert (seed in raw) == view["over"]
        assert [entry["events"] for entry in client.log] == seat_events(record, 0)
        assert seed not in json.dumps(client.log)


async def play_random(ws_base: str, table_id: str, token: str, pick: random.Random) -> Client:
    """Play random legal actions for a seat until the match is over; the client keeps all it got."""
    client = await Client.connect(ws_base, table_id, token)
    while True:
        state = client.state
        if state is None or state["view"] is None or not state["legal"]:
            if state is not None and state["view"] is not None and state["view"]["over"]:
                break
            await client.recv()
            continue
        await client.act(pick.choice(state["legal"]), state["version"])
    await client.close()
    return client


def seat_events(record: dict[str, Any], seat: int) -> list[list[dict[str, Any]]]:
    """Every log entry's events as ``seat`` may see them, recomputed by replaying the record."""
    match = Match(get(record["game"]), record["params"], record["seed"])
    shown = [[e.for_seat(seat) for e in match.opening_events]]
    for step in record["actions"]:
        shown.append([e.for_seat(seat) for e in match.act(step["seat"], step["action"])])
    return shown
