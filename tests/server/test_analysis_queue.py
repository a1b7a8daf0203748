"""The analyses on the server (docs/analysis.md): the queue in every store (a job claimed once,
again once its worker died, given up after three deaths), claims from two processes, and a live
server that queues a finished match, answers 202 while it searches, then 200 with the analysis
that ``ludoteca analyse`` gives for the same record."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import replace
from pathlib import Path

import pytest

from kit.client import person_against_bot
from kit.servers import ServerProcess, ThreadServer, api, server_settings
from kit.wait import eventually
from ludoteca.bots.analysis import analyse
from ludoteca.core import Match, MatchRecord, Player
from ludoteca.games import get
from ludoteca.server.api.analysis import with_events
from ludoteca.server.config import Settings
from ludoteca.server.storage import Storage, open_storage


def test_a_job_is_claimed_once_and_again_only_after_its_worker_died(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        assert await store.load_analysis("t1") is None
        assert await store.queue_analysis("t1", 10.0)
        assert not await store.queue_analysis("t1", 11.0), "queued once"
        assert await store.queue_analysis("t2", 12.0)
        first = await store.claim_analysis(20.0, 0.0, 3)
        assert first is not None and (first.table_id, first.status, first.attempts) == (
            "t1",
            "running",
            1,
        )
        second = await store.claim_analysis(21.0, 0.0, 3)
        assert second is not None and second.table_id == "t2", "the oldest waiting first"
        assert await store.claim_analysis(22.0, 0.0, 3) is None, "each job to one worker"
        # t1's worker died: once its claim is older than the stale limit, it is taken again
        assert await store.claim_analysis(30.0, 20.0, 3) is None
        again = await store.claim_analysis(31.0, 20.5, 3)
        assert again is not None and (again.table_id, again.attempts) == ("t1", 2)
        await store.finish_analysis("t2", '{"decisions": []}', False, 40.0)
        done = await store.load_analysis("t2")
        assert done is not None and (done.status, done.result) == ("done", '{"decisions": []}')
        assert not await store.queue_analysis("t2", 41.0), "an analysed match stays analysed"
        assert await store.claim_analysis(100.0, 99.0, 3) is not None  # t1, third attempt
        assert await store.claim_analysis(200.0, 199.0, 3) is None, "three deaths: given up"
        gave_up = await store.load_analysis("t1")
        assert gave_up is not None and gave_up.status == "failed"
        assert gave_up.result == "its worker stopped 3 times"

    async def run() -> None:
        store = open_storage(store_url)
        try:
            await scenario(store)
        finally:
            await store.close()

    asyncio.run(run())


def test_two_processes_claiming_at_once_take_each_job_once(tmp_path: Path) -> None:
    store_url = f"sqlite:///{tmp_path / 'store.sqlite3'}"

    async def run() -> None:
        one, two = open_storage(store_url), open_storage(store_url)
        try:
            for n in range(6):
                await one.queue_analysis(f"t{n}", float(n))
            claims = await asyncio.gather(
                *(store.claim_analysis(50.0, 0.0, 3) for _ in range(5) for store in (one, two))
            )
            taken = [job.table_id for job in claims if job is not None]
            assert sorted(taken) == [f"t{n}" for n in range(6)]
        finally:
            await one.close()
            await two.close()

    asyncio.run(run())


@pytest.mark.slow
def test_a_finished_match_is_analysed_by_the_server_as_by_the_command(sqlite_url: str) -> None:
    settings = server_settings(
        sqlite_url, analysis_iterations=15, analysis_poll_seconds=0.2, bot_delay=0.0
    )
    server = ThreadServer(settings).start()
    try:
        http = api(server.base)
        assert http.get("/api/tables/nothing-here/analysis").status_code == 404
        table_id = asyncio.run(person_against_bot(server.base, server.ws_base))
        first = http.get(f"/api/tables/{table_id}/analysis")
        assert first.status_code in (200, 202), first.text
        if first.status_code == 202:
            assert first.json()["status"] in ("queued", "running")
        eventually(
            lambda: http.get(f"/api/tables/{table_id}/analysis").status_code == 200,
            120,
            interval=0.2,
            what="the analysis of the finished match",
        )
        body = http.get(f"/api/tables/{table_id}/analysis").json()
        assert body.pop("status") == "done"
        record = MatchRecord.from_json(http.get(f"/api/tables/{table_id}/record").json())
        made = analyse(get(record.game), record, iterations=15)
        assert body == json.loads(json.dumps(with_events(record, made)))
        persons = [n for n, s in enumerate(record.actions, 1) if s.by == "player"]
        assert persons and [d["version"] for d in body["decisions"]] == persons
        # each better move comes with what it would have done, for the page to word it
        decisions = body["decisions"]
        better = [d for d in decisions if d["best"] and d["best"]["action"] != d["taken"]["action"]]
        assert all(d["best"]["events"] for d in better)
        assert all("events" not in d["taken"] for d in body["decisions"])
    finally:
        server.stop()


@pytest.mark.slow  # a whole match against a bot over a real server
def test_a_server_that_analyses_nothing_says_so(sqlite_url: str) -> None:
    server = ThreadServer(server_settings(sqlite_url, analysis_workers=0, bot_delay=0.0)).start()
    try:
        table_id = asyncio.run(person_against_bot(server.base, server.ws_base))
        answer = api(server.base).get(f"/api/tables/{table_id}/analysis")
        assert answer.status_code == 404
        assert answer.json()["message"] == "this server does not analyse matches"
    finally:
        server.stop()


@pytest.mark.slow
def test_a_server_stops_without_waiting_and_the_next_one_finishes_the_job(
    sqlite_url: str,
) -> None:
    """A server stopping mid-search abandons it at once; its job, still ``running`` in the
    database, is claimed again by another process once stale, and finished there."""
    slow = server_settings(
        sqlite_url, analysis_iterations=10**7, analysis_poll_seconds=0.2, bot_delay=0.0
    )
    server = ThreadServer(slow).start()
    try:
        table_id = asyncio.run(person_against_bot(server.base, server.ws_base))
        eventually(
            lambda: (
                api(server.base).get(f"/api/tables/{table_id}/analysis").json()["status"]
                == "running"
            ),
            30,
            interval=0.1,
            what="the analysis under way",
        )
    finally:
        started = time.monotonic()
        server.stop()
    assert time.monotonic() - started < 10, "the server waited for the analysis"
    quick = server_settings(
        sqlite_url,
        analysis_iterations=10,
        analysis_poll_seconds=0.2,
        analysis_stale_seconds=1.0,
    )
    server = ThreadServer(quick).start()
    try:
        eventually(
            lambda: api(server.base).get(f"/api/tables/{table_id}/analysis").status_code == 200,
            60,
            interval=0.2,
            what="the abandoned analysis, finished by the next server",
        )
        body = api(server.base).get(f"/api/tables/{table_id}/analysis").json()
        assert body["status"] == "done" and body["iterations"] == 10
    finally:
        server.stop()


def test_the_analysis_settings_come_from_the_environment_and_are_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LUDOTECA_ANALYSIS_WORKERS", "0")
    monkeypatch.setenv("LUDOTECA_ANALYSIS_ITERATIONS", "250")
    settings = Settings.from_env()
    assert (settings.analysis_workers, settings.analysis_iterations) == (0, 250)
    assert settings.problems() == []
    wrong = replace(settings, analysis_workers=-1, analysis_iterations=0)
    assert wrong.problems() == [
        "LUDOTECA_ANALYSIS_WORKERS must be at least 0, not -1",
        "LUDOTECA_ANALYSIS_ITERATIONS must be at least 1, not 0",
    ]


def workers(pid: int) -> set[int]:
    """The worker processes ``pid`` started (Linux: read from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and b"spawn_main" in (stat.parent / "cmdline").read_bytes():
                found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    with contextlib.suppress(OSError):
        return "\nState:\tZ" not in status.read_text()
    return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_server_killed_outright_leaves_no_search_behind(tmp_path: Path) -> None:
    server = ServerProcess(
        tmp_path, env={"LUDOTECA_ANALYSIS_ITERATIONS": "10000000", "LUDOTECA_ANALYSIS_POLL": "0.2"}
    ).start()
    try:
        table_id = asyncio.run(person_against_bot(server.base, server.ws_base))
        eventually(
            lambda: server.get(f"/api/tables/{table_id}/analysis")["status"] == "running",
            30,
            interval=0.1,
            what="the analysis under way",
        )
        assert server.process is not None
        pid = server.process.pid
        eventually(lambda: workers(pid), 30, interval=0.1, what="the searching process")
        started = workers(pid)
        server.kill()
        eventually(
            lambda: not any(alive(pid) for pid in started),
            10,
            interval=0.1,
            what="the server's searching processes ending with it",
        )
    finally:
        server.stop()


def test_a_better_move_is_served_with_the_events_it_would_have_made() -> None:
    """``best.events`` are the events of the better action from the position before the step,
    as the deciding seat sees them (what Match.prepare gives there); the stored analysis is not
    changed, and an action that does not read is left as its code."""
    game = get("heroes")
    match = Match(game, {"players": 2}, "events-3", [Player("Ana"), Player("Bot", True, "random")])
    rng = random.Random(3)
    while (seat := match.to_move) is not None:
        action = rng.choice(game.legal_actions(match.state))
        match.act(seat, game.action_to_text(match.state, action), "player" if seat == 0 else "bot")
    record = match.record()
    body = analyse(game, record, iterations=8)
    taken = next(d for d in body["decisions"] if not d["forced"])
    other = next(
        a for a in (c["action"] for c in taken["candidates"]) if a != taken["taken"]["action"]
    )
    taken["best"] = {"action": other, "chance": 1.0}
    bad = next(d for d in body["decisions"] if d is not taken and not d["forced"])
    bad["best"] = {"action": "no such action", "chance": 1.0}
    served = with_events(record, body)
    assert "events" not in taken["best"], "the analysis given in is left as it was"
    [mine] = [d for d in served["decisions"] if d["version"] == taken["version"]]
    match = Match(game, record.params, record.deal(), record.players)
    for step in record.actions[: taken["version"] - 1]:
        match.act(step.seat, step.action, step.by)
    expected = [e.for_seat(taken["seat"]) for e in match.prepare(taken["seat"], other).events]
    assert mine["best"]["events"] == expected and expected
    [kept] = [d for d in served["decisions"] if d["version"] == bad["version"]]
    assert "events" not in kept["best"]
