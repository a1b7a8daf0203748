"""Quick pairing across two ``ludoteca serve`` processes on one PostgreSQL database and one Redis:
two people asking two processes are seated at one table; four people looking for a 4-player
Dice Heroes table, two at each process, sit together; and a process killed while someone's
search waits loses nothing: the other process pairs that search, which its page then reads
there."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from kit.servers import ServerProcess, start_together
from kit.wait import eventually

pytestmark = [pytest.mark.slow]


@pytest.fixture
def pair(
    postgres_url: str, redis_url: str, tmp_path: Path, process_servers: list[ServerProcess]
) -> Iterator[list[ServerProcess]]:
    env = {
        "LUDOTECA_REDIS": redis_url,
        "LUDOTECA_REDIS_PREFIX": f"ludoteca-test-{secrets.token_hex(4)}",
        "LUDOTECA_BOT_DELAY": "0.05",
    }
    yield start_together(process_servers, tmp_path, postgres_url, [env] * 2)


@pytest.fixture
def browsers() -> Iterator[Callable[[str], httpx.Client]]:
    made: list[httpx.Client] = []

    def one(base: str) -> httpx.Client:
        made.append(httpx.Client(base_url=base, timeout=10))
        return made[-1]

    yield one
    for http in made:
        http.close()


def seated(http: httpx.Client, search: str) -> dict[str, Any]:
    def ready() -> dict[str, Any] | None:
        answer: dict[str, Any] = http.get(f"/api/pairing/{search}").json()
        return answer if answer["state"] == "seated" else None

    return eventually(ready, 10, interval=0.2, what="the search seated")


def look(http: httpx.Client, body: dict[str, Any]) -> str:
    answer = http.post("/api/pairing", json=body)
    assert answer.status_code == 202, answer.text
    search: str = answer.json()["id"]
    return search


def test_two_people_at_two_processes_are_paired(
    pair: list[ServerProcess], browsers: Callable[[str], httpx.Client]
) -> None:
    one, other = pair
    ana, bruno = browsers(one.base), browsers(other.base)
    body = {"game": "heroes", "players": 2}
    a = look(ana, body)
    # the other process sees it at its next count (each process counts the pool every half second)
    eventually(
        lambda: bruno.get("/api/looking").json()["games"] == {"heroes": 1},
        5,
        interval=0.1,
        what="the other process counting the search",
    )
    b = look(bruno, body)
    at_a, at_b = seated(ana, a), seated(bruno, b)
    assert at_a["table"] == at_b["table"] and {at_a["seat"], at_b["seat"]} == {0, 1}
    table = ana.get(f"/api/tables/{at_a['table']}").json()["table"]
    assert [s["kind"] for s in table["seats"]] == ["human", "human"]


def test_four_people_for_a_four_player_table_sit_together(
    pair: list[ServerProcess], browsers: Callable[[str], httpx.Client]
) -> None:
    people = [browsers(pair[i % 2].base) for i in range(4)]
    searches = []
    for i, http in enumerate(people):
        body = {"game": "dice-heroes", "players": 4, "name": f"P{i}"}
        searches.append(look(http, body))
        if i < 3:
            assert http.get(f"/api/pairing/{searches[-1]}").json()["state"] == "waiting"
    found = [seated(http, s) for http, s in zip(people, searches, strict=True)]
    assert len({f["table"] for f in found}) == 1
    assert sorted(f["seat"] for f in found) == [0, 1, 2, 3]
    table = people[0].get(f"/api/tables/{found[0]['table']}").json()["table"]
    assert sorted(s["name"] for s in table["seats"]) == ["P0", "P1", "P2", "P3"]


def test_a_killed_process_loses_no_search(
    pair: list[ServerProcess], browsers: Callable[[str], httpx.Client]
) -> None:
    one, other = pair
    ana_there = browsers(one.base)
    a = look(ana_there, {"game": "heroes", "players": 2})
    one.kill()
    # Ana's page now reaches the other process (as behind a proxy), with her search's id
    ana, bruno = browsers(other.base), browsers(other.base)
    assert ana.get(f"/api/pairing/{a}").json()["state"] == "waiting"
    b = look(bruno, {"game": "heroes", "players": 2})
    assert seated(ana, a)["table"] == seated(bruno, b)["table"]
