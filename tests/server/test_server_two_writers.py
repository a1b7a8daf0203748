"""Two server processes on one database: the same step sent through both is applied exactly once.

Telling the clients of one process what another process accepted needs a shared channel (Redis,
later); what must already hold is that no step is ever stored or applied twice, and that a process
which lost the race catches up from the database.
"""

from __future__ import annotations

import asyncio

import pytest

from kit.client import Client, two_people_table
from kit.servers import ThreadServer, api, server_settings


@pytest.mark.slow
@pytest.mark.parametrize(
    "database", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def test_the_same_step_through_two_processes_is_stored_once(
    database: str, sqlite_url: str, request: pytest.FixtureRequest
) -> None:
    url = sqlite_url if database == "sqlite" else request.getfixturevalue("postgres_url")
    first = ThreadServer(server_settings(url)).start()
    second = ThreadServer(server_settings(url)).start()
    try:
        table_id, tokens = two_people_table(first.base)

        async def scenario() -> list[dict[str, object]]:
            # the seat to move is connected to both processes (two tabs, two servers)
            probe = await Client.connect(first.ws_base, table_id, tokens[0])
            state = await probe.until(lambda m: m["type"] == "state")
            mover = state["view"]["to_move"]
            await probe.close()
            here = await Client.connect(first.ws_base, table_id, tokens[mover])
            there = await Client.connect(second.ws_base, table_id, tokens[mover])
            a = await here.until(lambda m: m["type"] == "state")
            b = await there.until(lambda m: m["type"] == "state")
            assert a["version"] == b["version"] == 0
            action = {"type": "act", "action": a["legal"][0], "version": 0}
            await asyncio.gather(here.send(action), there.send(action))
            answers = await asyncio.gather(
                here.until(lambda m: m["type"] == "error" or m["version"] == 1),
                there.until(lambda m: m["type"] == "error" or m["version"] == 1),
            )
            # the loser caught up from the database: its next state is version 1 too
            for client, answer in zip((here, there), answers, strict=True):
                if answer["type"] == "error":
                    assert answer["code"] == "stale_version"
                    await client.until(lambda m: m["type"] == "state" and m["version"] == 1)
            await here.close()
            await there.close()
            return answers

        answers = asyncio.run(scenario())
        assert sorted(str(a["type"]) for a in answers) == ["error", "state"]
        for server in (first, second):
            record = api(server.base).get(f"/api/tables/{table_id}/record").json()
            assert len(record["actions"]) == 1, "the step was stored exactly once"
    finally:
        first.stop()
        second.stop()
