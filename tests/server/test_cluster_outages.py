"""A cluster under skew and outages keeps its promises: a paused Redis does not hang a process and
its tables are driven again within a round of Redis's return; processes that disagree about the
Redis prefix, and a process whose clock is off, say so in ``/healthz`` and the log."""

from __future__ import annotations

import asyncio
import secrets
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from kit.client import Client, two_people_table
from kit.env import seconds
from kit.servers import ServerProcess, api, skewed_env, start_together

pytestmark = [pytest.mark.slow, pytest.mark.solo]

LEASE_SECONDS = 1.5


def version_of(base: str, table_id: str) -> int:
    version: int = httpx.get(f"{base}/api/tables/{table_id}", timeout=seconds(10)).json()["table"][
        "version"
    ]
    return version


def timed_health(base: str) -> tuple[float, dict[str, object]]:
    began = time.monotonic()
    answer = httpx.get(f"{base}/healthz", timeout=seconds(30)).json()
    return time.monotonic() - began, answer


def test_a_paused_redis_hangs_nothing_and_tables_move_a_round_after_it_returns(
    postgres_url: str,
    private_redis: tuple[str, subprocess.Popen[bytes]],
    tmp_path: Path,
    process_servers: list[ServerProcess],
) -> None:
    """Neither Redis client had a timeout: during a pause every lease round and health check
    hung, and after a 12 s pause tables played by the server alone stayed idle 16 s more. Now a
    health check answers within a second (degraded), and the table moves again within the lease
    and a round of Redis's return."""
    url, redis_server = private_redis
    env = {
        "LUDOTECA_REDIS": url,
        "LUDOTECA_LEASE_SECONDS": str(LEASE_SECONDS),
        "LUDOTECA_AWAY_GRACE": "0.2",
        "LUDOTECA_BOT_DELAY": "0.05",
    }
    first, _ = start_together(process_servers, tmp_path, postgres_url, [env] * 2)
    # nobody ever connects: the seat's clock runs out, then the table plays for it and the bot
    made = api(first.base).post(
        "/api/play-now", json={"game": "heroes", "name": "Ana", "turn_seconds": 1}
    )
    assert made.status_code == 201, made.text
    table_id = made.json()["table"]["id"]
    deadline = time.monotonic() + seconds(20)
    while version_of(first.base, table_id) < 3:
        assert time.monotonic() < deadline, "the table never moved on its own"
        time.sleep(0.2)

    redis_server.send_signal(signal.SIGSTOP)
    try:
        time.sleep(LEASE_SECONDS + 1)
        for srv in process_servers:
            took, health = timed_health(srv.base)
            assert took < 1.5, f"a health check took {took:.1f} s while Redis was paused"
            assert health["status"] == "degraded", health
        time.sleep(4)
        paused_at = max(version_of(srv.base, table_id) for srv in process_servers)
    finally:
        redis_server.send_signal(signal.SIGCONT)
    back = time.monotonic()
    while max(version_of(srv.base, table_id) for srv in process_servers) <= paused_at:
        waited = time.monotonic() - back
        # a lease round, then the bot's move: 3.5 s of slack on an idle machine (each process's
        # loop also runs the pairing pool's half-second round and the presence feed's), stretched
        # where CPU-bound work beside the suite delays every process
        limit = LEASE_SECONDS + seconds(3.5)
        assert waited < limit, f"the table still waits {waited:.1f} s after Redis"
        time.sleep(0.1)


def test_processes_that_disagree_about_the_redis_prefix_say_so(
    postgres_url: str, redis_url: str, tmp_path: Path, process_servers: list[ServerProcess]
) -> None:
    """Two processes on one database with different prefixes used to drive the same tables, each
    /healthz saying ok; now both say degraded and why, and log it."""
    envs = [
        {"LUDOTECA_REDIS": redis_url, "LUDOTECA_REDIS_PREFIX": f"t-{secrets.token_hex(4)}"}
        for _ in range(2)
    ]
    start_together(process_servers, tmp_path, postgres_url, envs)
    deadline = time.monotonic() + seconds(15)
    for srv in process_servers:
        while True:
            health = api(srv.base).get("/healthz").json()
            if health["status"] == "degraded":
                break
            assert time.monotonic() < deadline, f"{srv.base} still says {health}"
            time.sleep(0.2)
        assert "other Redis prefixes" in " ".join(health["problems"])
        assert '"deployment_disagrees"' in srv.log_text()


def test_turn_deadlines_follow_one_clock_when_a_process_is_skewed(
    postgres_url: str, redis_url: str, tmp_path: Path, process_servers: list[ServerProcess]
) -> None:
    """A process 20 s fast drove a turn clock on its own time: a person watching through another
    process was shown 24 s left, and the turn timed out after 4. Now every process takes "now"
    from the database's clock: the timeout comes at the deadline shown, everywhere."""
    shared = {"LUDOTECA_REDIS": redis_url, "LUDOTECA_REDIS_PREFIX": f"t-{secrets.token_hex(4)}"}
    fast = ServerProcess(tmp_path, postgres_url, env={**shared, **skewed_env(tmp_path, 20)})
    process_servers.append(fast.start())
    honest = ServerProcess(tmp_path, postgres_url, env=shared).start()
    process_servers.append(honest)
    # started at the fast process, which drives it: a person is seated there, and another here
    table_id, tokens = two_people_table(fast.base, turn_seconds=4)

    async def scenario() -> tuple[float, float, float]:
        there = await Client.connect(fast.ws_base, table_id, tokens[0])
        here = await Client.connect(honest.ws_base, table_id, tokens[1])
        first = await here.until(lambda m: m["type"] == "state" and m["clock"] is not None)
        shown_at = time.monotonic()
        timed_out = await here.until(
            lambda m: m["type"] == "state" and any(e["by"] == "table" for e in m["log"]), 30
        )
        arrived = time.monotonic()
        assert timed_out["version"] == first["version"] + 1
        await there.close()
        await here.close()
        return shown_at, float(first["clock"]["remaining"]), arrived

    shown_at, remaining, arrived = asyncio.run(scenario())
    assert remaining <= 4.0, f"shown {remaining:.1f} s left of a 4 s turn"
    early = shown_at + remaining - arrived
    assert early < 0.5, f"the turn timed out {early:.1f} s before the deadline shown"
    assert arrived - shown_at < remaining + 2.0


def test_a_process_whose_clock_is_off_says_so(
    postgres_url: str, tmp_path: Path, process_servers: list[ServerProcess]
) -> None:
    """A process 20 s fast gave no sign of it; now /healthz shows the skew (degraded) and the
    log says it once."""
    srv = ServerProcess(tmp_path, postgres_url, env=skewed_env(tmp_path, 20)).start()
    process_servers.append(srv)
    health = api(srv.base).get("/healthz").json()
    assert health["clock_skew"] is not None and 19 < float(health["clock_skew"]) < 21, health
    assert health["status"] == "degraded"
    assert "clock is +20" in " ".join(health["problems"])
    assert srv.log_text().count('"clock_skew"') == 1
