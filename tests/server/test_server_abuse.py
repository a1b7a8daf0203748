"""A hostile client over the wire: floods, silence, huge bodies, out-of-range input, table spam,
too many sockets, a crowded lobby feed, broken frames. Each is refused with a documented answer
and the server goes on serving everyone else."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from kit.client import two_people_table
from kit.env import seconds
from kit.servers import ThreadServer, api, health, server_settings
from kit.wait import eventually, eventually_async


@pytest.fixture
def strict_server(sqlite_url: str) -> Iterator[ThreadServer]:
    """A server with the small limits these tests run into."""
    srv = ThreadServer(
        server_settings(
            sqlite_url,
            hello_timeout=1.0,
            limit_create="4/minute",
            limit_websocket="6/minute",
            max_connections_per_client=3,
            max_dropped_messages=50,
        )
    ).start()
    yield srv
    srv.stop()


def test_a_flood_that_never_reads_is_closed_and_its_replies_bounded(server: ThreadServer) -> None:
    """Sending pings as fast as possible used to queue a pong for each (the process grew by
    hundreds of MB); now the messages over the rate are dropped and the socket is closed 1008."""
    table_id, tokens = two_people_table(server.base)

    async def scenario() -> None:
        ws = await websockets.connect(f"{server.ws_base}/ws/tables/{table_id}")
        await ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
        replies: list[dict[str, Any]] = []

        async def count() -> None:
            with contextlib.suppress(websockets.ConnectionClosed):
                async for text in ws:
                    replies.append(json.loads(text))

        counter = asyncio.create_task(count())
        ping = json.dumps({"type": "ping"})
        sent = 0
        with pytest.raises(websockets.ConnectionClosed) as closed:
            for sent in range(1, 20_001):
                await ws.send(ping)
                if sent % 100 == 0:
                    await asyncio.sleep(0)
            await asyncio.wait_for(ws.recv(), seconds(10))
        await counter
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert sent < 20_000
        pongs = sum(m["type"] == "pong" for m in replies)
        notices = [m for m in replies if m["type"] == "error"]
        assert pongs <= 100, f"{pongs} pongs for a flood"
        assert [m["code"] for m in notices] == ["rate_limited"]

    asyncio.run(scenario())
    # everyone else is still served
    assert api(server.base).get("/healthz").json()["status"] == "ok"


@pytest.mark.slow
def test_the_hello_deadline_counts_from_the_connection(strict_server: ThreadServer) -> None:
    """A socket that never says hello but sends something now and then used to stay open for
    good (the deadline restarted with every message); now it is closed 4408 on time."""
    table_id, _ = two_people_table(strict_server.base)

    async def scenario() -> float:
        opened = time.monotonic()
        async with websockets.connect(f"{strict_server.ws_base}/ws/tables/{table_id}") as ws:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(20):
                    await ws.send("x")
                    await asyncio.sleep(0.25)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408
        return time.monotonic() - opened

    assert asyncio.run(scenario()) < 2.5


def test_a_huge_body_gets_413_at_once_and_the_tables_go_on(server: ThreadServer) -> None:
    table_id, _ = two_people_table(server.base)
    http = api(server.base)
    body = b'{"name": "' + b"x" * (20 * 1024 * 1024) + b'"}'
    started = time.monotonic()
    answer = http.post(f"/api/tables/{table_id}/join", content=body)
    assert answer.status_code == 413 and answer.json()["error"] == "too_large"
    assert time.monotonic() - started < 2.0

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"game": "heroes", "name": "'
        for _ in range(200):
            yield b"y" * 65536
        yield b'"}'

    with httpx.Client(base_url=server.base, timeout=seconds(10)) as fresh:
        streamed = fresh.post("/api/tables", content=chunks())
    assert streamed.status_code == 413
    assert http.get("/api/tables", params={"status": "playing"}).json()[0]["id"] == table_id
    assert http.get("/healthz").status_code == 200


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "heroes", "players": 0}, "players"),
        ({"game": "heroes", "players": True}, "players"),
        ({"game": "heroes", "players": 99}, "players"),
        ({"game": "heroes", "players": "2"}, "players"),
        ({"game": "heroes", "seats": []}, "seats"),
        ({"game": "heroes", "seats": [{"bot": 1}] * 2}, "seats.0.bot"),
        ({"game": "heroes", "seats": [{"bot": True, "level": "genius"}] * 2}, "seats.0.level"),
        ({"game": "heroes", "seats": [{"bot": False}] * 9}, "seats"),
        ({"game": "heroes", "name": "n" * 65}, "name"),
        ({"game": "heroes", "start": "yes"}, "start"),
        ({"game": "heroes", "turn_seconds": 2.5}, "turn_seconds"),
        ({"game": "heroes", "surprise": 1}, "surprise"),
        # a table of bots nobody could ever start, and a person's seat with a bot's level
        ({"game": "heroes", "seats": [{"bot": True}, {"bot": True}]}, "start"),
        ({"game": "heroes", "seats": [{}, {"bot": False, "level": "hard"}]}, "seats.1.level"),
    ],
)
def test_out_of_range_tables_are_refused_422_naming_the_field(
    server: ThreadServer, body: dict[str, Any], field: str
) -> None:
    http = api(server.base)
    answer = http.post("/api/tables", json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "bad_request"
    assert answer.json()["message"].startswith(f"{field}: "), answer.json()["message"]
    assert http.get("/api/tables").json() == []


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        (b'{"game": "heroes", "name": "\xff\xfe"}', "bad_json", 400),  # not UTF-8
        (b'{"game": "heroes", "x": ' + b"[" * 30_000 + b"]" * 30_000 + b"}", "bad_json", 400),
        (b'{"game": ', "bad_json", 400),  # not JSON at all
    ],
    ids=["invalid-utf8", "deeply-nested", "truncated"],
)
def test_unreadable_bodies_are_answered_in_the_documented_shape(
    server: ThreadServer, body: bytes, code: str, status: int
) -> None:
    """Invalid UTF-8 and deeply nested JSON used to be answered 400 ``{"detail": ...}``, an
    unknown path 404 ``{"detail": ...}``."""
    http = api(server.base)
    answer = http.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == status, answer.text
    assert set(answer.json()) >= {"error", "message"} and "detail" not in answer.json()
    assert answer.json()["error"] == code
    assert http.get("/api/tables").json() == []
    missing = http.get("/api/nothing-here")
    assert missing.status_code == 404
    assert missing.json() == {"error": "not_found", "message": "there is nothing at this address"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seat": 99}, "seat"),
        ({"seat": -1}, "seat"),
        ({"seat": 5}, "seat"),  # within any table's range, not this one's
        ({"seat": True}, "seat"),
        ({"name": "n" * 10_000}, "name"),
    ],
)
def test_out_of_range_seats_are_refused_422_naming_the_field(
    server: ThreadServer, body: dict[str, Any], field: str
) -> None:
    http = api(server.base)
    created = http.post(
        "/api/tables", json={"game": "heroes", "seats": [{"bot": False}] * 2, "name": "A"}
    ).json()
    table_id = created["table"]["id"]
    answer = http.post(f"/api/tables/{table_id}/join", json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["message"].startswith(f"{field}: "), answer.json()["message"]
    table = http.get(f"/api/tables/{table_id}").json()["table"]
    assert [s["kind"] for s in table["seats"]] == ["human", "open"]


def test_table_spam_meets_429_with_retry_after(strict_server: ThreadServer) -> None:
    http = api(strict_server.base)
    made = [
        http.post("/api/tables", json={"game": "heroes", "name": "A"}).status_code for _ in range(4)
    ]
    assert made == [201] * 4
    refused = http.post("/api/tables", json={"game": "heroes", "name": "A"})
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert len(http.get("/api/tables").json()) == 4


def test_websockets_per_client_and_per_minute_are_capped(strict_server: ThreadServer) -> None:
    table_id, _ = two_people_table(strict_server.base)
    url = f"{strict_server.ws_base}/ws/tables/{table_id}"

    async def scenario() -> None:
        held = [await websockets.connect(url) for _ in range(3)]
        with pytest.raises(websockets.InvalidStatus) as capped:
            await websockets.connect(url)
        assert capped.value.response.status_code == 429
        assert json.loads(capped.value.response.body)["error"] == "too_many_connections"
        for ws in held:
            await ws.close()
        await eventually_async(
            lambda: health(strict_server.base)["connections"] == 0, what="the closes heard"
        )
        for _ in range(2):  # 6 per minute: 3 + 1 refused + these 2
            ws = await websockets.connect(url)
            await ws.close()
        with pytest.raises(websockets.InvalidStatus) as limited:
            await websockets.connect(url)
        assert limited.value.response.status_code == 429
        assert int(limited.value.response.headers["Retry-After"]) >= 1
        assert json.loads(limited.value.response.body)["error"] == "rate_limited"

    asyncio.run(scenario())


@pytest.mark.slow
def test_lobby_feed_bytes_per_change_do_not_grow_with_open_tables(sqlite_url: str) -> None:
    """Each change used to send every watcher the whole list of open tables; now it sends the
    one table that changed, whatever the number of open tables."""
    srv = ThreadServer(
        server_settings(sqlite_url, limit_create="1000/minute", max_open_tables_per_client=1000)
    ).start()
    http = api(srv.base)

    def open_table() -> str:  # one join leaves a seat free: the table stays open
        body = {"game": "dice-heroes", "seats": [{"bot": False}] * 3, "name": "A"}
        table_id: str = http.post("/api/tables", json=body).json()["table"]["id"]
        return table_id

    async def bytes_for_one_change(watch: str) -> int:
        async with websockets.connect(f"{srv.ws_base}/ws/lobby") as ws:
            await asyncio.wait_for(ws.recv(), seconds(10))  # the first page
            await asyncio.to_thread(http.post, f"/api/tables/{watch}/join", json={"name": "B"})
            delta = await asyncio.wait_for(ws.recv(), seconds(10))
            assert json.loads(delta)["type"] == "table_changed"
            return len(delta)

    try:
        few = [open_table() for _ in range(5)]
        small = asyncio.run(bytes_for_one_change(few[0]))
        many = [open_table() for _ in range(150)]
        large = asyncio.run(bytes_for_one_change(many[-1]))
        assert large < small * 1.2, (small, large)
        page = asyncio.run(first_page(srv.ws_base))
        assert len(page["tables"]) == 50 and page["total"] == 155
    finally:
        srv.stop()


async def first_page(ws_base: str) -> dict[str, Any]:
    async with websockets.connect(f"{ws_base}/ws/lobby") as ws:
        page: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), seconds(10)))
        return page


def test_the_listing_is_paged_and_filtered(sqlite_url: str) -> None:
    srv = ThreadServer(server_settings(sqlite_url, max_open_tables_per_client=100)).start()
    http = api(srv.base)
    try:
        made = {"heroes": [], "dwarves": []}  # type: dict[str, list[str]]
        for n in range(12):
            game = "heroes" if n % 3 else "dwarves"
            body = {"game": game, "players": 2 if game == "heroes" else 3, "name": "A"}
            made[game].append(http.post("/api/tables", json=body).json()["table"]["id"])
        page = http.get("/api/tables", params={"game": "heroes", "limit": 3, "offset": 2})
        assert page.headers["X-Total-Count"] == "8"
        assert [t["id"] for t in page.json()] == made["heroes"][::-1][2:5]
        assert len(http.get("/api/tables", params={"game": "dwarves"}).json()) == 4
        too_many = http.get("/api/tables", params={"limit": 1000})
        assert too_many.status_code == 422 and too_many.json()["message"].startswith("limit: ")
    finally:
        srv.stop()


def test_an_invalid_utf8_frame_is_one_warning_without_traceback(
    server: ThreadServer, caplog: pytest.LogCaptureFixture
) -> None:
    table_id, _ = two_people_table(server.base)

    async def scenario() -> None:
        async with websockets.connect(f"{server.ws_base}/ws/tables/{table_id}") as ws:
            await ws.send(b"\xff\xfe", text=True)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007

    def utf8_lines() -> list[logging.LogRecord]:
        return [r for r in caplog.records if "UTF-8" in r.getMessage()]

    with caplog.at_level(logging.INFO):
        asyncio.run(scenario())
        # the server is done with the socket (anything it logs about it is logged by then)
        eventually(lambda: health(server.base)["connections"] == 0, what="the connection's end")
        eventually(utf8_lines, what="the warning")
    lines = utf8_lines()
    assert len(lines) == 1 and lines[0].levelno == logging.WARNING
    assert lines[0].exc_info is None and not any(r.levelno >= logging.ERROR for r in caplog.records)


def test_two_servers_on_one_redis_share_one_limit(sqlite_url: str, redis_url: str) -> None:
    settings = server_settings(
        sqlite_url,
        redis_url=redis_url,
        redis_prefix=f"ludoteca-test-{secrets.token_hex(4)}",
        limit_create="3/minute",
    )
    first, second = ThreadServer(settings).start(), ThreadServer(settings).start()
    try:
        assert api(first.base).get("/healthz").json()["limits"] == "redis"
        codes = [
            api(srv.base).post("/api/tables", json={"game": "heroes", "name": "A"}).status_code
            for srv in (first, second, first, second)
        ]
        assert codes == [201, 201, 201, 429]
    finally:
        first.stop()
        second.stop()


def test_a_broken_table_tells_its_clients(server: ThreadServer) -> None:
    """Its clients hear ``table_broken`` and close 1011; the rest of the server is healthy."""
    table_id, _ = two_people_table(server.base)
    lobby = server.app_state.lobby
    lobby.residency.broken[table_id] = (
        "stored step 3 does not replay"  # as a failed replay leaves it
    )

    async def scenario() -> None:
        async with websockets.connect(f"{server.ws_base}/ws/tables/{table_id}") as ws:
            error = json.loads(await asyncio.wait_for(ws.recv(), seconds(10)))
            assert error["type"] == "error" and error["code"] == "table_broken"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), seconds(10))
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011

    asyncio.run(scenario())
    health = api(server.base).get("/healthz").json()
    assert health["status"] == "degraded" and health["broken"] == 1
    assert api(server.base).get(f"/api/tables/{table_id}").status_code == 503
