"""Turn clocks and bots on a live server: the table plays for a seat whose clock ran out, keeps
playing for it while it is away, and bots carry a table with nobody at it to the end."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from kit.client import Client, two_people_table
from kit.servers import ThreadServer, api, server_settings
from kit.wait import eventually
from ludoteca.core import verify
from ludoteca.games import get

RACED = ("stale_version", "not_your_turn")  # the table played the turn first


async def back_on_her_turn(client: Client, state: dict[str, Any]) -> dict[str, Any]:
    """Act on the seat's next turn, again on the one after while the table plays first; the
    answer that is not such a race."""
    while True:
        while state["clock"]["seat"] != state["seat"] or not state["legal"]:
            state = await client.until(lambda m: m["type"] == "state")
        answer = await client.act(state["legal"][0], state["version"])
        if answer["type"] == "state" and answer["log"][-1]["by"] == "table":
            answer = await client.error()  # the table's move came first; then this refusal
        if answer["type"] == "state" or answer["code"] not in RACED:
            return answer
        state = client.state
        assert state is not None


@pytest.mark.slow
def test_the_table_plays_for_a_seat_whose_clock_ran_out(sqlite_url: str) -> None:
    server = ThreadServer(server_settings(sqlite_url, away_grace=0.3)).start()
    try:
        table_id, tokens = two_people_table(server.base, turn_seconds=1)

        async def scenario() -> None:
            ana = await Client.connect(server.ws_base, table_id, tokens[0])
            state = await ana.until(lambda m: m["type"] == "state" and m["view"] is not None)
            assert state["clock"]["turn_seconds"] == 1 and 0 < state["clock"]["remaining"] <= 1
            started = time.monotonic()
            # nobody acts: the first timeout takes the whole second, the next ones the grace
            state = await ana.state_at_least(4, timeout=15)
            elapsed = time.monotonic() - started
            assert elapsed < 1 + 3 * 0.3 + 2.5, elapsed
            played = [e for e in ana.log if e["v"] >= 1]
            assert {e["by"] for e in played} == {"table"}
            seats = state["table"]["seats"]
            assert all(s["away"] for s in seats if s["seat"] in {e["seat"] for e in played})
            # Ana acts herself again: she is back, and her clock is a whole turn again (while she
            # is away her turn lasts 0.3 s: on a busy machine the table may play it first, and
            # she answers her next turn)
            answer = await back_on_her_turn(ana, state)
            assert answer["type"] == "state", answer
            assert answer["log"][-1]["by"] == "player"
            assert answer["table"]["seats"][0]["away"] is False
            await ana.close()

        asyncio.run(scenario())
    finally:
        server.stop()


@pytest.mark.slow
def test_bots_carry_a_table_with_nobody_at_it_to_the_end(server: ThreadServer) -> None:
    for game_id, players in (("heroes", 2), ("dice-heroes", 4)):
        created = (
            api(server.base)
            .post(
                "/api/tables",
                json={
                    "game": game_id,
                    "players": players,
                    "seats": [{"bot": True, "level": "random"}] * players,
                    "start": True,
                },
            )
            .json()
        )
        assert created["token"] is None
        table_id = created["table"]["id"]

        def over(table_id: str = table_id) -> dict[str, Any] | None:
            found: dict[str, Any] = api(server.base).get(f"/api/tables/{table_id}").json()
            return found["table"] if found["table"]["status"] == "over" else None

        summary = eventually(over, 60, interval=0.1, what=f"the end of the match at {table_id}")
        assert summary["status"] == "over" and summary["seed"]
        record = api(server.base).get(f"/api/tables/{table_id}/record").json()
        assert {a["by"] for a in record["actions"]} == {"bot"}
        assert verify(record, get).ok


@pytest.mark.slow
def test_clocks_survive_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'clock.sqlite3'}"
    server = ThreadServer(server_settings(url)).start()
    table_id, tokens = two_people_table(server.base, turn_seconds=30)

    async def turn_started_at(base: str) -> float:
        ana = await Client.connect(base, table_id, tokens[0])
        state = await ana.until(lambda m: m["type"] == "state")
        await ana.close()
        started: float = state["clock"]["started_at"]
        return started

    started_at = asyncio.run(turn_started_at(server.ws_base))
    server.stop()
    time.sleep(1.2)
    again = ThreadServer(server_settings(url), port=server.port).start()
    try:

        async def scenario() -> None:
            ana = await Client.connect(again.ws_base, table_id, tokens[0])
            state = await ana.until(lambda m: m["type"] == "state")
            clock = state["clock"]
            assert clock["started_at"] == round(started_at, 3)
            assert clock["deadline"] == round(started_at + 30, 3)
            assert clock["remaining"] <= 30 - 1.2
            await ana.close()

        asyncio.run(scenario())
    finally:
        again.stop()
