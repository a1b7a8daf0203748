"""Playing through the protocol on a real server: people, bots, spectators, refreshes."""

from __future__ import annotations

import asyncio
import gc
import json
import random
import weakref
from typing import Any

import pytest

from kit.client import Client, replay, replayed_views
from kit.servers import ThreadServer, api
from kit.wait import eventually_async
from ludoteca.core import verify
from ludoteca.games import all_games, get


async def play_until_over(client: Client, pick: random.Random, stop_at: int | None = None) -> None:
    """Play random legal actions for the client's seat until the match ends (or ``stop_at``)."""
    while True:
        state = client.state
        if state is not None and state["view"] is not None:
            if state["view"]["over"] or (stop_at is not None and state["version"] >= stop_at):
                return
            if state["legal"]:
                await client.act(pick.choice(state["legal"]), state["version"])
                continue
        await client.recv()


def check_record(server: ThreadServer, table_id: str) -> dict[str, Any]:
    record: dict[str, Any] = api(server.base).get(f"/api/tables/{table_id}/record").json()
    verdict = verify(record, get)
    assert verdict.ok, verdict.problems
    return record


@pytest.mark.slow
def test_two_people_play_a_whole_heroes_match(server: ThreadServer) -> None:
    http = api(server.base)
    created = http.post(
        "/api/tables",
        json={"game": "heroes", "seats": [{"bot": False}, {"bot": False}], "name": "Ana"},
    ).json()
    table_id = created["table"]["id"]
    assert created["invite"].endswith(f"/table/{table_id}")
    joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Bruno"}).json()
    assert joined["seat"] == 1 and joined["token"] != created["token"]
    assert joined["table"]["status"] == "starting"  # every seat taken: started by itself

    async def scenario() -> None:
        ana = await Client.connect(server.ws_base, table_id, created["token"])
        bruno = await Client.connect(server.ws_base, table_id, joined["token"])
        await asyncio.gather(
            play_until_over(ana, random.Random(1)), play_until_over(bruno, random.Random(2))
        )
        for client in (ana, bruno):
            assert client.state is not None
            assert client.state["view"]["over"] and client.state["view"]["seed"]
            assert {s["kind"] for s in client.state["table"]["seats"]} == {"human"}
        assert ana.state and bruno.state and ana.state["version"] == bruno.state["version"]
        await ana.close()
        await bruno.close()

    asyncio.run(scenario())
    record = check_record(server, table_id)
    assert [p["name"] for p in record["players"]] == ["Ana", "Bruno"]
    assert not any(p["bot"] for p in record["players"])
    assert {a["by"] for a in record["actions"]} == {"player"}


@pytest.mark.slow
@pytest.mark.parametrize("game_id", list(all_games()))
def test_a_person_plays_a_bot_to_the_end_in_each_game(server: ThreadServer, game_id: str) -> None:
    created = api(server.base).post("/api/play-now", json={"game": game_id, "name": "Ana"}).json()
    table_id = created["table"]["id"]
    seats = created["table"]["seats"]
    assert seats[0]["kind"] == "human"
    assert all(s["bot"] and s["kind"] == "bot" and s["level"] == "medium" for s in seats[1:])

    async def scenario() -> None:
        client = await Client.connect(server.ws_base, table_id, created["token"])
        await play_until_over(client, random.Random(7))
        assert client.state is not None
        view = client.state["view"]
        assert view["over"] and view["outcome"] is not None
        assert client.state["table"]["seed"] == view["seed"]
        by = {entry["by"] for entry in client.log[1:]}
        assert "bot" in by and "player" in by
        await client.close()

    asyncio.run(scenario())
    record = check_record(server, table_id)
    assert record["players"][1]["bot"] is True


