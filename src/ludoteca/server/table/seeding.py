"""Commit, then reveal: where a starting table stands with its people's seeds (docs/fairness.md).

A person commits (``SHA-256(seed + "\\n" + salt)``) while the table is open or starting; the
commitments close when the table has started and every seated person has committed, or a window
after the start; then each person who committed reveals their seed and salt, and the table deals
when every one of them has, or a window after the commitments closed. A seat that committed and
never revealed enters the seed by its commitment (``core.fairness.seed_message``).

Pure functions of the stored rows: the table applies them under its lock.
"""

from __future__ import annotations

from ludoteca.core import Deal
from ludoteca.core.fairness import contribution_problem, is_hex64, salt_problem, seat_commitment
from ludoteca.server.messages import ErrorCode, Rejected
from ludoteca.server.storage import SeatRow, TableRow


def deal_of(row: TableRow) -> Deal:
    """Where the match's seed comes from: format 3 and 4, the secret and every person's
    commitment, reveal and salt; format 2 (tables stored before seats committed), the secret and
    the revealed seeds; format 1, the stored seed itself. A seat a bot took over during the match
    (``bot_from``) was a person's when it was dealt: its seeds count as they did then."""
    if row.format < 2:
        return Deal(row.seed)
    people = [
        s if s.kind == "human" or s.bot_from is not None else SeatRow(s.seat, s.kind, s.name)
        for s in row.seats
    ]
    contributions = tuple(s.contribution for s in people)
    if row.format < 3:
        return Deal(row.seed, row.id, contributions)
    commitments = tuple(s.commitment for s in people)
    salts = tuple(s.salt for s in people)
    form = row.format if row.format >= 4 else None
    prelude = tuple(row.prelude) if row.format >= 5 else None
    return Deal(row.seed, row.id, contributions, commitments, salts, form, prelude)


def commitment_problem(text: object) -> str | None:
    if not is_hex64(text):
        return "a commitment is 64 lowercase hex digits: SHA-256 of your seed, a newline, a salt"
    return None


def reveal_problem(seat: SeatRow, seed: object, salt: object) -> tuple[ErrorCode, str] | None:
    """Why this reveal is refused, as ``(code, message)``, or None when it opens the seat's
    commitment."""
    problem = contribution_problem(seed)
    if problem:
        return ErrorCode.BAD_CONTRIBUTION, problem
    problem = salt_problem(salt)
    if problem:
        return ErrorCode.BAD_REVEAL, problem
    if seat.commitment is None:
        return ErrorCode.BAD_REVEAL, "your seat committed to nothing: there is nothing to reveal"
    assert isinstance(seed, str) and isinstance(salt, str)
    if seat_commitment(seed, salt) != seat.commitment:
        return ErrorCode.BAD_REVEAL, (
            "this seed and salt do not give your seat's commitment "
            f"(sha256 gives {seat_commitment(seed, salt)}, you committed to {seat.commitment})"
        )
    return None


def repeated_reveal(row: TableRow, seat: int, seed: object, salt: object) -> bool:
    """True when ``seat`` already revealed exactly this seed and salt (a client that sent its
    reveal twice, or a retry: accepted, nothing changes, before or after the deal); Rejected
    (``bad_reveal``) when it revealed something else; False when it has not revealed."""
    if row.format < 3:
        return False
    given = row.seats[seat]
    if given.contribution is None:
        return False
    if seed == given.contribution and salt == given.salt:
        return True
    raise Rejected(
        ErrorCode.BAD_REVEAL,
        "your seat already revealed a different seed and salt: a reveal cannot change",
    )


def people(row: TableRow) -> list[SeatRow]:
    return [s for s in row.seats if s.kind == "human"]


def waiting_for(row: TableRow) -> list[int]:
    """The seated people the table still waits for: their commitment while the commitments are
    open, their reveal once they are closed."""
    if row.revealing_at is None:
        return [s.seat for s in people(row) if s.commitment is None]
    return [s.seat for s in people(row) if s.commitment is not None and s.contribution is None]


def due(row: TableRow, window: float) -> float | None:
    """When a starting table stops waiting at the latest: the commitments close ``window``
    seconds after the start, the deal ``window`` seconds after they closed."""
    if row.status != "starting":
        return None
    if row.revealing_at is None:
        return (row.started_at or 0) + window
    return row.revealing_at + window
