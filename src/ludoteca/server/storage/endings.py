"""A match ended other than by the rules, in the SQL store (``docs/protocol.md#aborting``, the
operator's end, a resign at 2 seats): the table's row becomes ``over`` with the ending's outcome
(no result, or the other seat's win for a resign), fenced by its version, and an abort is kept
(who, when) for the daily limit, in one transaction.
``SqlStorage`` takes these methods from ``SqlEndings``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Engine

from .rows import ConflictError, to_json
from .schema import aborts, tables

P = ParamSpec("P")
T = TypeVar("T")


class SqlEndings:
    """The endings of ``Storage``, for a store with an ``engine`` and a blocking ``_run``."""

    engine: Engine

    async def _run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        raise NotImplementedError

    async def end_table(
        self,
        table_id: str,
        version: int,
        outcome: dict[str, Any],
        abort: tuple[str, float] | None = None,
    ) -> None:
        await self._run(self._end_table, table_id, version, outcome, abort)

    def _end_table(
        self,
        table_id: str,
        version: int,
        outcome: dict[str, Any],
        abort: tuple[str, float] | None,
    ) -> None:
        with self.engine.begin() as conn:
            ended = conn.execute(
                update(tables)
                .where(
                    and_(
                        tables.c.id == table_id,
                        tables.c.status == "playing",
                        tables.c.version == version,
                    )
                )
                .values(status="over", outcome=to_json(outcome), due_at=None)
            )
            if ended.rowcount != 1:
                raise ConflictError(f"table {table_id} is not playing at version {version}")
            if abort is not None:
                who, at = abort
                conn.execute(insert(aborts).values(table_id=table_id, who=who, at=at))

    async def count_aborts(self, who: str, since: float) -> int:
        return await self._run(self._count_aborts, who, since)

    def _count_aborts(self, who: str, since: float) -> int:
        query = select(func.count()).where(and_(aborts.c.who == who, aborts.c.at >= since))
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())
