"""Turn-based deadlines with two ``ludoteca serve`` processes on one PostgreSQL and one Redis:
every deadline is fired once, never early, by whichever process holds the duty, also when the
holder is SIGKILLed (docs/turn-based.md)."""

from __future__ import annotations

import itertools
import secrets
import time
from pathlib import Path

import psycopg
import pytest

from kit.servers import ServerProcess, api, health, start_together
from kit.wait import eventually

pytestmark = [pytest.mark.slow, pytest.mark.solo]

TURN = 2  # seconds per move: the settings let the test go below an hour
TABLES = 6
LEASE = 3.0
DUTY = 1.5


def steps_of(url: str, table_ids: list[str]) -> dict[str, list[tuple[int, str, float]]]:
    """Each table's stored steps: (seat, by, at), in order."""
    found: dict[str, list[tuple[int, str, float]]] = {t: [] for t in table_ids}
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT table_id, seat, by, at FROM actions WHERE table_id = ANY(%s) ORDER BY seq",
            (table_ids,),
        ).fetchall()
    for table_id, seat, by, at in rows:
        found[table_id].append((seat, by, at))
    return found


def turns(steps: list[tuple[int, str, float]]) -> list[tuple[float, float]]:
    """Each turn the table played: (when its first step was stored, when its last was)."""
    found: list[tuple[float, float]] = []
    for n, (seat, _, at) in enumerate(steps):
        if n == 0 or steps[n - 1][0] != seat:
            found.append((at, at))
        else:
            found[-1] = (found[-1][0], at)
    return found


def test_deadlines_fire_once_across_processes_and_a_kill(
    postgres_url: str,
    redis_url: str,
    tmp_path: Path,
    process_servers: list[ServerProcess],
) -> None:
    env = {
        "LUDOTECA_REDIS": redis_url,
        "LUDOTECA_REDIS_PREFIX": f"ludoteca-test-{secrets.token_hex(4)}",
        "LUDOTECA_LEASE_SECONDS": str(LEASE),
        "LUDOTECA_DUTY_SECONDS": str(DUTY),
        "LUDOTECA_MIN_TURN_BASED_SECONDS": "1",
        "LUDOTECA_TAKEOVER_AFTER": "1000",  # the seats stay people's: every turn times out
        "LUDOTECA_CONTRIBUTION_SECONDS": "0.5",
        "LUDOTECA_LIMIT_CREATE": "10000/minute",
        "LUDOTECA_LIMIT_JOIN": "10000/minute",
    }
    a, b = start_together(process_servers, tmp_path, postgres_url, [env] * 2)
    table_ids = []
    for _ in range(TABLES):
        made = api(a.base).post(
            "/api/tables",
            json={
                "game": "heroes",
                "seats": [{"bot": False}, {"bot": False}],
                "pace": "turn-based",
                "turn_seconds": TURN,
                "name": "Ana",
            },
        )
        assert made.status_code == 201, made.text
        table_ids.append(made.json()["table"]["id"])
        assert made.json()["table"]["pace"] == "turn-based"
        joined = api(b.base).post(f"/api/tables/{table_ids[-1]}/join", json={"name": "Bruno"})
        assert joined.status_code == 200, joined.text

    def every_table_timed_out(count: int) -> bool:
        found = steps_of(postgres_url, table_ids)
        return all(len(turns(s)) >= count for s in found.values())

    eventually(lambda: every_table_timed_out(2), 30, what="two timeouts at every table")
    holder = a if health(a.base)["deadline_duty"] else b
    survivor = b if holder is a else a
    assert not health(survivor.base)["deadline_duty"]
    holder.kill()
    killed_at = time.time()
    eventually(lambda: health(survivor.base)["deadline_duty"], DUTY + 3, what="the duty taken over")
    after = {t: len(turns(s)) for t, s in steps_of(postgres_url, table_ids).items()}
    eventually(
        lambda: all(
            len(turns(s)) >= after[t] + 3 for t, s in steps_of(postgres_url, table_ids).items()
        ),
        40,
        what="three more timeouts at every table, fired by the survivor",
    )
    for table_id, stored in steps_of(postgres_url, table_ids).items():
        assert all(by == "table" for _, by, _ in stored), (table_id, stored)
        played = turns(stored)
        for (_, previous_end), (start, _) in itertools.pairwise(played):
            late = start - (previous_end + TURN)
            # never early (a deadline fired twice would play the next turn at once) ...
            assert late >= -0.05, (table_id, played)
            # ... and on time: within 2 s, or the duty's and the lease's takeover at the kill
            near_kill = previous_end + TURN <= killed_at + 0.5 and start >= killed_at - 0.5
            assert late <= (DUTY + LEASE + 2.0 if near_kill else 2.0), (table_id, played)
    # the survivor kept every table going: it read sleeping ones for their deadline (its duty)
    # or, having taken over those the holder drove, drives them and their timers fire there (on
    # a slow machine a table fired every 2 s may not find the second it needs to doze between)
    seen = health(survivor.base)
    assert seen["deadlines_fired"] > 0 or seen["driving"] > 0, seen
