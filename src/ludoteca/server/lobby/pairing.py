"""Quick pairing: a person asks for people to play a game with, and is seated with the others
who asked for the same (``pool``'s rules) at a new table that starts at once
(docs/protocol.md#pairing).

The pool is the ``searches`` table of the database every process shares. Any process pairs any
search: on a search's arrival, on each of its searcher's polls, and every ``TICK_SECONDS`` in
the background (which also seats those whose wait for bots ran out). Seating is one fenced
write of the whole group, and the new table's id is drawn before it: a process that dies
between the write and the table's creation leaves the table to be created by whoever next asks
a member's state (two creators conflict on the id; one table only). A search nobody polled
for ``STALE_SECONDS`` (the page was closed without a word) leaves the pool.

The search id is the searcher's secret: the database keeps its digest, and the seat token it
gives is derived from it (only that token's hash is stored)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from ludoteca.bots import LEVELS
from ludoteca.core import commitment
from ludoteca.core.fairness import new_secret
from ludoteca.games import all_games
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status
from ludoteca.server.storage import ConflictError, SeatRow, TableRow
from ludoteca.server.storage.pairings import (
    CANCELLED,
    EXPIRED,
    SEATED,
    WAITING,
    Placed,
    SearchRow,
)
from ludoteca.server.storage.rows import PACES
from ludoteca.server.table import pacing
from ludoteca.server.table.ledger import token_hash

from .lobby import Lobby, bot_name, clean_name
from .pool import Apart, Group, groups

TICK_SECONDS = 0.5
"""How often each process looks at the whole pool (bots after a wait, searches of others)."""
STALE_SECONDS = 20.0
"""A waiting search whose searcher has not asked for it this long leaves the pool."""
TOUCH_SECONDS = 2.0
"""A poll stores the searcher's sign of life at most this often."""
KEEP_SECONDS = 3600.0
"""How long an ended search stays readable (its page may ask once more)."""
MAX_POOL = 5000
"""Waiting searches the pool holds at most; past it, ``server_busy``."""


def search_key(search_id: str) -> str:
    """What the database keeps of a search's id."""
    return hashlib.sha256(f"ludoteca/search\n{search_id}".encode()).hexdigest()


def seat_token(search_id: str) -> str:
    """The seat token a seated search gives its searcher: 32 URL-safe characters, as a join's."""
    digest = hmac.new(search_id.encode(), b"ludoteca/pairing-seat", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:32]


@dataclass(frozen=True, slots=True)
class Wanted:
    """What a person asks for, and who they are for the pool's rules."""

    game: str
    players: int  # 0: any count the game allows
    pace: str
    rated: bool
    bots_after: float | None
    bot_level: str
    name: str
    account: str | None = None
    device: str | None = None
    rating: float | None = None


Prepare = Callable[[SearchRow, list[SearchRow]], Awaitable[None]]
Kept = Callable[[list[str]], Awaitable[Apart]]
"""The pairs among these account ids never seated together (one blocked the other)."""
Allowed = Callable[[str], Awaitable[bool]]
"""Whether this account may look for people (not suspended)."""
"""What the accounts do before a paired table is created (mark it rated); may run twice."""


