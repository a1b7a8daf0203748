"""A table's prelude in the SQL store: every event from its creation to the deal, one row each
(``docs/fairness.md#the-prelude``). ``SqlStorage`` takes these methods from ``SqlPrelude``. An
event is stored at its place (``seq`` from 0): two writers adding the same place is a conflict,
and the second reads the prelude again."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import insert, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from .rows import ConflictError
from .schema import prelude

P = ParamSpec("P")
T = TypeVar("T")


def prelude_of(conn: Connection, table_id: str) -> list[dict[str, Any]]:
    """The table's prelude, in order."""
    rows = conn.execute(
        select(prelude.c.event).where(prelude.c.table_id == table_id).order_by(prelude.c.seq)
    )
    return [json.loads(r.event) for r in rows]


class SqlPrelude:
    """The prelude of ``Storage``, for a store with an ``engine`` and a blocking ``_run``."""

    engine: Engine

    async def _run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        raise NotImplementedError

    async def add_event(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        await self._run(self._add_event, table_id, seq, event)

    def _add_event(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(prelude).values(table_id=table_id, seq=seq, event=json.dumps(event))
                )
        except IntegrityError:
            raise ConflictError(f"table {table_id} already has prelude event {seq}") from None

    async def load_prelude(self, table_id: str) -> list[dict[str, Any]]:
        return await self._run(self._load_prelude, table_id)

    def _load_prelude(self, table_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            return prelude_of(conn, table_id)
