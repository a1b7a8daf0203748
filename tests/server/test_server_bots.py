"""A searching bot thinks in its own process: while ``hard`` bots search at one table (most of a
second per decision), two people at another table are answered between the bots' moves, not after
them."""

from __future__ import annotations

import asyncio
import multiprocessing
import secrets
import time
from itertools import pairwise

import pytest

from kit.client import Client, two_people_table
from kit.servers import ThreadServer, api, server_settings
from ludoteca.core.fairness import seat_commitment


@pytest.mark.slow
def test_a_thinking_hard_bot_never_stalls_another_table(sqlite_url: str) -> None:
    server = ThreadServer(server_settings(sqlite_url)).start()
    try:
        created = api(server.base).post(
            "/api/tables",
            json={"game": "heroes", "seats": [{"bot": True, "level": "hard"}] * 2, "start": True},
        )
        assert created.status_code == 201, created.text
        bots_table = created.json()["table"]["id"]
        table_id, tokens = two_people_table(server.base)

        async def scenario() -> None:
            watcher = await Client.connect(server.ws_base, bots_table)
            await watcher.state_at_least(2, timeout=30)  # the worker process is up and searching
            bot_moves: list[float] = []
            answers: list[float] = []

            async def watch() -> None:
                while True:
                    message = await watcher.recv(timeout=30)
                    if message["type"] == "state":
                        bot_moves.append(time.monotonic())

            watching = asyncio.create_task(watch())
            people = [await Client.connect(server.ws_base, table_id, t) for t in tokens]

            async def play(client: Client) -> None:
                """The first legal action whenever it is this seat's turn, at a person's pace
                (a tenth of a second), until the bots have moved four times."""
                while True:
                    state = client.state
                    if state is not None and state["view"] is not None:
                        if state["view"]["over"] or len(bot_moves) >= 4:
                            return
                        if state["legal"]:
                            answer = await client.act(state["legal"][0], state["version"])
                            assert answer["type"] == "state", answer
                            answers.append(time.monotonic())
                            await asyncio.sleep(0.1)
                            continue
                    await client.recv()

            await asyncio.gather(*(play(client) for client in people))
            watching.cancel()
            for client in (watcher, *people):
                await client.close()

            assert len(bot_moves) >= 2, "the hard bots kept playing meanwhile"
            busiest = max(
                sum(1 for t in answers if start < t < end) for start, end in pairwise(bot_moves)
            )
            # Were the search on the event loop, an action would wait for the running search to
            # end and be answered just after a bot move: no two answers between two bot moves.
            assert busiest >= 3, (busiest, len(answers), len(bot_moves))
            record = api(server.base).get(f"/api/tables/{bots_table}/record").json()
            assert {a["by"] for a in record["actions"]} == {"bot"}

        asyncio.run(scenario())
    finally:
        server.stop()


def test_the_search_worker_starts_with_the_table_not_with_its_first_decision(
    sqlite_url: str,
) -> None:
    """A table with a ``hard`` seat starts the worker process at once, so the bot's first decision
    does not wait for a process to spawn. (Bots wait 30 s here before deciding anything.)"""
    server = ThreadServer(server_settings(sqlite_url, bot_delay=30)).start()

    def workers() -> set[int]:
        """Processes this test's server started (others may still be ending)."""
        return {p.pid for p in multiprocessing.active_children()} - before

    def playing(level: str) -> str:
        """A started table of a person and a ``level`` bot, dealt at once (the person's seed is
        in); its id once its first state says it is playing. The table's clock and bots are
        scheduled before its clients hear of the deal, so a worker it starts exists by then."""
        http = api(server.base)
        created = http.post(
            "/api/tables",
            json={
                "game": "heroes",
                "seats": [{"bot": False}, {"bot": True, "level": level}],
                "name": "Ana",
                "start": True,
            },
        )
        assert created.status_code == 201, created.text
        table_id: str = created.json()["table"]["id"]
        ana = {"Authorization": f"Bearer {created.json()['token']}"}
        seed, salt = secrets.token_hex(16), secrets.token_hex(16)
        promised = {"commitment": seat_commitment(seed, salt)}
        committed = http.post(f"/api/tables/{table_id}/commit", json=promised, headers=ana)
        assert committed.status_code == 200, committed.text
        revealed = http.post(
            f"/api/tables/{table_id}/reveal", json={"seed": seed, "salt": salt}, headers=ana
        )
        assert revealed.status_code == 200, revealed.text

        async def dealt() -> None:
            watcher = await Client.connect(server.ws_base, table_id)
            try:
                await watcher.until(
                    lambda m: m["type"] == "state" and m["table"]["status"] == "playing"
                )
            finally:
                await watcher.close()

        asyncio.run(dealt())
        return table_id

    before = {p.pid for p in multiprocessing.active_children()}
    try:
        playing("medium")
        assert not workers(), "no searching seat, no worker"
        playing("hard")
        assert workers(), "a searching seat starts the worker with the table"
    finally:
        server.stop()
