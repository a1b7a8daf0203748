"""Killing the server loses nothing: every action anyone was told of is stored, and every match
continues after a restart from its last accepted action, to a record that verifies."""

from __future__ import annotations

import asyncio
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from kit.client import Client
from kit.servers import ServerProcess, api
from kit.wait import eventually
from ludoteca.core import verify
from ludoteca.games import all_games, get

SLOW_BOTS = {"LUDOTECA_BOT_DELAY": "0.05"}  # slow enough that the kill finds matches running
FAST_BOTS = {"LUDOTECA_BOT_DELAY": "0"}  # after the restart: only the ends of the matches matter


def create_tables(srv: ServerProcess) -> tuple[list[str], dict[str, str]]:
    """Bot-only tables of every game, plus a person against a bot in each game."""
    bot_tables, person_tables = [], {}
    for game_id, game in all_games().items():
        for players in sorted({game.spec.min_players, game.spec.max_players}):
            created = (
                api(srv.base)
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
            bot_tables.append(created["table"]["id"])
        created = (
            api(srv.base)
            .post(
                "/api/play-now",
                json={"game": game_id, "name": "Ana", "level": "random", "turn_seconds": 600},
            )
            .json()
        )
        person_tables[created["table"]["id"]] = created["token"]
    return bot_tables, person_tables


async def follow(
    srv: ServerProcess, tables: list[str], people: dict[str, str], seconds: float
) -> dict[str, list[dict[str, Any]]]:
    """Watch every table (and play the person seats) for ``seconds``; return each table's log as
    the clients were told it. Each client stops by itself at the end, none is cancelled: on
    Python 3.11 a cancel that meets a message arriving in ``asyncio.wait_for`` is lost, and the
    client would go on listening until its 30 s wait ran out (34 s instead of 0.5, now and then)."""
    told: dict[str, list[dict[str, Any]]] = {}
    end = time.monotonic() + seconds

    async def heard(client: Client) -> bool:
        """The next message, if one comes before the end."""
        left = end - time.monotonic()
        if left <= 0:
            return False
        try:
            await asyncio.wait_for(client.recv(timeout=30), left)
        except TimeoutError:
            return False
        return True

    async def watch(table_id: str) -> None:
        client = await Client.connect(srv.ws_base, table_id)
        try:
            while await heard(client):
                told[table_id] = list(client.log)
        finally:
            await client.ws.close()

    async def play(table_id: str, token: str) -> None:
        client = await Client.connect(srv.ws_base, table_id, token)
        pick = random.Random(table_id)
        try:
            while time.monotonic() < end:
                state = client.state
                if state and state["legal"]:
                    await client.act(pick.choice(state["legal"]), state["version"])
                elif not await heard(client):
                    break
        finally:
            await client.ws.close()

    tasks = [watch(t) for t in [*tables, *people]] + [play(t, k) for t, k in people.items()]
    await asyncio.gather(*tasks)
    return told


async def finish(srv: ServerProcess, people: dict[str, str], timeout: float = 120) -> None:
    """Play the person seats to the end after the restart."""

    async def play(table_id: str, token: str) -> None:
        client = await Client.connect(srv.ws_base, table_id, token)
        pick = random.Random(table_id + "after")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = client.state
            if state and state["view"] and state["view"]["over"]:
                break
            if state and state["legal"]:
                await client.act(pick.choice(state["legal"]), state["version"])
            else:
                await client.recv(timeout=30)
        await client.close()

    await asyncio.gather(*(play(t, tok) for t, tok in people.items()))


def wait_all_over(srv: ServerProcess, tables: list[str], timeout: float = 180) -> None:
    pending = set(tables)

    def all_over() -> bool:
        for table_id in list(pending):
            if api(srv.base).get(f"/api/tables/{table_id}").json()["table"]["status"] == "over":
                pending.discard(table_id)
        return not pending

    try:
        eventually(all_over, timeout, interval=0.2, what="the end of every match")
    except AssertionError:
        raise AssertionError(f"tables did not finish: {pending}") from None


def run_kill_and_restart(db_url: str, workdir: Path, servers: list[ServerProcess]) -> None:
    first = ServerProcess(workdir, db_url, env=SLOW_BOTS).start()
    servers.append(first)
    bot_tables, people = create_tables(first)
    told = asyncio.run(follow(first, bot_tables, people, seconds=0.5))
    first.kill()
    everything = [*bot_tables, *people]

    second = ServerProcess(workdir, db_url, env=FAST_BOTS).start()
    servers.append(second)
    # nothing anyone was told of is lost: the stored match starts with exactly what was shown
    unfinished = 0
    for table_id in everything:
        record = api(second.base).get(f"/api/tables/{table_id}/record").json()
        seen = [(e["seat"], e["action"], e["by"]) for e in told.get(table_id, [])[1:]]
        stored = [(a["seat"], a["action"], a["by"]) for a in record["actions"]]
        assert stored[: len(seen)] == seen, f"table {table_id} lost or changed accepted actions"
        unfinished += record["outcome"] is None
    assert unfinished > 0, "the kill should come in the middle of matches"

    asyncio.run(finish(second, people))
    wait_all_over(second, everything)
    for table_id in everything:
        record = api(second.base).get(f"/api/tables/{table_id}/record").json()
        verdict = verify(record, get)
        assert verdict.ok, (table_id, verdict.problems)
        seen = [(e["seat"], e["action"], e["by"]) for e in told.get(table_id, [])[1:]]
        assert [(a["seat"], a["action"], a["by"]) for a in record["actions"]][: len(seen)] == seen
    # SIGTERM: a graceful shutdown (uvicorn re-raises the signal once it has shut down)
    assert second.terminate() in {0, -signal.SIGTERM}
    assert "server_stopped" in second.log_text()


@pytest.mark.slow
@pytest.mark.solo
def test_sigkill_mid_match_loses_nothing_on_sqlite(
    tmp_path: Path, process_servers: list[ServerProcess]
) -> None:
    run_kill_and_restart(f"sqlite:///{tmp_path / 'kill.sqlite3'}", tmp_path, process_servers)


@pytest.mark.slow
@pytest.mark.solo
@pytest.mark.postgres
def test_sigkill_mid_match_loses_nothing_on_postgresql(
    tmp_path: Path, postgres_url: str, process_servers: list[ServerProcess]
) -> None:
    run_kill_and_restart(postgres_url, tmp_path, process_servers)
