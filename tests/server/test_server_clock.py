"""Turn clocks and bots on a live server: the table plays for a seat whose clock ran out, keeps
playing for it while it is away, and bots carry a table with nobody at it to the end."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from serverkit import Client, ThreadServer, api, fast_settings, two_people_table

from ludoteca.core import verify
from ludoteca.games import get


def test_the_table_plays_for_a_seat_whose_clock_ran_out(sqlite_url: str) -> None:
    server = ThreadServer(fast_settings(sqlite_url, away_grace=0.3)).start()
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
            # Ana acts herself again: she is back, and her clock is a whole turn again
            while state["clock"]["seat"] != 0 or not state["legal"]:
                state = await ana.until(lambda m: m["type"] == "state")
            answer = await ana.act(state["legal"][0], state["version"])
            assert answer["type"] == "state"
            assert answer["log"][-1]["by"] == "player"
            assert answer["table"]["seats"][0]["away"] is False
            await ana.close()

        asyncio.run(scenario())
    finally:
        server.stop()


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
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            summary = api(server.base).get(f"/api/tables/{table_id}").json()["table"]
            if summary["status"] == "over":
                break
            time.sleep(0.1)
        assert summary["status"] == "over" and summary["seed"]
        record = api(server.base).get(f"/api/tables/{table_id}/record").json()
        assert {a["by"] for a in record["actions"]} == {"bot"}
        assert verify(record, get).ok


def test_clocks_survive_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'clock.sqlite3'}"
    server = ThreadServer(fast_settings(url)).start()
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
    again = ThreadServer(fast_settings(url), port=server.port).start()
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
