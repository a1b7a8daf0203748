"""The SQL store's deadlines: which turn-based tables are due (by the indexed ``due_at``), and a
table's due time written again when the table finds it was early (``docs/turn-based.md``); and
a person's seat a bot takes over when they resign (as it does after timeouts in a row)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import and_, exists, select, update
from sqlalchemy.engine import Engine

from .rows import ConflictError, check_positive
from .schema import seats, tables
from .statements import SET_DUE

P = ParamSpec("P")
T = TypeVar("T")


class SqlDeadlines:
    """What ``SqlStorage`` does for the deadlines loop."""

    engine: Engine

    async def _run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        raise NotImplementedError  # SqlStorage's

    async def due_tables(self, now: float, limit: int = 200) -> list[tuple[str, int, float]]:
        """The playing tables due by ``now`` (id, version, due time), soonest first."""
        check_positive(limit)
        query = (
            select(tables.c.id, tables.c.version, tables.c.due_at)
            .where(and_(tables.c.due_at <= now, tables.c.status == "playing"))
            .order_by(tables.c.due_at)
            .limit(limit)
        )
        return await self._run(self._rows, query)

    def _rows(self, query: Any) -> list[tuple[str, int, float]]:
        with self.engine.connect() as conn:
            return [(r.id, r.version, r.due_at) for r in conn.execute(query)]

    async def set_due(self, table_id: str, version: int, due_at: float | None) -> bool:
        """The table's due time, if it is still at ``version`` (else nothing: False)."""
        return await self._run(self._set_due, table_id, version, due_at)

    def _set_due(self, table_id: str, version: int, due_at: float | None) -> bool:
        with self.engine.begin() as conn:
            moved = conn.execute(SET_DUE, {"tid": table_id, "at_version": version, "due": due_at})
            return moved.rowcount == 1

    async def take_over(self, table_id: str, seat: int, level: str, version: int) -> None:
        await self._run(self._take_over, table_id, seat, level, version)

    def _take_over(self, table_id: str, seat: int, level: str, version: int) -> None:
        """One statement, fenced by the table's version: a step stored meanwhile (here or at
        another process) leaves the seat as it was."""
        at_version = select(tables.c.id).where(
            and_(tables.c.id == table_id, tables.c.version == version, tables.c.status == "playing")
        )
        with self.engine.begin() as conn:
            changed = conn.execute(
                update(seats)
                .where(
                    and_(
                        seats.c.table_id == table_id,
                        seats.c.seat == seat,
                        seats.c.kind == "human",
                        exists(at_version),
                    )
                )
                .values(kind="bot", level=level, bot_from=version, away=False)
            )
        if changed.rowcount != 1:
            raise ConflictError(f"table {table_id}: seat {seat} was not taken over at {version}")


__all__ = ["SqlDeadlines"]
