"""Rated pairing with accounts on a live server: two accounts, each on its own browser, looking
for a rated Heroes table are seated together under their accounts' names at a rated table that
each account holds (``/api/me/tables``); two accounts signed in on one browser are never paired
(the device cookie), whatever they look for; a guest's rated search is refused."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from kit.env import seconds
from kit.servers import ThreadServer, server_settings
from kit.wait import eventually

pytestmark = [pytest.mark.slow]
PASSWORD = "correct horse battery staple"


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ThreadServer]:
    settings = server_settings(sqlite_url, limit_signup="10000/minute", rating_poll_seconds=0.1)
    srv = ThreadServer(settings).start()
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


def sign_up(http: httpx.Client, name: str) -> None:
    made = http.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text


def look(http: httpx.Client) -> str:
    answer = http.post("/api/pairing", json={"game": "heroes", "players": 2, "rated": True})
    assert answer.status_code == 202, answer.text
    search: str = answer.json()["id"]
    return search


def state(http: httpx.Client, search: str) -> dict[str, Any]:
    found: dict[str, Any] = http.get(f"/api/pairing/{search}").json()
    return found


def test_two_accounts_are_paired_at_a_rated_table_they_hold(
    browsers: Callable[[], httpx.Client],
) -> None:
    ana, bruno = browsers(), browsers()
    sign_up(ana, "Ana")
    sign_up(bruno, "Bruno")
    a, b = look(ana), look(bruno)
    seated = eventually(
        lambda: [s for s in (state(ana, a), state(bruno, b)) if s["state"] == "seated"] or None,
        10,
        what="both seated",
    )
    at_a, at_b = state(ana, a), state(bruno, b)
    assert len(seated) >= 1 and at_a["table"] == at_b["table"]
    table = at_a["table"]
    summary = ana.get(f"/api/tables/{table}").json()["table"]
    assert sorted(s["name"] for s in summary["seats"]) == ["Ana", "Bruno"]
    assert ana.get(f"/api/tables/{table}/rating").json()["rated"] is True
    mine = {t["table"]: t for t in ana.get("/api/me/tables").json()}
    assert mine[table]["seat"] == at_a["seat"] and mine[table]["token"] == at_a["token"]


def test_two_accounts_on_one_browser_are_never_paired(
    browsers: Callable[[], httpx.Client],
) -> None:
    shared = browsers()
    sign_up(shared, "Cara")
    cara = look(shared)
    other = browsers()
    other.cookies.set("ludoteca_device", shared.cookies["ludoteca_device"], path="/api")
    sign_up(other, "Dora")  # a second account, signed up on the same browser
    dora = look(other)
    # the same browser: Dora's search ended Cara's, and nothing pairs them
    assert state(shared, cara)["state"] == "cancelled"
    assert state(other, dora)["state"] == "waiting"
    cara = look(shared)
    assert state(other, dora)["state"] == "cancelled"
    assert state(shared, cara)["state"] == "waiting"


def test_a_guest_may_not_look_for_a_rated_table(browsers: Callable[[], httpx.Client]) -> None:
    guest = browsers()
    answer = guest.post("/api/pairing", json={"game": "heroes", "rated": True})
    assert answer.status_code == 401 and answer.json()["error"] == "not_signed_in"
    casual = guest.post("/api/pairing", json={"game": "heroes"})
    assert casual.status_code == 202
