"""Rematches on live servers: two ``ludoteca serve`` processes on one PostgreSQL database and one
Redis, Ana connected to one and Bruno to the other. The offer made at one process reaches the
other person's websocket at once; leaving lapses it; a new offer accepted at the other process
creates one table, where both are seated (rotated) with the tokens their answers gave, and
play it to the end. Every refused request changes nothing."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kit.client import Client, stand_to_the_end
from kit.env import TESTS
from kit.servers import ServerProcess, api

pytestmark = [pytest.mark.slow]


@pytest.fixture
def pair(
    postgres_url: str, redis_url: str, tmp_path: Path, process_servers: list[ServerProcess]
) -> Iterator[list[ServerProcess]]:
    """Two processes on one fresh schema and one Redis, serving the toy game too."""
    path = os.pathsep.join(p for p in (str(TESTS), os.environ.get("PYTHONPATH", "")) if p)
    env = {
        "PYTHONPATH": path,
        "LUDOTECA_GAMES": "toygame",
        "LUDOTECA_REDIS": redis_url,
        "LUDOTECA_REDIS_PREFIX": f"ludoteca-test-{secrets.token_hex(4)}",
        "LUDOTECA_BOT_DELAY": "0.05",
        "LUDOTECA_CONTRIBUTION_SECONDS": "2",
    }
    for _ in range(2):
        process_servers.append(ServerProcess(tmp_path, postgres_url, env=dict(env)).start())
    yield process_servers


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def rematch_of(client: Client, state: str) -> Any:
    return lambda m: m["type"] == "state" and (m.get("rematch") or {}).get("state") == state


def test_a_rematch_across_two_processes(pair: list[ServerProcess]) -> None:
    one, other = pair
    http_one, http_other = api(one.base), api(other.base)
    created = http_one.post(
        "/api/tables", json={"game": "high-card", "seats": [{"bot": False}] * 2, "name": "Ana"}
    ).json()
    table = created["table"]["id"]
    ana = created["token"]
    bruno = http_other.post(f"/api/tables/{table}/join", json={"name": "Bruno"}).json()["token"]

    async def scenario() -> None:
        a = await Client.connect(one.ws_base, table, ana)
        b = await Client.connect(other.ws_base, table, bruno)
        try:
            for c in (a, b):
                await c.until(lambda m: m["type"] == "state" and m["view"] is not None)
            early = http_one.post(f"/api/tables/{table}/rematch", headers=bearer(ana))
            assert early.status_code == 409 and early.json()["error"] == "not_over"
            await stand_to_the_end([a, b])
            assert (a.state or {})["rematch"] is None

            # Ana offers at her process; Bruno sees it at his at once, then leaves: it lapses
            offered = http_one.post(f"/api/tables/{table}/rematch", headers=bearer(ana))
            assert offered.status_code == 200, offered.text
            first = offered.json()
            assert first["rematch"]["state"] == "offered" and first["seat"] == 1
            seen = await b.until(rematch_of(b, "offered"), timeout=10)
            assert seen["rematch"]["by"] == 0 and seen["rematch"]["answers"] == ["yes", None]
            stranger = http_other.post(f"/api/tables/{table}/rematch", headers=bearer("x" * 32))
            assert stranger.status_code == 403 and stranger.json()["error"] == "bad_token"
            left = http_other.post(f"/api/tables/{table}/leave", headers=bearer(bruno))
            assert left.status_code == 200, left.text
            lapsed = await a.until(rematch_of(a, "declined"), timeout=10)
            assert lapsed["rematch"]["reason"] == "left"
            gone = http_one.delete(f"/api/tables/{table}/rematch", headers=bearer(ana))
            assert gone.status_code == 409 and gone.json()["error"] == "no_rematch"
            assert http_one.get(f"/api/tables/{first['table']}").status_code == 404

            # Bruno offers anew at his process, Ana accepts at hers (twice: one table only)
            second = http_other.post(f"/api/tables/{table}/rematch", headers=bearer(bruno)).json()
            assert second["rematch"]["state"] == "offered" and second["table"] != first["table"]
            await a.until(rematch_of(a, "offered"), timeout=10)
            taps = await asyncio.gather(
                *(
                    asyncio.to_thread(
                        http_one.post, f"/api/tables/{table}/rematch", headers=bearer(ana)
                    )
                    for _ in range(2)
                )
            )
            answers = [tap.json() for tap in taps]
            assert {tap.status_code for tap in taps} == {200}
            assert {x["rematch"]["state"] for x in answers} == {"accepted"}
            assert {(x["table"], x["seat"], x["token"]) for x in answers} == {
                (second["table"], 1, answers[0]["token"])
            }
            await b.until(rematch_of(b, "accepted"), timeout=10)
            new = second["table"]
            summary = http_other.get(f"/api/tables/{new}").json()["table"]
            assert [s["name"] for s in summary["seats"]] == ["Bruno", "Ana"]
            assert summary["status"] in {"starting", "playing"}
            listed = http_one.get("/api/tables", params={"status": "starting"}).json()
            listed += http_one.get("/api/tables", params={"status": "playing"}).json()
            assert [t["id"] for t in listed].count(new) == 1
        finally:
            await a.close()
            await b.close()
        # both sit at the new table with the tokens their answers gave, and play it through
        a2 = await Client.connect(one.ws_base, new, answers[0]["token"])
        b2 = await Client.connect(other.ws_base, new, second["token"])
        try:
            welcomes = [await c.until(lambda m: m["type"] == "welcome") for c in (a2, b2)]
            assert [w["seat"] for w in welcomes] == [1, 0]
            for c in (a2, b2):
                await c.until(lambda m: m["type"] == "state" and m["view"] is not None, 20)
            await stand_to_the_end([b2, a2])
            assert (a2.state or {})["view"]["over"]
        finally:
            await a2.close()
            await b2.close()

    asyncio.run(scenario())
