"""``/api/seeks`` on a live server: a seek posted is listed (and in the open tables) with its
poster's name, its pace and whether it is rated; another browser takes it and both sit at one
started table; the lobby feed asked for counts sends them; every bad post or take is refused
with its code and changes nothing; the poster withdraws with the seat token; a blocked pair
never sees nor takes each other's seeks."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import websockets

from kit.env import seconds
from kit.servers import ThreadServer, server_settings

pytestmark = [pytest.mark.slow]
PASSWORD = "correct horse battery staple"


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ThreadServer]:
    srv = ThreadServer(server_settings(sqlite_url, limit_signup="10000/minute")).start()
    yield srv
    srv.stop()


@pytest.fixture
def browsers(server: ThreadServer) -> Iterator[Callable[[], httpx.Client]]:
    made: list[httpx.Client] = []

    def one() -> httpx.Client:
        made.append(
            httpx.Client(base_url=server.base, timeout=seconds(30), headers={"Origin": server.base})
        )
        return made[-1]

    yield one
    for http in made:
        http.close()


def post(http: httpx.Client, **body: Any) -> httpx.Response:
    return http.post("/api/seeks", json={"game": "heroes"} | body)


def sign_up(http: httpx.Client, name: str) -> None:
    made = http.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text


def test_a_seek_is_posted_listed_and_taken(
    server: ThreadServer, browsers: Callable[[], httpx.Client]
) -> None:
    ana, bruno = browsers(), browsers()
    made = post(ana, name="Ana", pace="turn-based")
    assert made.status_code == 201, made.text
    assert "ludoteca_device" in ana.cookies
    table = made.json()["table"]
    assert made.json()["seat"] == 0 and table["status"] == "open"
    assert table["seek"]["by"] == "Ana" and table["seek"]["rated"] is False
    listed = bruno.get("/api/seeks", params={"game": "heroes"}).json()
    assert [(t["id"], t["pace"], t["seek"]["by"]) for t in listed] == [
        (table["id"], "turn-based", "Ana")
    ]
    assert bruno.get("/api/seeks", params={"game": "dwarves"}).json() == []
    opened = bruno.get("/api/tables").json()
    assert [t["seek"] for t in opened] == [table["seek"]]
    assert bruno.get("/api/looking").json()["games"] == {"heroes": 1}
    taken = bruno.post(f"/api/seeks/{table['id']}/take", json={"name": "Bruno"})
    assert taken.status_code == 200, taken.text
    assert taken.json()["seat"] == 1 and taken.json()["table"]["status"] != "open"
    seats = ana.get(f"/api/tables/{table['id']}").json()["table"]["seats"]
    assert [s["name"] for s in seats] == ["Ana", "Bruno"]
    again = browsers().post(f"/api/seeks/{table['id']}/take", json={})
    assert again.status_code == 409 and again.json()["error"] == "seek_taken"
    assert bruno.get("/api/seeks").json() == []


def test_bad_seeks_and_takes_are_refused_and_change_nothing(
    server: ThreadServer, browsers: Callable[[], httpx.Client]
) -> None:
    ana, bruno = browsers(), browsers()
    refusals = [
        ({"game": "chess"}, 404, "no_game"),
        ({"players": 3}, 422, "bad_request"),
        ({"players": 1}, 422, "bad_request"),
        ({"pace": "slow"}, 422, "bad_request"),
        ({"rated": "yes"}, 422, "bad_request"),
        ({"rated": True}, 401, "not_signed_in"),
        ({"colour": "red"}, 422, "bad_request"),
    ]
    for body, status, code in refusals:
        answer = post(ana, **body)
        assert (answer.status_code, answer.json()["error"]) == (status, code), body
    assert ana.get("/api/tables").json() == []
    first = post(ana).json()["table"]["id"]
    post(ana), post(ana)
    too_many = post(ana)
    assert too_many.status_code == 429 and too_many.json()["error"] == "too_many_seeks"
    assert len(ana.get("/api/seeks").json()) == 3
    own = ana.post(f"/api/seeks/{first}/take", json={})
    assert own.status_code == 409 and own.json()["error"] == "own_seek"
    joined = ana.post(f"/api/tables/{first}/join", json={})  # the seek's rules hold there too
    assert joined.status_code == 409 and joined.json()["error"] == "own_seek"
    missing = bruno.post("/api/seeks/nothere/take", json={})
    assert missing.status_code == 404 and missing.json()["error"] == "no_seek"
    seats = ana.get(f"/api/tables/{first}").json()["table"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "open"]


def test_the_poster_withdraws_a_seek_with_the_seat_token(
    server: ThreadServer, browsers: Callable[[], httpx.Client]
) -> None:
    ana, bruno = browsers(), browsers()
    made = post(ana).json()
    table_id, token = made["table"]["id"], made["token"]
    wrong = bruno.delete(f"/api/seeks/{table_id}", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and wrong.json()["error"] == "bad_token"
    assert len(bruno.get("/api/seeks").json()) == 1
    done = ana.delete(f"/api/seeks/{table_id}", headers={"Authorization": f"Bearer {token}"})
    assert done.status_code == 204
    assert bruno.get("/api/seeks").json() == [] and bruno.get("/api/tables").json() == []
    late = bruno.post(f"/api/seeks/{table_id}/take", json={})
    assert late.status_code == 409 and late.json()["error"] == "seek_taken"


def test_a_blocked_pair_never_sees_nor_takes_each_other_s_seeks(
    server: ThreadServer, browsers: Callable[[], httpx.Client]
) -> None:
    ana, bruno, carla = browsers(), browsers(), browsers()
    sign_up(ana, "Ana"), sign_up(bruno, "Bruno"), sign_up(carla, "Carla")
    assert bruno.post("/api/blocks", json={"name": "Ana"}).status_code == 204
    rated = post(ana, rated=True)
    assert rated.status_code == 201, rated.text
    table_id = rated.json()["table"]["id"]
    assert rated.json()["table"]["seek"]["rating"] is not None
    assert bruno.get("/api/seeks").json() == [] and bruno.get("/api/tables").json() == []
    assert [t["id"] for t in carla.get("/api/seeks").json()] == [table_id]
    blocked = bruno.post(f"/api/seeks/{table_id}/take", json={})
    assert blocked.status_code == 403 and blocked.json()["error"] == "blocked"

    async def feeds() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        origin = {"Origin": server.base}

        async def first(http: httpx.Client, query: str) -> list[dict[str, Any]]:
            cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
            async with websockets.connect(
                f"{server.ws_base}/ws/lobby{query}", additional_headers=origin | {"Cookie": cookie}
            ) as ws:
                return [
                    json.loads(await asyncio.wait_for(ws.recv(), seconds(10)))
                    for _ in range(2 if query else 1)
                ]

        hidden = (await first(bruno, ""))[0]["tables"]
        page, counts = await first(carla, "?looking=true")
        return hidden, page | {"counts": counts}

    hidden, seen = asyncio.run(feeds())
    assert hidden == [] and [t["id"] for t in seen["tables"]] == [table_id]
    assert seen["counts"]["type"] == "looking" and seen["counts"]["games"] == {"heroes": 1}
    taken = carla.post(f"/api/seeks/{table_id}/take", json={})
    assert taken.status_code == 200, taken.text
