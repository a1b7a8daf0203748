"""``/api/pairing`` on a live server: two people (two HTTP clients, two browsers' cookies) who
look for the same game are seated at one table within 5 s and play it to the end over their
websockets with the tokens the search gave; the counts of people looking; cancel; one browser's
two searches never paired with each other; every bad request refused with a clear error and
nothing stored."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from kit.client import Client, is_state
from kit.servers import ThreadServer
from kit.wait import eventually

pytestmark = [pytest.mark.slow]


@pytest.fixture
def people(server: ThreadServer) -> Iterator[Callable[[], httpx.Client]]:
    """Browsers of their own (each its own cookies), closed afterwards."""
    made: list[httpx.Client] = []

    def one() -> httpx.Client:
        made.append(httpx.Client(base_url=server.base, timeout=10))
        return made[-1]

    yield one
    for http in made:
        http.close()


def look(http: httpx.Client, **body: Any) -> dict[str, Any]:
    answer = http.post("/api/pairing", json={"game": "heroes", "players": 2} | body)
    assert answer.status_code == 202, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_two_people_are_seated_together_and_play_to_the_end(
    server: ThreadServer, people: Callable[[], httpx.Client]
) -> None:
    ana, bruno = people(), people()
    started = time.monotonic()
    a = look(ana, name="Ana")
    assert a["state"] == "waiting" and a["looking"] == 1 and len(a["id"]) >= 32
    assert "ludoteca_device" in ana.cookies
    assert ana.get("/api/looking").json()["games"] == {"heroes": 1}
    b = look(bruno, name="Bruno")
    seated = [ana.get(f"/api/pairing/{a['id']}").json(), b]
    if b["state"] != "seated":
        seated[1] = bruno.get(f"/api/pairing/{b['id']}").json()
    assert time.monotonic() - started < 5
    assert [s["state"] for s in seated] == ["seated", "seated"]
    table = seated[0]["table"]
    assert seated[1]["table"] == table and {s["seat"] for s in seated} == {0, 1}
    assert seated[0]["websocket"].endswith(f"/ws/tables/{table}")
    assert ana.get("/api/looking").json()["games"] == {}
    names = [s["name"] for s in ana.get(f"/api/tables/{table}").json()["table"]["seats"]]
    assert sorted(names) == ["Ana", "Bruno"]

    async def play() -> None:
        clients = [await Client.connect(server.ws_base, table, s["token"]) for s in seated]
        try:
            await play_randomly(clients)
        finally:
            for c in clients:
                await c.close()

    asyncio.run(play())
    assert ana.get(f"/api/tables/{table}").json()["table"]["status"] == "over"


async def play_randomly(clients: list[Client]) -> None:
    """Whoever may act takes their first legal action, until the match is over."""
    for _ in range(2000):
        states = [c.state for c in clients]
        if any(s and s["view"] and s["view"]["over"] for s in states):
            return
        movers = [c for c in clients if c.state and c.state["view"] and c.state["legal"]]
        if not movers:
            waits = [asyncio.ensure_future(c.until(is_state)) for c in clients]
            _, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for w in pending:
                w.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            continue
        mover = movers[0]
        assert mover.state is not None
        answer = await mover.act(mover.state["legal"][0], mover.state["version"])
        if answer["type"] == "error":
            assert answer["code"] in {"stale_version", "not_your_turn"}, answer
    raise AssertionError("the match did not end")


def test_cancel_and_one_browser_never_meets_itself(people: Callable[[], httpx.Client]) -> None:
    ana = people()
    first = look(ana)
    second = look(ana)  # the same browser: its first search ends, and it does not pair itself
    assert ana.get(f"/api/pairing/{first['id']}").json()["state"] == "cancelled"
    assert ana.get(f"/api/pairing/{second['id']}").json()["state"] == "waiting"
    assert ana.delete(f"/api/pairing/{second['id']}").status_code == 204
    gone = ana.get(f"/api/pairing/{second['id']}").json()
    assert gone["state"] == "cancelled" and "token" not in gone
    assert ana.delete(f"/api/pairing/{second['id']}").status_code == 204  # again: no change
    missing = ana.get("/api/pairing/no-such-search-at-all")
    assert missing.status_code == 404 and missing.json()["error"] == "no_search"


def test_bots_after_a_wait_seat_a_person_alone(people: Callable[[], httpx.Client]) -> None:
    ana = people()
    a = look(ana, bots_after=1, bot_level="random")

    def seated() -> dict[str, Any] | None:
        s: dict[str, Any] = ana.get(f"/api/pairing/{a['id']}").json()
        return s if s["state"] == "seated" else None

    s = eventually(seated, 10, what="the bot filling the seat")
    seats = ana.get(f"/api/tables/{s['table']}").json()["table"]["seats"]
    assert [seat["kind"] for seat in seats].count("bot") == 1


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "nope"}, 404, "no_game"),
        ({"game": "heroes", "players": 3}, 422, "bad_request"),
        ({"game": "heroes", "players": 0}, 422, "bad_request"),
        ({"game": "heroes", "players": "two"}, 422, "bad_request"),
        ({"game": "heroes", "players": 2.0}, 422, "bad_request"),
        ({"game": "heroes", "pace": "slow"}, 422, "bad_request"),
        ({"game": "heroes", "bots_after": -1}, 422, "bad_request"),
        ({"game": "heroes", "bots_after": 3601}, 422, "bad_request"),
        ({"game": "heroes", "bot_level": "god"}, 422, "bad_request"),
        ({"game": "heroes", "rated": "yes"}, 422, "bad_request"),
        ({"game": "heroes", "rated": True}, 401, "not_signed_in"),
        ({"game": "heroes", "colour": "red"}, 422, "bad_request"),
        ({"players": 2}, 422, "bad_request"),
    ],
)
def test_bad_searches_are_refused_and_nothing_is_stored(
    people: Callable[[], httpx.Client], body: dict[str, Any], status: int, code: str
) -> None:
    http = people()
    answer = http.post("/api/pairing", json=body)
    assert answer.status_code == status, answer.text
    assert answer.json()["error"] == code and answer.json()["message"]
    assert http.get("/api/looking").json()["games"] == {}
