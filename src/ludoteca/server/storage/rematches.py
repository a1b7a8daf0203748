"""Rematch offers in the SQL store (``docs/protocol.md#rematch``), kept apart from the tables'
statements: ``SqlStorage`` takes these methods from ``SqlRematches``. Every write after the
first is fenced by the row's ``version``: of two processes answering the same offer at once,
one stores its answer and the other reads the row again."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import and_, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from .rows import RematchRow
from .schema import rematches

P = ParamSpec("P")
T = TypeVar("T")


def _row(r: Any) -> RematchRow:
    return RematchRow(
        r.table_id,
        r.new_table,
        r.state,
        r.offered_by,
        r.offered_at,
        r.expires_at,
        json.loads(r.answers),
        json.loads(r.hashes),
        bool(r.rated),
        r.reason,
        r.version,
    )


def _values(row: RematchRow) -> dict[str, Any]:
    return {
        "new_table": row.new_table,
        "state": row.state,
        "offered_by": row.offered_by,
        "offered_at": row.offered_at,
        "expires_at": row.expires_at,
        "answers": json.dumps(row.answers),
        "hashes": json.dumps(row.hashes),
        "rated": row.rated,
        "reason": row.reason,
    }


class SqlRematches:
    """The rematch offers of ``Storage``, for a store with an ``engine`` and a blocking ``_run``."""

    engine: Engine

    async def _run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        raise NotImplementedError

    async def offer_rematch(self, row: RematchRow) -> bool:
        return await self._run(self._offer_rematch, row)

    def _offer_rematch(self, row: RematchRow) -> bool:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(rematches).values(table_id=row.table_id, version=0, **_values(row))
                )
        except IntegrityError:
            return False
        return True

    async def update_rematch(self, row: RematchRow, version: int) -> bool:
        return await self._run(self._update_rematch, row, version)

    def _update_rematch(self, row: RematchRow, version: int) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                update(rematches)
                .where(and_(rematches.c.table_id == row.table_id, rematches.c.version == version))
                .values(version=version + 1, **_values(row))
            )
        return done.rowcount == 1

    async def load_rematch(self, table_id: str) -> RematchRow | None:
        return await self._run(self._load_rematch, table_id)

    def _load_rematch(self, table_id: str) -> RematchRow | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(rematches).where(rematches.c.table_id == table_id)).first()
        return None if found is None else _row(found)
