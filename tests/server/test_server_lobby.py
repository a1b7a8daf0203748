"""The lobby over HTTP: games, tables, seats, starting, records, health, and clear errors."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from kit.client import Client
from kit.env import seconds
from kit.servers import ThreadServer, api
from ludoteca.core import commitment, fingerprint
from ludoteca.core.fairness import seat_commitment
from ludoteca.games import all_games


def test_games_are_listed_with_their_catalogue_entries(server: ThreadServer) -> None:
    games = api(server.base).get("/api/games").json()
    assert [g["id"] for g in games] == list(all_games())
    for game in games:
        assert game["min_players"] <= game["max_players"]
        assert set(game["catalogue"]) >= {"en", "pt", "de"}
    one = api(server.base).get("/api/games/heroes").json()
    assert set(one["rules"]) == {"en", "pt", "de"}
    assert "SRD 5.2.1" in one["rules"]["pt"]
    missing = api(server.base).get("/api/games/chess")
    assert missing.status_code == 404 and missing.json()["error"] == "no_game"


def test_the_openapi_schema_documents_the_lobby(server: ThreadServer) -> None:
    paths = api(server.base).get("/openapi.json").json()["paths"]
    for path in (
        "/api/games",
        "/api/tables",
        "/api/play-now",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/leave",
        "/api/tables/{table_id}/start",
        "/api/tables/{table_id}/record",
        "/api/verify",
        "/healthz",
    ):
        assert path in paths, path


def test_a_table_from_creation_to_start(server: ThreadServer) -> None:
    http = api(server.base)
    created = http.post(
        "/api/tables",
        json={
            "game": "dice-heroes",
            "players": 4,
            "seats": [{"bot": False}] * 3 + [{"bot": True, "level": "easy"}],
            "name": "  Ana\u0000 ",
            "turn_seconds": 30,
        },
    )
    assert created.status_code == 201
    body = created.json()
    table = body["table"]
    assert table["status"] == "open" and table["seed"] is None
    assert table["fingerprint"] == fingerprint(table["commitment"])
    assert [s["kind"] for s in table["seats"]] == ["human", "open", "open", "bot"]
    assert table["seats"][0]["name"] == "Ana" and table["seats"][3]["bot"]
    assert len(body["token"]) >= 30
    table_id = table["id"]
    assert table_id in [t["id"] for t in http.get("/api/tables").json()]

    joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
    assert joined["seat"] == 1 and joined["table"]["status"] == "open"
    taken = http.post(f"/api/tables/{table_id}/join", json={"name": "Cy", "seat": 1})
    assert taken.status_code == 409 and taken.json()["error"] == "seat_taken"
    left = http.post(
        f"/api/tables/{table_id}/leave", headers={"Authorization": f"Bearer {joined['token']}"}
    )
    assert left.json()["table"]["seats"][1]["kind"] == "open"
    retaken = http.post(f"/api/tables/{table_id}/join", json={"name": "Cy", "seat": 1}).json()
    assert retaken["seat"] == 1 and retaken["token"] != joined["token"]

    assert http.get(f"/api/tables/{table_id}/record").json()["error"] == "not_started"
    stranger = http.post(f"/api/tables/{table_id}/start", headers={"Authorization": "Bearer x"})
    assert stranger.status_code == 403 and stranger.json()["error"] == "bad_token"
    started = http.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {retaken['token']}"}
    ).json()["table"]
    # the free seat is a bot now; the deal waits for both people's commitments, then reveals
    assert [s["kind"] for s in started["seats"]] == ["human", "human", "bot", "bot"]
    assert started["status"] == "starting" and started["deal_by"] > started["started_at"]
    assert [s["commitment"] for s in started["seats"]] == [None] * 4
    assert not started["revealing"]
    assert http.get(f"/api/tables/{table_id}/record").json()["error"] == "not_started"
    tokens = (body["token"], retaken["token"])

    def post(path: str, token: str, **body: str) -> Any:
        return http.post(
            f"/api/tables/{table_id}/{path}",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
        )

    salt = "7" * 32
    for n, token in enumerate(tokens):
        early = post("reveal", token, seed=f"seed-of-{n}", salt=salt)
        assert early.status_code == 409 and early.json()["error"] == "not_revealing"
        bad = post("commit", token, commitment="ABC")
        assert bad.status_code == 422 and bad.json()["error"] == "bad_commitment"
        committed = post("commit", token, commitment=seat_commitment(f"seed-of-{n}", salt))
        assert committed.json()["table"]["revealing"] == (n == 1)
    closed = post("commit", tokens[0], commitment=seat_commitment("other", salt))
    assert closed.status_code == 409 and closed.json()["error"] == "commitments_closed"
    for n, token in enumerate(tokens):
        bad = post("reveal", token, seed="two words", salt=salt)
        assert bad.status_code == 422 and bad.json()["error"] == "bad_contribution"
        other = post("reveal", token, seed="not-mine", salt=salt)
        assert other.status_code == 422 and other.json()["error"] == "bad_reveal"
        added = post("reveal", token, seed=f"seed-of-{n}", salt=salt).json()["table"]
        assert added["status"] == ("starting" if n == 0 else "playing")
    again = post("reveal", tokens[0], seed="seed-of-0", salt=salt)  # a retry: accepted, no change
    assert again.status_code == 200 and again.json()["table"]["status"] == "playing"
    changed = post("reveal", tokens[0], seed="seed-of-9", salt=salt)
    assert changed.status_code == 422 and changed.json()["error"] == "bad_reveal"
    again = http.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {retaken['token']}"}
    )
    assert again.status_code == 409 and again.json()["error"] == "not_open"
    late = http.post(f"/api/tables/{table_id}/join", json={"name": "Dee"})
    assert late.status_code == 409
    assert table_id in [t["id"] for t in http.get("/api/tables?status=playing").json()]
    record = http.get(f"/api/tables/{table_id}/record").json()
    assert record["seed"] is None and record["secret"] is None
    assert record["commitment"] == table["commitment"]
    assert record["contributions"] == ["seed-of-0", "seed-of-1", None, None]


def test_taking_the_last_free_seat_starts_the_table(server: ThreadServer) -> None:
    http = api(server.base)
    created = http.post(
        "/api/tables", json={"game": "heroes", "seats": [{"bot": False}] * 2, "name": "Ana"}
    ).json()
    table_id = created["table"]["id"]
    joined = http.post(f"/api/tables/{table_id}/join", json={"name": "Bo"})
    assert joined.status_code == 200
    table = joined.json()["table"]
    assert table["status"] == "starting"  # nobody pressed Start
    assert [s["kind"] for s in table["seats"]] == ["human", "human"]
    late = http.post(f"/api/tables/{table_id}/join", json={"name": "Cy"})
    assert late.status_code == 409 and late.json()["error"] == "not_open"
    again = http.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {created['token']}"}
    )
    assert again.status_code == 409 and again.json()["error"] == "not_open"
    assert table_id not in [t["id"] for t in http.get("/api/tables").json()]


def test_starting_fills_empty_seats_with_bots(server: ThreadServer) -> None:
    http = api(server.base)
    created = http.post(
        "/api/tables", json={"game": "heroes", "seats": [{"bot": False}] * 2, "name": "Ana"}
    ).json()
    started = http.post(
        f"/api/tables/{created['table']['id']}/start",
        headers={"Authorization": f"Bearer {created['token']}"},
    ).json()["table"]
    assert [s["kind"] for s in started["seats"]] == ["human", "bot"]
    assert started["seats"][1]["bot"] and started["seats"][1]["level"] == "medium"


@pytest.mark.parametrize(
    ("body", "status", "text"),
    [
        ({"game": "chess"}, 404, "no game 'chess'"),
        ({"game": "heroes", "players": 3}, 422, "2 players, not 3"),
        ({"game": "heroes", "turn_seconds": 0}, 422, "turn_seconds"),
        ({"game": "heroes", "seats": [{"bot": False}]}, 422, "2 players, not 1"),
        ({"game": "heroes", "players": 2, "seats": [{"bot": False}]}, 422, "seats described"),
        ({"game": "heroes", "seats": [{"bot": True, "level": "genius"}] * 2}, 422, ""),
        ({"game": "heroes", "seats": [{"bot": True}] * 2, "name": "Ana"}, 422, "no seat for you"),
        ({"players": 2}, 422, ""),
    ],
)
def test_bad_table_requests_are_refused_and_create_nothing(
    server: ThreadServer, body: dict[str, object], status: int, text: str
) -> None:
    http = api(server.base)
    before = http.get("/api/tables").json()
    answer = http.post("/api/tables", json=body)
    assert answer.status_code == status
    assert text in answer.text
    assert http.get("/api/tables").json() == before


def test_the_seed_is_revealed_once_the_match_is_over(server: ThreadServer) -> None:
    http = api(server.base)
    created = http.post(
        "/api/tables",
        json={"game": "heroes", "seats": [{"bot": True, "level": "random"}] * 2, "start": True},
    ).json()
    table_id = created["table"]["id"]

    async def scenario() -> None:
        watcher = await Client.connect(server.ws_base, table_id)
        await watcher.until(lambda m: m["type"] == "state" and m["table"]["status"] == "over")
        await watcher.close()

    asyncio.run(scenario())
    table = http.get(f"/api/tables/{table_id}").json()["table"]
    assert table["secret"] and commitment(table["secret"]) == table["commitment"]
    record = http.get(f"/api/tables/{table_id}/record").json()
    assert record["secret"] == table["secret"] and record["seed"] == table["seed"]
    assert record["outcome"] == table["outcome"]
    keys = http.get("/api/keys").json()["keys"]
    assert record["signature"]["public_key"] == keys[0]["public_key"]
    checked = http.post("/api/verify", json=record).json()
    assert checked["ok"] is True and checked["problems"] == []
    assert checked["outcome"] == record["outcome"] and checked["key_id"] == keys[0]["key_id"]
    record["actions"] = record["actions"][:-1]
    failed = http.post("/api/verify", json=record).json()
    assert failed["ok"] is False
    assert failed["problems"] == [
        {
            "check": "signature",
            "step": None,
            "message": f"the signature by key {keys[0]['key_id']} does not match the record's "
            "content",
        }
    ]


def test_health_reports_the_database(server: ThreadServer) -> None:
    health = api(server.base).get("/healthz").json()
    assert health["status"] == "ok" and health["db"] == "sqlite"


def test_the_lobby_feed_sends_a_page_then_what_changes(server: ThreadServer) -> None:
    async def scenario() -> None:
        async with websockets.connect(f"{server.ws_base}/ws/lobby") as ws:

            async def next_message() -> dict[str, Any]:
                message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), seconds(10)))
                return message

            page = await next_message()
            assert page["type"] == "tables" and page["status"] == "open"
            assert page["tables"] == [] and page["total"] == 0
            http = api(server.base)
            created = await asyncio.to_thread(
                http.post,
                "/api/tables",
                json={"game": "heroes", "seats": [{"bot": False}] * 2, "name": "Ana"},
            )
            table_id = created.json()["table"]["id"]
            added = await next_message()
            assert added["type"] == "table_added" and added["table"]["id"] == table_id
            await asyncio.to_thread(http.post, f"/api/tables/{table_id}/join", json={"name": "Bo"})
            changed = await next_message()
            assert changed["type"] == "table_changed"
            assert [s["kind"] for s in changed["table"]["seats"]] == ["human", "human"]
            await asyncio.to_thread(
                http.post,
                f"/api/tables/{table_id}/start",
                headers={"Authorization": f"Bearer {created.json()['token']}"},
            )
            assert await next_message() == {"type": "table_removed", "id": table_id}
            await ws.send(json.dumps({"type": "ping"}))
            assert await next_message() == {"type": "pong"}
            await ws.send("hello?")
            error = await next_message()
            assert error["type"] == "error" and error["code"] == "unknown_type"

    asyncio.run(scenario())
