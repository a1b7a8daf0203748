"""Presence and invitations across two ``ludoteca serve`` processes on one PostgreSQL database and
one Redis (docs/cluster.md, docs/protocol.md#the-personal-feed-websocket-wsme): a person whose
personal feed is open at one process is online to a friend asking the other, an invitation sent
through one process reaches the feed open at the other, and closing the feed makes them offline
to both at once."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from kit.env import seconds
from kit.servers import ServerProcess, start_together
from kit.wait import eventually

pytestmark = [pytest.mark.slow]

PASSWORD = "correct horse battery"


@pytest.fixture
def pair(
    postgres_url: str, redis_url: str, tmp_path: Path, process_servers: list[ServerProcess]
) -> Iterator[list[ServerProcess]]:
    env = {
        "LUDOTECA_REDIS": redis_url,
        "LUDOTECA_REDIS_PREFIX": f"ludoteca-test-{secrets.token_hex(4)}",
        "LUDOTECA_LIMIT_SIGNUP": "1000/minute",
    }
    yield start_together(process_servers, tmp_path, postgres_url, [env] * 2)


def signed_up(at: ServerProcess, name: str) -> httpx.Client:
    person = httpx.Client(base_url=at.base, timeout=seconds(30), headers={"Origin": at.base})
    made = person.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return person


def test_presence_and_an_invitation_cross_processes(pair: list[ServerProcess]) -> None:
    first, second = pair
    suffix = secrets.token_hex(3)
    ana_name, bia_name = f"Ana{suffix}", f"Bia{suffix}"
    ana, bia = signed_up(first, ana_name), signed_up(second, bia_name)
    try:
        assert ana.post("/api/friends", json={"name": bia_name}).status_code == 204

        def bia_online() -> bool:
            following = ana.get("/api/friends").json()["following"]
            return bool(following[0]["online"])

        assert not bia_online()
        body = {"game": "dwarves", "seats": [{"bot": False}] * 3}
        made = ana.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        cookie = f"ludoteca_session={bia.cookies['ludoteca_session']}"

        async def feed() -> None:
            async with websockets.connect(
                f"{second.ws_base}/ws/me",
                additional_headers={"Cookie": cookie},
                origin=second.base,  # type: ignore[arg-type]
            ) as ws:
                assert json.loads(await ws.recv()) == {"type": "welcome", "name": bia_name}
                eventually(bia_online, 5, what="Bia online, asked at the other process")
                await asyncio.sleep(1.5)  # the feed's cursor is set on its first round
                sent = ana.post("/api/invites", json={"name": bia_name, "table": table})
                assert sent.status_code == 204, sent.text
                notice = json.loads(await asyncio.wait_for(ws.recv(), seconds(10)))
                assert notice == {"type": "invite", "from": ana_name, "table": table}
            eventually(lambda: not bia_online(), 5, what="Bia offline once her feed closed")

        asyncio.run(feed())
    finally:
        ana.close()
        bia.close()