def test_a_spectator_follows_every_change_and_sees_only_the_public_view(
    server: ThreadServer,
) -> None:
    http = api(server.base)
    created = http.post("/api/play-now", json={"game": "heroes", "name": "Ana"}).json()
    table_id = created["table"]["id"]

    async def scenario() -> Client:
        player = await Client.connect(server.ws_base, table_id, created["token"])
        watcher = await Client.connect(server.ws_base, table_id)
        welcome = await watcher.until(lambda m: m["type"] == "welcome")
        assert welcome["role"] == "spectator" and welcome["seat"] is None
        await play_until_over(player, random.Random(3))
        final = await watcher.until(
            lambda m: m["type"] == "state" and (m["view"] or {}).get("over")
        )
        assert final["view"]["seed"] == player.state["view"]["seed"]  # type: ignore[index]
        await player.close()
        await watcher.close()
        return watcher

    watcher = asyncio.run(scenario())
    record = check_record(server, table_id)
    views = replayed_views(record, None)
    # every action reached the watcher exactly once, in order
    assert [e["v"] for e in watcher.log] == list(range(len(record["actions"]) + 1))
    for message in watcher.messages:
        if message["type"] == "state":
            assert message["legal"] == []
            if message["table"]["status"] != "starting":  # nothing is dealt while it waits
                assert message["view"] == views[message["version"]]


def test_a_refresh_resumes_the_seat_with_the_current_view(server: ThreadServer) -> None:
    created = api(server.base).post("/api/play-now", json={"game": "heroes", "name": "Ana"}).json()
    table_id, token = created["table"]["id"], created["token"]

    async def scenario() -> None:
        first = await Client.connect(server.ws_base, table_id, token)
        await play_until_over(first, random.Random(5), stop_at=6)
        assert first.state is not None
        seen_version = first.state["version"]
        await first.close()
        again = await Client.connect(server.ws_base, table_id, token)
        welcome = await again.until(lambda m: m["type"] == "welcome")
        assert welcome["seat"] == 0 and welcome["role"] == "player"
        state = await again.until(lambda m: m["type"] == "state")
        assert state["seat"] == 0
        assert state["version"] >= seen_version
        assert state["log_from"] == 0 and len(state["log"]) == state["version"] + 1
        assert "hand" in json.dumps(state["view"]["position"])
        await play_until_over(again, random.Random(6))
        await again.close()

    asyncio.run(scenario())
    check_record(server, table_id)


def test_replaying_the_stored_record_gives_the_same_final_view(server: ThreadServer) -> None:
    created = (
        api(server.base)
        .post("/api/play-now", json={"game": "dice-heroes", "players": 3, "name": "Ana"})
        .json()
    )
    table_id = created["table"]["id"]

    async def scenario() -> dict[str, Any]:
        client = await Client.connect(server.ws_base, table_id, created["token"])
        await play_until_over(client, random.Random(9))
        await client.close()
        assert client.state is not None
        return client.state

    final = asyncio.run(scenario())
    record = check_record(server, table_id)
    assert replay(record).view(0) == final["view"]


def test_a_closed_connection_is_freed_at_once_not_by_the_collector(server: ThreadServer) -> None:
    """Nothing a connection owns refers back to it, so closing it frees it by reference
    counting: with the collector off, its objects still go (under load, a cycle per connection
    was collector work for every match)."""
    created = api(server.base).post("/api/play-now", json={"game": "heroes", "name": "Ana"}).json()
    table_id = created["table"]["id"]
    lobby = server.app_state.lobby

    async def scenario() -> weakref.ref[Any]:
        client = await Client.connect(server.ws_base, table_id, created["token"])
        await client.recv()  # welcome: the connection now listens at the table
        table = lobby.residency.tables[table_id]
        await eventually_async(lambda: table.listeners, interval=0.01)
        (connection,) = table.listeners
        gone = weakref.ref(connection)
        del connection
        await client.close()
        await eventually_async(lambda: not table.listeners, interval=0.01)
        await eventually_async(lambda: gone() is None, interval=0.01)
        return gone

    gc.collect()
    gc.disable()
    try:
        gone = asyncio.run(scenario())
    finally:
        gc.enable()
    assert gone() is None