class Pairing:
    """The pool, for the lobby's tables."""

    def __init__(
        self,
        lobby: Lobby,
        prepare: Prepare | None = None,
        kept_apart: Kept | None = None,
        may_search: Allowed | None = None,
    ) -> None:
        self.lobby = lobby
        self.prepare = prepare
        self.kept_apart = kept_apart
        self.may_search = may_search
        self._matching = asyncio.Lock()
        self._again = False
        self._counted: tuple[float, dict[str, int]] | None = None  # when, and by game

    @property
    def now(self) -> float:
        return self.lobby.services.now()

    # ------------------------------------------------------------------- the searcher's calls
    async def search(self, wanted: Wanted) -> tuple[str, SearchRow]:
        """Put a search in the pool (the searcher's earlier waiting search, from this browser
        or account, leaves it) and pair at once; the search's id and row."""
        self._check(wanted)
        allowed = self.may_search
        if wanted.account is not None and allowed and not await allowed(wanted.account):
            raise Rejected(ErrorCode.SUSPENDED, "this account is suspended")
        storage = self.lobby.storage
        waiting = await storage.waiting_searches()
        if len(waiting) >= MAX_POOL:
            raise Rejected(ErrorCode.SERVER_BUSY, "too many people are searching: try again")
        for old in waiting:
            same_device = wanted.device is not None and old.device == wanted.device
            same_account = wanted.account is not None and old.account == wanted.account
            if same_device or same_account:
                await self._end(old, CANCELLED)
        search_id = secrets.token_urlsafe(24)
        now = self.now
        row = SearchRow(
            search_key(search_id),
            wanted.game,
            wanted.players,
            wanted.pace,
            wanted.rated,
            wanted.bots_after,
            wanted.bot_level,
            clean_name(wanted.name, "Player"),
            token_hash(seat_token(search_id)),
            now,
            now,
            account=wanted.account,
            device=wanted.device,
            rating=wanted.rating,
        )
        await storage.add_search(row)
        log("search_added", game=wanted.game, players=wanted.players, rated=wanted.rated)
        await self.match(wanted.game)
        return search_id, await self._load(search_id)

    def _check(self, wanted: Wanted) -> None:
        game = all_games().get(wanted.game)
        if game is None:
            raise Rejected(
                ErrorCode.NO_GAME,
                f"there is no game '{wanted.game}' (games: {', '.join(all_games())})",
            )
        fewest, most = game.spec.min_players, game.spec.max_players
        if wanted.players and not fewest <= wanted.players <= most:
            raise Rejected(
                ErrorCode.BAD_REQUEST,
                f"players: {game.spec.name} is for {fewest} to {most}, not {wanted.players}",
            )
        if wanted.pace not in PACES:
            raise Rejected(ErrorCode.BAD_REQUEST, f"pace: one of {', '.join(PACES)}")
        if wanted.bot_level not in LEVELS:
            raise Rejected(ErrorCode.BAD_REQUEST, f"bot_level: one of {', '.join(LEVELS)}")
        if wanted.rated and (wanted.account is None or wanted.rating is None):
            raise Rejected(ErrorCode.NOT_SIGNED_IN, "sign in to look for a rated match")

    async def _load(self, search_id: str) -> SearchRow:
        row = await self.lobby.storage.load_search(search_key(search_id))
        if row is None:
            raise Rejected(ErrorCode.NO_SEARCH, "there is no such search (it ended long ago?)")
        return row

    async def state(self, search_id: str) -> dict[str, Any]:
        """The search as its searcher sees it (asking is also its sign of life): waiting, with
        how many look for the game and how long it has waited; or seated, with the table, the
        seat and the token; or ended (cancelled, expired). Asking pairs nothing (arrivals and
        the background pass do): a crowd polling costs a read each."""
        row = await self._load(search_id)
        if row.state == WAITING and self.now - row.seen_at >= TOUCH_SECONDS:
            touched = replace(row, seen_at=self.now)
            if await self.lobby.storage.update_search(touched, row.version):
                row = touched
            else:  # seated or ended meanwhile
                row = await self._load(search_id)
        if row.state == SEATED and row.table_id is not None:
            await self.create(row.table_id)
        return await self.describe(search_id, row)

    async def describe(self, search_id: str, row: SearchRow) -> dict[str, Any]:
        end = row.ended_at if row.ended_at is not None else self.now
        answer: dict[str, Any] = {
            "state": row.state,
            "game": row.game,
            "players": row.players or "any",
            "pace": row.pace,
            "rated": row.rated,
            "looking": await self.looking(row.game),
            "waited": round(max(0.0, end - row.created_at), 1),
        }
        if row.state == SEATED:
            answer |= {"table": row.table_id, "seat": row.seat, "token": seat_token(search_id)}
        return answer

    async def cancel(self, search_id: str) -> SearchRow:
        """The searcher stops looking; a seated search stays seated (leave the table)."""
        for _ in range(8):
            row = await self._load(search_id)
            if row.state != WAITING or await self._end(row, CANCELLED):
                return row
        raise Rejected(ErrorCode.SERVER_BUSY, "the search changed too often just now: ask again")

    async def _end(self, row: SearchRow, state: str) -> bool:
        ended = replace(row, state=state, ended_at=self.now)
        done = await self.lobby.storage.update_search(ended, row.version)
        if done:
            log("search_ended", game=row.game, state=state, waited=self.now - row.created_at)
        return done

    async def looking(self, game: str) -> int:
        """How many fresh searches wait for a game (as counted by this process's last pass
        over the pool, when it is at most ``TICK_SECONDS`` old)."""
        return (await self.looking_by_game()).get(game, 0)

    async def looking_by_game(self) -> dict[str, int]:
        if self._counted is None or self.now - self._counted[0] > TICK_SECONDS:
            fresh = self.now - STALE_SECONDS
            self._count(
                [r for r in await self.lobby.storage.waiting_searches() if r.seen_at >= fresh]
            )
        assert self._counted is not None
        return dict(self._counted[1])

    def _count(self, waiting: list[SearchRow], game: str | None = None) -> None:
        counts: dict[str, int] = {}
        if game is not None and self._counted is not None:  # only this game was read
            counts = {g: n for g, n in self._counted[1].items() if g != game}
        for r in waiting:
            counts[r.game] = counts.get(r.game, 0) + 1
        self._counted = (self.now, counts)

    # --------------------------------------------------------------------------- pairing
    async def match(self, game: str | None = None) -> list[str]:
        """Seat every group the pool allows now (of one game, or of all); the new tables.

        One pass at a time per process: a call while one runs asks it for one more pass over
        the whole pool and returns at once (a crowd arriving together reads the pool a few
        times, not once per person, and does not race itself to seat the same people)."""
        if self._matching.locked():
            self._again = True
            return []
        made: list[str] = []
        async with self._matching:
            made += await self._match(game)
            while self._again:
                self._again = False
                made += await self._match(None)
        return made

    async def _match(self, game: str | None) -> list[str]:
        now = self.now
        fresh: list[SearchRow] = []
        for row in await self.lobby.storage.waiting_searches(game):
            if now - row.seen_at > STALE_SECONDS:
                await self._end(row, EXPIRED)
            else:
                fresh.append(row)
        made = []
        seated: set[str] = set()
        accounts = sorted({r.account for r in fresh if r.account is not None})
        apart: Apart = frozenset()
        if self.kept_apart is not None and len(accounts) > 1:
            apart = await self.kept_apart(accounts)
        for group in groups(fresh, now, _counts, apart):
            table_id = secrets.token_urlsafe(6)
            members = [Placed(m.id, m.version, i) for i, m in enumerate(group.members)]
            if not await self.lobby.storage.seat_searches(
                table_id, group.size, group.level, members, now
            ):
                continue  # another process seated some of them first
            log("search_paired", table=table_id, people=len(members), size=group.size)
            seated |= {m.id for m in members}
            await self.create(table_id)
            made.append(table_id)
        self._count([r for r in fresh if r.id not in seated], game)
        return made

    async def create(self, table_id: str) -> bool:
        """Create and start the table of a seated group, unless it exists; True when this call
        created it."""
        storage = self.lobby.storage
        if await storage.load_table(table_id) is not None:
            return False
        members = await storage.table_searches(table_id)
        if not members:
            return False
        first = members[0]
        game = all_games()[first.game]
        size = first.size or len(members)
        level = first.level or self.lobby.services.settings.fill_level
        people = {m.seat: m for m in members if m.seat is not None}
        seats = []
        for at in range(size):
            person = people.get(at)
            if person is None:
                seats.append(SeatRow(at, SeatKind.BOT, bot_name(level, at), level))
            else:
                seats.append(SeatRow(at, SeatKind.HUMAN, person.name, token_hash=person.seat_hash))
        turn, reserve = pacing.chosen(self.lobby.services.settings, first.pace, None, None)
        secret = new_secret()
        row = TableRow(
            id=table_id,
            game=game.spec.id,
            params=game.spec.params({"players": size}),
            seed=secret,
            commitment=commitment(secret),
            status=Status.OPEN,
            turn_seconds=turn,
            created_at=self.now,
            seats=seats,
            pace=first.pace,
            reserve_seconds=reserve,
        )
        if self.prepare is not None:
            await self.prepare(first, members)
        self.lobby.check_room()
        try:
            await self.lobby.place(row, start=True)
        except ConflictError:  # created meanwhile, here or at another process
            return False
        return True

    async def run(self) -> None:
        """Pair the whole pool every ``TICK_SECONDS``, and forget ended searches, until
        cancelled (a background task of every process)."""
        sleep = self.lobby.services.sleep
        ticks = 0
        while True:
            try:
                await self.match()
                ticks += 1
                if ticks % 600 == 0:
                    await self.lobby.storage.forget_searches(self.now - KEEP_SECONDS)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the next tick tries again
                log("pairing_failed", error=repr(exc))
            await sleep(TICK_SECONDS)


def _counts(game_id: str) -> tuple[int, int]:
    spec = all_games()[game_id].spec
    return spec.min_players, spec.max_players


__all__ = [
    "MAX_POOL",
    "STALE_SECONDS",
    "TICK_SECONDS",
    "Group",
    "Pairing",
    "Wanted",
    "search_key",
    "seat_token",
]
