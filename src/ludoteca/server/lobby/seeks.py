"""Seeks: open challenges posted in the lobby (docs/protocol.md#seeks).

A seek *is* an open table: its poster sits at the first seat, every other seat waits for a
person, and the table is listed in the lobby like any open table, its summary carrying
``seek`` (rated or casual, the poster's name and rating, since when it waits). Taking it is
joining it, with the seek's rules; the last seat taken starts the match, as at any open table.

What an open table does not hold is kept in the ``searches`` table every process shares, one
row per seek in state ``posted`` (``storage.pairings``): the poster's account, a digest of their
browser's device cookie, their rating, whether the seek is rated, the hash of the poster's seat
token and the poster's last sign of life (``seen_at``). Every process reads the posted rows each
``TICK_SECONDS``: so each knows every seek (the open tables themselves reach its lobby feeds by
the cluster's notices), and the process whose client is the poster's seat connection keeps the
seek alive. A seek nobody kept alive for ``GRACE_SECONDS`` (the poster closed the page), whose
poster left the seat, or whose table expired, ends, and its table with it.

Each take is fenced by the row's version, and the take of the last free seat moves the row to
``seated`` in that same write: of two people taking the last seat at once, at one process or
two, one sits and the other is told ``seek_taken``."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ludoteca.games import all_games
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status
from ludoteca.server.storage.pairings import CANCELLED, EXPIRED, POSTED, SEATED, SearchRow
from ludoteca.server.storage.rows import PACES
from ludoteca.server.table.ledger import token_hash
from ludoteca.server.table.table import Table

from .lobby import Lobby, SeatRequest, clean_name
from .pairing import Pairing

TICK_SECONDS = 0.5
"""How often each process reads the posted seeks (and pushes the lobby's counts)."""
GRACE_SECONDS = 15.0
"""A seek whose poster has had no seat connection this long ends."""
TOUCH_SECONDS = 2.0
"""The poster's sign of life is stored at most this often."""
MAX_EACH = 3
"""Seeks one person (account, or browser) may have posted at once."""
MAX_SEEKS = 2000
"""Seeks the lobby holds at most; past it, ``server_busy``."""


def seek_key(table_id: str) -> str:
    """The row id of the seek at a table."""
    return hashlib.sha256(f"ludoteca/seek\n{table_id}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Seeker:
    """Who posts or takes a seek: the name at the table, the account (None: a guest), the
    digest of the browser's device cookie, the rating shown for the game (an account's)."""

    name: str
    account: str | None = None
    device: str | None = None
    rating: float | None = None


class CountsWatcher(Protocol):
    """A lobby page following the counts of people looking."""

    def counts_changed(self) -> None: ...


Apart = Callable[[list[str]], Awaitable[frozenset[frozenset[str]]]]
Allowed = Callable[[str], Awaitable[bool]]
Marked = Callable[[str, str], Awaitable[None]]
Online = Callable[[], int]


def public(row: SearchRow) -> dict[str, Any]:
    """What everyone sees of a seek (``seek`` of its table's summary)."""
    return {
        "rated": row.rated,
        "by": row.name,
        "rating": None if row.rating is None else round(row.rating),
        "since": row.created_at,
    }


class Seeks:
    """The lobby's seeks, for the lobby's tables."""

    def __init__(
        self,
        lobby: Lobby,
        pairing: Pairing | None = None,
        *,
        kept_apart: Apart | None = None,
        may_post: Allowed | None = None,
        mark_rated: Marked | None = None,
        online: Online | None = None,
    ) -> None:
        self.lobby = lobby
        self.pairing = pairing
        self.kept_apart = kept_apart
        self.may_post = may_post
        self.mark_rated = mark_rated
        self.online = online
        self.known: dict[str, SearchRow] = {}  # the posted seeks, by table id
        self.watchers: set[CountsWatcher] = set()
        self._counts: dict[str, Any] = {"games": {}, "online": 0}

    @property
    def now(self) -> float:
        return self.lobby.services.now()

    # ------------------------------------------------------------------------- posting
    async def post(
        self,
        game_id: str,
        *,
        players: int,
        pace: str,
        turn_seconds: int | None,
        rated: bool,
        seeker: Seeker,
        client: str = "",
    ) -> tuple[Table, int, str]:
        """Open a table for ``players`` people with the poster at its first seat, and list it
        as a seek; the table, the poster's seat and token."""
        game = all_games().get(game_id)
        if game is None:
            raise Rejected(
                ErrorCode.NO_GAME, f"there is no game '{game_id}' (games: {', '.join(all_games())})"
            )
        fewest, most = max(2, game.spec.min_players), game.spec.max_players
        if not fewest <= players <= most:
            raise Rejected(
                ErrorCode.BAD_REQUEST,
                f"players: a seek of {game.spec.name} is for {fewest} to {most}, not {players}",
            )
        if pace not in PACES:
            raise Rejected(ErrorCode.BAD_REQUEST, f"pace: one of {', '.join(PACES)}")
        await self._may(seeker, rated, "post a rated seek")
        posted = await self.lobby.storage.waiting_searches(state=POSTED)
        if len(posted) >= MAX_SEEKS:
            raise Rejected(ErrorCode.SERVER_BUSY, "the lobby holds all the seeks it can")
        mine = [r for r in posted if _same_person(r, seeker)]
        if len(mine) >= MAX_EACH:
            raise Rejected(
                ErrorCode.TOO_MANY_SEEKS,
                f"you already have {len(mine)} seeks posted: cancel one first",
            )
        table, seat, token = await self.lobby.create(
            game_id,
            players=players,
            seats=[SeatRequest() for _ in range(players)],
            turn_seconds=turn_seconds,
            name=seeker.name,
            start=False,
            client=client,
            pace=pace,
        )
        assert seat is not None and token is not None
        if rated and self.mark_rated is not None:
            await self.mark_rated(table.id, game.spec.id)
        now = self.now
        row = SearchRow(
            seek_key(table.id),
            game.spec.id,
            players,
            pace,
            rated,
            None,
            "medium",
            clean_name(seeker.name, "Player 1"),
            token_hash(token),
            now,
            now,
            account=seeker.account,
            device=seeker.device,
            rating=seeker.rating,
            state=POSTED,
            table_id=table.id,
            seat=seat,
            size=0,
        )
        await self.lobby.storage.add_search(row)
        self.known[table.id] = row
        log("seek_posted", table=table.id, game=game.spec.id, players=players, rated=rated)
        self.lobby.residency.changed(table.id)
        await self.push_counts()
        return table, seat, token

    async def _may(self, seeker: Seeker, rated: bool, what: str) -> None:
        if rated and seeker.account is None:
            raise Rejected(ErrorCode.NOT_SIGNED_IN, f"sign in to {what}")
        allowed = self.may_post
        if seeker.account is not None and allowed and not await allowed(seeker.account):
            raise Rejected(ErrorCode.SUSPENDED, "this account is suspended")

    # -------------------------------------------------------------------------- taking
    async def load(self, table_id: str) -> SearchRow:
        row = await self.lobby.storage.load_search(seek_key(table_id[:64]))
        if row is None:
            raise Rejected(ErrorCode.NO_SEEK, f"there is no seek at table '{table_id[:40]}'")
        return row

    async def take(self, table_id: str, seeker: Seeker) -> tuple[int, str]:
        """Sit at a free seat of the seek's table (the last one starts the match); the seat
        and its token."""
        row = await self.load(table_id)
        if row.state == POSTED:  # else the answer is that it was taken
            await self._may(seeker, row.rated, "take a rated seek")
        for _ in range(8):
            if row.state != POSTED:
                raise Rejected(ErrorCode.SEEK_TAKEN, "this seek was taken, withdrawn or expired")
            if _same_person(row, seeker):
                raise Rejected(ErrorCode.OWN_SEEK, "this seek is yours")
            kept, them, me = self.kept_apart, row.account, seeker.account
            if kept and them and me and await kept([them, me]):
                raise Rejected(ErrorCode.BLOCKED, "you cannot take this seek")
            table = await self.lobby.residency.get(row.table_id or table_id)
            free = sum(s.kind == SeatKind.OPEN for s in table.seats)
            if table.row.status != Status.OPEN or free == 0:
                raise Rejected(ErrorCode.SEEK_TAKEN, "this seek was taken, withdrawn or expired")
            last = free == 1
            taken = replace(
                row,
                size=(row.size or 0) + 1,
                state=SEATED if last else POSTED,
                ended_at=self.now if last else None,
            )
            if await self.lobby.storage.update_search(taken, row.version):
                break
            row = await self.load(table_id)  # touched, taken or ended meanwhile: look again
        else:
            raise Rejected(ErrorCode.SERVER_BUSY, "the seek changed too often just now: try again")
        if last:
            self.known.pop(table.id, None)
        try:
            seat, token = await self.lobby.join(table.id, seeker.name, None)
        except Rejected as exc:
            if exc.code in {ErrorCode.TABLE_FULL, ErrorCode.NOT_OPEN}:
                raise Rejected(ErrorCode.SEEK_TAKEN, "this seek was just taken") from None
            raise
        log("seek_taken", table=table.id, seat=seat, last=last)
        await self.push_counts()
        return seat, token

    # ------------------------------------------------------------------------ withdrawing
    async def cancel(self, table_id: str, token: str | None) -> None:
        """The poster withdraws the seek (their seat token proves it): it ends and its table
        closes (whoever took a seat meanwhile is told the table expired)."""
        row = await self.load(table_id)
        if token is None or token_hash(token) != row.seat_hash:
            raise Rejected(ErrorCode.BAD_TOKEN, "only the seek's poster (their seat token) can")
        if row.state != POSTED:
            raise Rejected(ErrorCode.SEEK_TAKEN, "this seek was taken, withdrawn or expired")
        await self._end(row, CANCELLED)

    async def _end(self, row: SearchRow, state: str, close: bool = True) -> bool:
        """End a posted seek (fenced by its version) and close its table if still open."""
        ended = replace(row, state=state, ended_at=self.now)
        if not await self.lobby.storage.update_search(ended, row.version):
            return False
        table_id = row.table_id or ""
        self.known.pop(table_id, None)
        log("seek_ended", table=table_id, state=state, waited=self.now - row.created_at)
        if close:
            await self._close(table_id)
        self.lobby.residency.changed(table_id)
        return True

    async def _close(self, table_id: str) -> None:
        residency = self.lobby.residency
        if not await self.lobby.storage.expire_tables([table_id]):
            return  # started (or gone) meanwhile
        held = residency.held.pop(table_id, None)
        table = held.table if held is not None else await residency._expired_row(table_id)
        residency.elsewhere.pop(table_id, None)
        if table is None:
            return
        table.stop()
        table.row.status = Status.EXPIRED
        await table.after_change()

    async def posted(self, table_id: str) -> bool:
        """Whether the table is a seek still posted (read from storage: one posted at another
        process a moment ago too)."""
        if table_id in self.known:
            return True
        row = await self.lobby.storage.load_search(seek_key(table_id[:64]))
        return row is not None and row.state == POSTED

    # ---------------------------------------------------------------------- the lobby's
    def seek_of(self, table_id: str) -> SearchRow | None:
        return self.known.get(table_id)

    def decorate(self, summary: dict[str, Any]) -> dict[str, Any]:
        """A table's summary with ``seek``: what everyone sees of its seek, or None."""
        row = self.known.get(summary["id"]) if summary.get("status") == Status.OPEN else None
        return summary | {"seek": None if row is None else public(row)}

    def hidden(self, table_id: str, kept: frozenset[str]) -> bool:
        """Whether the table is a seek of someone in ``kept`` (blocked either way)."""
        row = self.known.get(table_id)
        return row is not None and row.account is not None and row.account in kept

    def counts(self) -> dict[str, Any]:
        """``{type: looking, games: {game: N}, online: N}``: the people looking per game
        (quick pairing's searches and the seeks' posters) and the pages connected here."""
        return {"type": "looking", **self._counts}

    async def looking(self) -> dict[str, Any]:
        """``{games: {game: N}, online: N}`` now (``counts`` is the last one pushed)."""
        games = dict(await self.pairing.looking_by_game()) if self.pairing else {}
        for row in self.known.values():
            games[row.game] = games.get(row.game, 0) + 1
        return {"games": games, "online": self.online() if self.online else 0}

    async def push_counts(self) -> None:
        counts = await self.looking()
        if counts != self._counts:
            self._counts = counts
            for watcher in list(self.watchers):
                watcher.counts_changed()

    # --------------------------------------------------------------------------- the loop
    async def tick(self) -> None:
        """Read every posted seek: keep alive those whose poster is connected here, end those
        whose poster is gone or whose table is no longer open, tell the lobby feeds what
        changed, and push the counts."""
        now = self.now
        found: dict[str, SearchRow] = {}
        for row in await self.lobby.storage.waiting_searches(state=POSTED):
            table_id = row.table_id or ""
            held = self.lobby.residency.held.get(table_id)
            if held is not None and not await self._check(row, held.table, now):
                continue
            if now - row.seen_at > GRACE_SECONDS:
                await self._end(row, EXPIRED)
                continue
            found[table_id] = row
        before, self.known = self.known, found
        for table_id in set(before) | set(found):
            old, new = before.get(table_id), found.get(table_id)
            if (old is None) != (new is None) or (
                old is not None and new is not None and public(old) != public(new)
            ):
                self.lobby.residency.changed(table_id)
        await self.push_counts()

    async def _check(self, row: SearchRow, table: Table, now: float) -> bool:
        """A seek whose table is held here: False when it ended (table no longer open, poster
        left); its poster's sign of life stored when their seat is connected here."""
        status = table.row.status
        if status != Status.OPEN:
            await self._end(row, EXPIRED if status == Status.EXPIRED else SEATED, close=False)
            return False
        seat = row.seat if row.seat is not None else 0
        if table.seats[seat].token_hash != row.seat_hash:  # the poster left the seat
            await self._end(row, CANCELLED)
            return False
        if seat in table.audience.seated_here() and now - row.seen_at >= TOUCH_SECONDS:
            touched = replace(row, seen_at=now)
            if await self.lobby.storage.update_search(touched, row.version):
                row.seen_at, row.version = now, row.version + 1
        return True

    async def run(self) -> None:
        """``tick`` every ``TICK_SECONDS`` until cancelled (a background task of every
        process)."""
        sleep = self.lobby.services.sleep
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the next tick tries again
                log("seeks_failed", error=repr(exc))
            await sleep(TICK_SECONDS)


def _same_person(row: SearchRow, seeker: Seeker) -> bool:
    same_account = seeker.account is not None and row.account == seeker.account
    same_device = seeker.device is not None and row.device == seeker.device
    return same_account or same_device


__all__ = ["GRACE_SECONDS", "MAX_EACH", "TICK_SECONDS", "Seeker", "Seeks", "public", "seek_key"]
