"""The queue of match analyses in the SQL store (``docs/analysis.md``), kept apart from the
tables' statements: ``SqlStorage`` takes these methods from ``SqlAnalyses``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from .rows import DONE, FAILED, QUEUED, RUNNING, AnalysisRow
from .schema import analyses

P = ParamSpec("P")
T = TypeVar("T")

CLAIM_TRIES = 5
"""Jobs a claim tries before it gives up for now (each one lost to another process)."""


def _row(r: Any) -> AnalysisRow:
    return AnalysisRow(
        r.table_id, r.status, r.queued_at, r.claimed_at, r.attempts, r.result, r.done_at
    )


class SqlAnalyses:
    """The analysis jobs of ``Storage``, for a store with an ``engine`` and a blocking ``_run``."""

    engine: Engine

    async def _run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        raise NotImplementedError

    async def queue_analysis(self, table_id: str, at: float) -> bool:
        return await self._run(self._queue_analysis, table_id, at)

    def _queue_analysis(self, table_id: str, at: float) -> bool:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(analyses).values(
                        table_id=table_id, status=QUEUED, queued_at=at, attempts=0
                    )
                )
        except IntegrityError:
            return False
        return True

    async def claim_analysis(
        self, at: float, stale_before: float, max_attempts: int
    ) -> AnalysisRow | None:
        return await self._run(self._claim_analysis, at, stale_before, max_attempts)

    def _claim_analysis(
        self, at: float, stale_before: float, max_attempts: int
    ) -> AnalysisRow | None:
        claimable = or_(
            analyses.c.status == QUEUED,
            and_(analyses.c.status == RUNNING, analyses.c.claimed_at < stale_before),
        )
        with self.engine.begin() as conn:
            conn.execute(  # died too often: give up on it
                update(analyses)
                .where(and_(claimable, analyses.c.attempts >= max_attempts))
                .values(
                    status=FAILED,
                    done_at=at,
                    result="its worker stopped " + str(max_attempts) + " times",
                )
            )
        for _ in range(CLAIM_TRIES):
            with self.engine.begin() as conn:
                found = conn.execute(
                    select(analyses.c.table_id)
                    .where(claimable)
                    .order_by(analyses.c.queued_at, analyses.c.table_id)
                    .limit(1)
                ).first()
                if found is None:
                    return None
                taken = conn.execute(  # re-checked here: of several claimers, one wins
                    update(analyses)
                    .where(and_(analyses.c.table_id == found.table_id, claimable))
                    .values(status=RUNNING, claimed_at=at, attempts=analyses.c.attempts + 1)
                    .returning(*analyses.c)
                ).first()
                if taken is not None:
                    return _row(taken)
        return None

    async def finish_analysis(self, table_id: str, result: str, failed: bool, at: float) -> None:
        await self._run(self._finish_analysis, table_id, result, failed, at)

    def _finish_analysis(self, table_id: str, result: str, failed: bool, at: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(analyses)
                .where(analyses.c.table_id == table_id)
                .values(status=FAILED if failed else DONE, result=result, done_at=at)
            )

    async def load_analysis(self, table_id: str) -> AnalysisRow | None:
        return await self._run(self._load_analysis, table_id)

    def _load_analysis(self, table_id: str) -> AnalysisRow | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(analyses).where(analyses.c.table_id == table_id)).first()
        return None if found is None else _row(found)
