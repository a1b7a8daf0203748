"""A rematch: at the end of a match a person offers the same people a new table (same game,
options, pace, rated or not; seats rotated so that the first player changes; bots where bots
sat, at their levels). Everyone else sees the offer on the finished table's websocket and
accepts or declines; once every person has accepted, the new table is created and started, and
each person holds a seat there with the token their own answer gave them.

The offer is stored (``rematches``, one row per finished table) and every write is fenced by
its version, so several processes may answer it at once: each answer is stored once, and of
the processes that see every person accepted only the one whose write made it so creates the
table. The new table's id is drawn with the offer, so a second creation (a process that died
between the last answer and the creation, then someone asking again) conflicts on the id: one
new table only. An offer lapses when anyone declines or leaves, and ``REMATCH_SECONDS`` after
it was made.

A person's token at the new table is derived from their token at the finished one (an HMAC
keyed by it, over the new table's id): asking twice gives the same token, and the server keeps
only its hash until the table exists."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from ludoteca.core import commitment
from ludoteca.core.fairness import new_secret
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status
from ludoteca.server.storage import ConflictError, RematchRow, SeatRow, TableRow
from ludoteca.server.storage.rows import ACCEPTED, DECLINED, LAPSED, OFFERED
from ludoteca.server.table.ledger import token_hash
from ludoteca.server.table.table import Table
from ludoteca.server.table.views import rematch_json, rotated

from .lobby import Lobby, bot_name

REMATCH_SECONDS = 120.0
"""How long an offer waits for every answer before it lapses."""
TRIES = 8
"""Writes an answer tries before giving up (each one lost to another writer at that moment)."""
YES, NO, BOT = "yes", "no", "bot"


def rematch_token(token: str, new_table: str) -> str:
    """The seat token a person holds at the rematch ``new_table``, from their token at the
    finished table: 32 URL-safe characters, as a join gives."""
    digest = hmac.new(
        token.encode(), f"ludoteca/rematch\n{new_table}".encode(), hashlib.sha256
    ).digest()
    return base64.urlsafe_b64encode(digest).decode()[:32]


def is_person(seat: SeatRow) -> bool:
    """A seat a person held (a bot may play it since they resigned or timed out)."""
    return seat.token_hash is not None


Prepare = Callable[[RematchRow, Table], Awaitable[None]]
"""What the accounts do before a rematch's table is created (mark it rated, carry the accounts'
seats over); it may run twice for one table, so it changes nothing the second time."""


@dataclass(frozen=True, slots=True)
class Seated:
    """What a person's answer gives them: the offer as stored after it, and their seat and
    token at the new table (kept by their browser as a join's)."""

    row: RematchRow
    seat: int
    token: str
    created: bool  # this answer created the new table


class Rematches:
    """Offering, accepting and declining rematches, for the lobby's tables."""

    def __init__(self, lobby: Lobby, prepare: Prepare | None = None) -> None:
        self.lobby = lobby
        self.prepare = prepare

    @property
    def now(self) -> float:
        return self.lobby.services.now()

    async def _seated(self, table_id: str, token: str | None) -> tuple[Table, int]:
        table = await self.lobby.residency.get(table_id)
        seat = table.seat_for_token(token)
        if seat is None or not is_person(table.seats[seat]):
            raise Rejected(ErrorCode.BAD_TOKEN, "this token holds no seat at this table")
        if table.row.status != Status.OVER:
            raise Rejected(ErrorCode.NOT_OVER, "a rematch is offered once the match is over")
        return table, seat

    def live(self, row: RematchRow | None) -> bool:
        return row is not None and row.state == OFFERED and self.now < row.expires_at

    async def want(
        self, table_id: str, token: str | None, *, rated: bool, bots: bool = False
    ) -> Seated:
        """The person holding ``token`` wants a rematch: they offer one (when no offer is live)
        or accept the live one; asking again changes nothing and gives the same seat.

        ``bots``: a new offer made after one that ended because people declined or left puts a
        bot in each of their seats (the others' choice); without it, everyone is asked again."""
        table, seat = await self._seated(table_id, token)
        assert token is not None
        storage = self.lobby.storage
        for _ in range(TRIES):
            row = await storage.load_rematch(table_id)
            if row is not None and row.state == ACCEPTED:
                return await self._answered(table, row, seat, token, created=False)
            if not self.live(row):
                gone = _refused(row) if bots and row is not None else set()
                fresh = self._offer(table, seat, token, rated, gone - {seat})
                stored = (
                    await storage.offer_rematch(fresh)
                    if row is None
                    else await storage.update_rematch(fresh, row.version)
                )
                if stored:
                    fresh.version = 0 if row is None else row.version + 1
                    log("rematch_offered", table=table_id, seat=seat, new_table=fresh.new_table)
                    return await self._answered(table, fresh, seat, token, created=True)
                continue
            assert row is not None
            if row.answers[seat] == YES:
                return await self._answered(table, row, seat, token, created=False)
            answered = replace(row, answers=list(row.answers), hashes=list(row.hashes))
            answered.answers[seat] = YES
            answered.hashes[seat] = token_hash(rematch_token(token, row.new_table))
            if all(a in {YES, BOT} for a in answered.answers):
                answered.state = ACCEPTED
            if await storage.update_rematch(answered, row.version):
                answered.version = row.version + 1
                log("rematch_answered", table=table_id, seat=seat, state=answered.state)
                return await self._answered(table, answered, seat, token, created=True)
        raise Rejected(ErrorCode.SERVER_BUSY, "the rematch changed too often just now: ask again")

    def _offer(
        self, table: Table, seat: int, token: str, rated: bool, bots_for: set[int]
    ) -> RematchRow:
        new_table = secrets.token_urlsafe(6)
        answers: list[str | None] = [
            None if is_person(s) and s.seat not in bots_for else BOT
            for s in sorted(table.seats, key=lambda s: s.seat)
        ]
        hashes: list[str | None] = [None] * len(answers)
        answers[seat] = YES
        hashes[seat] = token_hash(rematch_token(token, new_table))
        now = self.now
        state = ACCEPTED if all(a in {YES, BOT} for a in answers) else OFFERED
        return RematchRow(
            table.id, new_table, state, seat, now, now + REMATCH_SECONDS, answers, hashes, rated
        )

    async def _answered(
        self, table: Table, row: RematchRow, seat: int, token: str, *, created: bool
    ) -> Seated:
        made = False
        if row.state == ACCEPTED:
            made = await self.create(table, row)
        await self.show(table, row, changed=created or made)
        players = len(row.answers)
        return Seated(row, rotated(seat, players), rematch_token(token, row.new_table), made)

    async def create(self, table: Table, row: RematchRow) -> bool:
        """Create and start the new table of an accepted offer, unless it exists; True when this
        call created it."""
        if await self.lobby.storage.load_table(row.new_table) is not None:
            return False
        self.lobby.check_room()
        old = table.row
        players = len(row.answers)
        seats: list[SeatRow] = []
        for s in sorted(table.seats, key=lambda s: s.seat):
            at = rotated(s.seat, players)
            if row.answers[s.seat] == BOT:
                level = s.level or self.lobby.services.settings.fill_level
                seats.append(SeatRow(at, SeatKind.BOT, bot_name(level, at), level))
            else:
                seats.append(SeatRow(at, SeatKind.HUMAN, s.name, token_hash=row.hashes[s.seat]))
        seats.sort(key=lambda s: s.seat)
        secret = new_secret()
        new = TableRow(
            id=row.new_table,
            game=old.game,
            params=dict(old.params),
            seed=secret,
            commitment=commitment(secret),
            status=Status.OPEN,
            turn_seconds=old.turn_seconds,
            created_at=self.now,
            seats=seats,
            pace=old.pace,
            reserve_seconds=old.reserve_seconds,
        )
        if self.prepare is not None:
            await self.prepare(row, table)
        try:
            await self.lobby.place(new, start=True)
        except ConflictError:  # created meanwhile, here or at another process
            return False
        log("rematch_created", table=table.id, new_table=row.new_table)
        return True

    async def decline(self, table_id: str, token: str | None, *, reason: str = "declined") -> None:
        """The person declines the live offer (``reason`` ``left``: they left the table): it
        lapses for everyone. ``no_rematch`` when no offer is live."""
        table, seat = await self._seated(table_id, token)
        storage = self.lobby.storage
        for _ in range(TRIES):
            row = await storage.load_rematch(table_id)
            if row is None or not self.live(row):
                raise Rejected(ErrorCode.NO_REMATCH, "there is no rematch offer to decline")
            declined = replace(row, answers=list(row.answers), state=DECLINED, reason=reason)
            declined.answers[seat] = NO
            if await storage.update_rematch(declined, row.version):
                declined.version = row.version + 1
                log("rematch_declined", table=table_id, seat=seat, reason=reason)
                await self.show(table, declined, changed=True)
                return
        raise Rejected(ErrorCode.SERVER_BUSY, "the rematch changed too often just now: ask again")

    async def state(self, table_id: str) -> dict[str, object] | None:
        """The offer as every client sees it (None: no offer was made); an accepted offer whose
        table a stopped process did not create is created now."""
        table = await self.lobby.residency.peek(table_id)
        row = await self.lobby.storage.load_rematch(table.id)
        if row is not None and row.state == ACCEPTED:
            await self.create(table, row)
        if row is not None:
            await self.show(table, row, changed=False)
        return rematch_json(row, self.now)

    async def show(self, table: Table, row: RematchRow, *, changed: bool) -> None:
        """Keep the newest offer on the table and, when it changed, tell every client of it
        (here, and at the other processes, which read it again)."""
        held = table.ledger.rematch
        if held is None or held.version <= row.version:
            table.ledger.rematch = row
        if changed:
            await table.after_change("row")


def _refused(row: RematchRow) -> set[int]:
    """The seats whose people declined an ended offer or left the table."""
    if row.state not in {DECLINED, LAPSED}:
        return set()
    return {seat for seat, answer in enumerate(row.answers) if answer == NO}


__all__ = ["BOT", "LAPSED", "NO", "REMATCH_SECONDS", "YES", "Rematches", "Seated", "rematch_token"]
