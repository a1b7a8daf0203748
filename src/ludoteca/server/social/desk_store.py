"""What the operator's desk keeps (revision 0015): reports, operators, sanctions and the audit
log of every operator action. Blocking methods, run on the account store's thread pool."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine

from ludoteca.server.storage.schema import accounts, audit_log, operators, reports, sanctions


@dataclass(frozen=True, slots=True)
class Report:
    id: int
    reporter: str  # the reporter's name
    kind: str  # account, table, message
    account: str | None  # the reported person's name
    table_id: str | None
    message_id: str | None
    reason: str
    note: str
    at: float
    closed_at: float | None
    closed_by: str | None

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "reporter": self.reporter,
            "kind": self.kind,
            "account": self.account,
            "table": self.table_id,
            "message": self.message_id,
            "reason": self.reason,
            "note": self.note,
            "at": self.at,
            "closed_at": self.closed_at,
            "closed_by": self.closed_by,
        }


class DeskStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------------ reports
    def add_report(self, values: dict[str, Any]) -> int:
        with self.engine.begin() as conn:
            done = conn.execute(insert(reports).values(**values))
            key = done.inserted_primary_key
        assert key is not None
        return int(key[0])

    def reports_since(self, reporter: str, since: float) -> int:
        query = select(func.count()).where(reports.c.reporter_id == reporter, reports.c.at >= since)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def reports(self, closed: bool, limit: int, report_id: int | None = None) -> list[Report]:
        reporter = accounts.alias("reporter")
        reported = accounts.alias("reported")
        query = (
            select(reports, reporter.c.name.label("by"), reported.c.name.label("whom"))
            .outerjoin(reporter, reporter.c.id == reports.c.reporter_id)
            .outerjoin(reported, reported.c.id == reports.c.account_id)
        )
        if report_id is not None:
            query = query.where(reports.c.id == report_id)
        elif closed:
            query = query.where(reports.c.closed_at.is_not(None)).order_by(reports.c.id.desc())
        else:
            query = query.where(reports.c.closed_at.is_(None)).order_by(reports.c.id)
        with self.engine.connect() as conn:
            rows = conn.execute(query.limit(limit)).all()
        return [
            Report(
                r.id,
                r.by or "(deleted)",
                r.kind,
                r.whom,
                r.table_id,
                r.message_id,
                r.reason,
                r.note,
                r.at,
                r.closed_at,
                r.closed_by,
            )
            for r in rows
        ]

    def reports_by(self, reporter: str) -> list[dict[str, Any]]:
        """The reports an account made (without the reported person's id)."""
        query = select(reports).where(reports.c.reporter_id == reporter).order_by(reports.c.id)
        with self.engine.connect() as conn:
            return [
                {
                    "kind": r.kind,
                    "table": r.table_id,
                    "message": r.message_id,
                    "reason": r.reason,
                    "note": r.note,
                    "at": r.at,
                }
                for r in conn.execute(query)
            ]

    def close_report(self, report_id: int, by: str, now: float) -> bool:
        """False if there is no such open report."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(reports)
                .where(reports.c.id == report_id, reports.c.closed_at.is_(None))
                .values(closed_at=now, closed_by=by)
            )
        return done.rowcount > 0

    # ---------------------------------------------------------------------- operators
    def is_operator(self, account_id: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(operators.c.granted_at).where(operators.c.account_id == account_id)
            ).first()
        return found is not None

    def grant(self, account_id: str, now: float) -> bool:
        with self.engine.begin() as conn:
            if self._has(conn, account_id):
                return False
            conn.execute(insert(operators).values(account_id=account_id, granted_at=now))
        return True

    @staticmethod
    def _has(conn: Any, account_id: str) -> bool:
        query = select(operators.c.granted_at).where(operators.c.account_id == account_id)
        return conn.execute(query).first() is not None

    def revoke(self, account_id: str) -> bool:
        with self.engine.begin() as conn:
            gone = conn.execute(delete(operators).where(operators.c.account_id == account_id))
        return gone.rowcount > 0

    # ---------------------------------------------------------------------- sanctions
    def sanction(self, account_id: str, kind: str, until: float | None, now: float) -> None:
        """Set (or replace) the account's ``kind`` sanction; ``until`` None is for good."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(sanctions).where(
                    sanctions.c.account_id == account_id, sanctions.c.kind == kind
                )
            )
            conn.execute(
                insert(sanctions).values(account_id=account_id, kind=kind, until=until, at=now)
            )

    def lift(self, account_id: str, kind: str) -> bool:
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(sanctions).where(
                    sanctions.c.account_id == account_id, sanctions.c.kind == kind
                )
            )
        return gone.rowcount > 0

    def sanctions_of(self, account_id: str, now: float) -> dict[str, float | None]:
        """The account's sanctions in force: kind -> until (None: for good)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(sanctions).where(sanctions.c.account_id == account_id))
            return {r.kind: r.until for r in rows if r.until is None or float(r.until) > now}

    # -------------------------------------------------------------------------- audit
    def audit(self, operator: str, action: str, target: str, reason: str, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(audit_log).values(
                    operator=operator, action=action, target=target[:128], reason=reason, at=now
                )
            )

    def audit_log(self, limit: int) -> list[dict[str, Any]]:
        query = select(audit_log).order_by(audit_log.c.id.desc()).limit(limit)
        with self.engine.connect() as conn:
            return [
                {
                    "operator": r.operator,
                    "action": r.action,
                    "target": r.target,
                    "reason": r.reason,
                    "at": r.at,
                }
                for r in conn.execute(query)
            ]
