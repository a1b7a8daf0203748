"""The table chat across two ``ludoteca serve`` processes on one PostgreSQL database and one
Redis (docs/cluster.md): a message said at one process reaches a person connected to the other,
and after a SIGKILL of the first every message it acknowledged is in the table's chat."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from kit.client import Client, two_people_table
from kit.servers import ServerProcess, start_together

pytestmark = [pytest.mark.slow, pytest.mark.solo]


@pytest.fixture
def pair(
    postgres_url: str, redis_url: str, tmp_path: Path, process_servers: list[ServerProcess]
) -> Iterator[list[ServerProcess]]:
    env = {
        "LUDOTECA_REDIS": redis_url,
        "LUDOTECA_REDIS_PREFIX": f"ludoteca-test-{secrets.token_hex(4)}",
        "LUDOTECA_LEASE_SECONDS": "3",
        "LUDOTECA_CONTRIBUTION_SECONDS": "2",
        "LUDOTECA_LIMIT_CHAT": "100000/minute",
    }
    yield start_together(process_servers, tmp_path, postgres_url, [env] * 2)


async def history(client: Client) -> dict[str, Any]:
    return await client.until(lambda m: m["type"] == "chat_history")


def test_a_message_crosses_processes_and_a_sigkill_loses_no_acknowledged_one(
    pair: list[ServerProcess], postgres_url: str
) -> None:
    first, second = pair
    table, (ana_token, bruno_token) = two_people_table(first.base)

    async def scenario() -> list[int]:
        ana = await Client.connect(first.ws_base, table, ana_token)
        bruno = await Client.connect(second.ws_base, table, bruno_token)
        await history(ana)
        await history(bruno)

        sent = time.monotonic()
        await ana.send({"type": "chat", "phrase": "gl", "ref": "hello"})
        heard = await bruno.until(lambda m: m["type"] == "chat")
        crossed = time.monotonic() - sent
        assert heard["message"]["phrase"] == "gl" and heard["message"]["name"] == "Ana"
        assert crossed < 2.0, f"a message took {crossed:.2f} s to reach the other process"
        await bruno.send({"type": "chat", "phrase": "thanks", "ref": 1})
        back = await ana.until(lambda m: m["type"] == "chat" and m["message"]["phrase"] == "thanks")
        assert back["message"]["seat"] == 1

        # Ana keeps talking to the first process; it is killed while messages are in flight
        acked: list[int] = []

        async def talk() -> None:
            for ref in range(10_000):
                await ana.send({"type": "chat", "phrase": "thinking", "ref": ref})
                await asyncio.sleep(0.11)  # under the websocket's rate of 10 a second

        async def listen() -> None:
            while True:
                message = await ana.until(lambda m: m["type"] == "chat_ack", timeout=30)
                acked.append(message["id"])

        talking = asyncio.create_task(talk())
        listening = asyncio.create_task(listen())
        while len(acked) < 25:
            await asyncio.sleep(0.02)
        first.kill()
        for task in (talking, listening):
            task.cancel()
        await asyncio.gather(talking, listening, return_exceptions=True)
        assert len(acked) >= 25

        # everything acknowledged is in the table's chat: read at the surviving process
        again = await Client.connect(second.ws_base, table, ana_token)
        told = await history(again)
        ids = {m["id"] for m in told["messages"]}
        assert set(acked[-90:]) <= ids, "the history holds every acknowledged message"
        for client in (bruno, again):
            await client.close()
        return acked

    acked = asyncio.run(scenario())
    with psycopg.connect(postgres_url) as conn:
        stored = {
            row[0]
            for row in conn.execute("SELECT id FROM chat_messages WHERE table_id = %s", (table,))
        }
    missing = set(acked) - stored
    assert not missing, f"acknowledged and lost: {sorted(missing)}"
