"""The analysis of finished matches on the server (``docs/analysis.md``): queued in the database
when a match ends, worked off by a bounded pool of worker processes, cached by table.

A table that reaches its end only queues its analysis (``match_over``: one insert, off the
table's path), so a live table never waits for it. Every process runs ``run``: it claims jobs
from the database (one UPDATE decides who gets a job; a job whose worker died is claimed again
once it is ``stale_seconds`` old) while fewer than ``analysis_workers`` of its own are searching,
and hands each to its process pool. The searching processes run at a lower CPU priority than the
server's, so they take the time live tables leave, and end with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import multiprocessing
import os
import signal
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from ludoteca.bots.analysis import analyse_json
from ludoteca.core import MatchRecord
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, Status
from ludoteca.server.storage import DONE, FAILED, AnalysisRow, Storage

MAX_ATTEMPTS = 3
"""Workers that may die on one job before it is given up (``failed``)."""

NICE = 10
"""How much lower the searching processes' CPU priority is than the server's."""


class MatchOverHook(Protocol):
    """Told when a match ends, in the process that stored its last step; must not block (it
    queues its work) and must not raise."""

    def match_over(self, table_id: str) -> None: ...


class NoAnalysis:
    """Nobody analyses matches (``analysis_workers`` 0, and tests of the table alone)."""

    def match_over(self, table_id: str) -> None:
        return None


PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process gets when the one that started it dies."""


def _prepare_worker(server: int) -> None:
    """Runs in each fresh worker process: yield the CPU to the server's own processes, and (on
    Linux) end with the server process ``server``, even one killed outright, rather than search
    on for nobody (and at once if it died while this one started)."""
    with contextlib.suppress(OSError):
        os.nice(NICE)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != server:
        os._exit(0)


def _analyse(record: dict[str, Any], iterations: int) -> str:
    """Runs in a worker process: the analysis of a finished record, as JSON text."""
    return json.dumps(analyse_json(record, iterations), separators=(",", ":"))


class Analyst:
    """The analyses of one server process: queues finished matches, works off the queue with at
    most ``workers`` searches at a time, and answers what the API asks."""

    def __init__(
        self,
        storage: Storage,
        record: Callable[[str], Awaitable[MatchRecord]],
        *,
        workers: int,
        iterations: int,
        poll_seconds: float,
        stale_seconds: float,
        now: Callable[[], float],
    ) -> None:
        self.storage = storage
        self.record = record
        self.workers = workers
        self.iterations = iterations
        self.poll_seconds = poll_seconds
        self.stale_seconds = stale_seconds
        self.now = now
        self._pool: ProcessPoolExecutor | None = None
        self._wake = asyncio.Event()
        self._busy = 0
        self._tasks: set[asyncio.Task[None]] = set()

    # --------------------------------------------------------------------------- queueing
    def match_over(self, table_id: str) -> None:
        """Queue the match's analysis in the background (the table does not wait)."""
        if self.workers > 0:
            self._spawn(self.queue(table_id))

    async def queue(self, table_id: str) -> None:
        try:
            if await self.storage.queue_analysis(table_id, self.now()):
                log("analysis_queued", table=table_id)
        except Exception as exc:  # the database is away: asking for the analysis queues it again
            log("analysis_not_queued", table=table_id, error=repr(exc))
        self._wake.set()

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --------------------------------------------------------------------------- answering
    async def answer(self, table_id: str) -> tuple[int, dict[str, Any]]:
        """The API's answer: 200 and the analysis, 202 while it is queued or searched, or
        Rejected (404: no such table, not over, or this server analyses nothing). A finished match
        not queued yet (it ended before analyses existed, or its queueing was lost) is queued."""
        job = await self.storage.load_analysis(table_id)
        if job is None:
            found = await self.storage.load_table(table_id)
            if found is None:
                raise Rejected(ErrorCode.NO_TABLE, f"there is no table '{table_id[:40]}'")
            if found.status != Status.OVER:
                raise Rejected(ErrorCode.NOT_FOUND, "the match is not over: it is analysed then")
            if self.workers == 0:
                raise Rejected(ErrorCode.NOT_FOUND, "this server does not analyse matches")
            await self.queue(table_id)
            job = await self.storage.load_analysis(table_id)
            assert job is not None
        return status_of(job)

    # ----------------------------------------------------------------------------- working
    async def run(self) -> None:
        """Claim and work off jobs for as long as the server runs (nothing when workers is 0)."""
        if self.workers <= 0:
            return
        while True:
            self._wake.clear()  # before claiming: a job queued meanwhile wakes the wait below
            claimed = False
            while self._busy < self.workers:
                try:
                    job = await self.storage.claim_analysis(
                        self.now(), self.now() - self.stale_seconds, MAX_ATTEMPTS
                    )
                except Exception as exc:
                    log("analysis_claim_failed", error=repr(exc))
                    break
                if job is None:
                    break
                claimed = True
                self._busy += 1
                self._spawn(self._work(job))
            if not claimed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.poll_seconds)

    async def _work(self, job: AnalysisRow) -> None:
        table_id = job.table_id
        try:
            record = await self.record(table_id)
            loop = asyncio.get_running_loop()
            started = self.now()
            result = await loop.run_in_executor(
                self._process_pool(), _analyse, record.to_json(), self.iterations
            )
            await self.storage.finish_analysis(table_id, result, False, self.now())
            log("analysis_done", table=table_id, seconds=round(self.now() - started, 1))
        except BrokenProcessPool:
            self._pool = None  # a worker died: a new pool, and the job waits to be claimed again
            log("analysis_worker_died", table=table_id, attempt=job.attempts)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a record that cannot be analysed: say so, once
            log("analysis_failed", table=table_id, error=repr(exc))
            with contextlib.suppress(Exception):
                await self.storage.finish_analysis(table_id, str(exc)[:500], True, self.now())
        finally:
            self._busy -= 1
            self._wake.set()

    def _process_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_prepare_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    def close(self) -> None:
        """Stop at once: a search under way is abandoned (its job is claimed again once stale),
        so a server that stops never waits for an analysis."""
        for task in list(self._tasks):
            task.cancel()
        if self._pool is not None:
            workers = list(getattr(self._pool, "_processes", {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for process in workers:
                process.terminate()


def status_of(job: AnalysisRow) -> tuple[int, dict[str, Any]]:
    """A job as the API gives it: 200 with the analysis once done, else 202 with its state (a
    failed job says why)."""
    if job.status == DONE and job.result is not None:
        analysis: dict[str, Any] = json.loads(job.result)
        return 200, {"status": DONE} | analysis
    body: dict[str, Any] = {"status": job.status, "queued_at": job.queued_at}
    if job.status == FAILED:
        body["message"] = job.result or ""
        return 200, body
    return 202, body
