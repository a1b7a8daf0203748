"""Seeks across two ``ludoteca serve`` processes on one PostgreSQL database and one Redis: a
seek posted at one process reaches a lobby page following the other, live, with what everyone
sees of it, and with the counts of people looking; a person at the other process takes it, and
both sit at one started table."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from kit.client import Client, is_state
from kit.env import seconds
from kit.servers import ServerProcess, start_together

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


def test_a_seek_posted_at_one_process_is_seen_live_and_taken_at_the_other(
    pair: list[ServerProcess],
) -> None:
    one, other = pair

    async def scenario() -> None:
        async with websockets.connect(f"{other.ws_base}/ws/lobby?looking=true") as feed:

            async def until(check: Any) -> dict[str, Any]:
                while True:
                    message: dict[str, Any] = json.loads(
                        await asyncio.wait_for(feed.recv(), seconds(10))
                    )
                    if check(message):
                        return message

            first = json.loads(await feed.recv())
            assert first["type"] == "tables" and first["tables"] == []
            with httpx.Client(base_url=one.base, timeout=seconds(10)) as ana:
                made = ana.post(
                    "/api/seeks", json={"game": "heroes", "name": "Ana", "pace": "turn-based"}
                )
            assert made.status_code == 201, made.text
            table_id, token = made.json()["table"]["id"], made.json()["token"]
            poster = await Client.connect(one.ws_base, table_id, token)  # her page, at the table
            try:
                seen = await until(
                    lambda m: (
                        m["type"] in {"table_added", "table_changed"}
                        and m["table"]["id"] == table_id
                        and m["table"]["seek"] is not None
                    )
                )
                assert (
                    seen["table"]["seek"]["by"] == "Ana" and seen["table"]["seek"]["rated"] is False
                )
                assert seen["table"]["pace"] == "turn-based"
                await until(lambda m: m["type"] == "looking" and m["games"].get("heroes") == 1)
                with httpx.Client(base_url=other.base, timeout=seconds(10)) as bruno:
                    taken = bruno.post(f"/api/seeks/{table_id}/take", json={"name": "Bruno"})
                assert taken.status_code == 200, taken.text
                assert taken.json()["seat"] == 1
                removed = await until(lambda m: m["type"] == "table_removed")
                assert removed["id"] == table_id
                started = await poster.until(
                    lambda m: is_state(m) and m["table"]["status"] in {"starting", "playing"}
                )
                assert [s["name"] for s in started["table"]["seats"]] == ["Ana", "Bruno"]
            finally:
                await poster.close()

    asyncio.run(scenario())
