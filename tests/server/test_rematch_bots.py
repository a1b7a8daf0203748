"""A rematch after someone declined or left: the others choose. Offering again with ``bots``
puts a bot in the seat of each person who declined or left (at the fill level, marked as a bot)
and the new table starts once the others accept; offering again without it asks everyone
again, as before. In process, on the in-memory store and on SQLite."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_rematch import finished

from kit.tables import FakeClock, lobby_on
from ludoteca.games import register, unregister
from ludoteca.server.lobby.rematch import Rematches
from ludoteca.server.storage import Storage
from ludoteca.server.storage.memory import MemoryStorage
from toygame import GAME


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register(GAME)
    try:
        yield
    finally:
        unregister(GAME.spec.id)


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Storage | str:
    return MemoryStorage() if request.param == "memory" else f"sqlite:///{tmp_path}/r.db"


def test_a_bot_takes_the_seat_of_who_declined_when_the_others_choose(
    store: Storage | str,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock, bot_delay=0.0) as lobby:
            table, (ana, bruno) = await finished(lobby, clock)
            offers = Rematches(lobby)
            await offers.want(table.id, ana, rated=False)
            await offers.decline(table.id, bruno)
            # asked again without bots: Bruno is asked again
            again = await offers.want(table.id, ana, rated=False)
            assert again.row.state == "offered" and again.row.answers == ["yes", None]
            await offers.decline(table.id, bruno, reason="left")
            # Ana chooses a bot for Bruno: the new table starts at once, the bot where he sat
            done = await offers.want(table.id, ana, rated=False, bots=True)
            assert done.row.state == "accepted" and done.row.answers == ["yes", "bot"]
            new = await lobby.residency.get(done.row.new_table)
            bot = new.seats[0]  # Bruno's seat 1, rotated
            assert bot.kind == "bot" and bot.token_hash is None and "Bot" in bot.name
            assert new.seats[1].name == "Ana" and new.seat_for_token(done.token) == 1
            assert new.seat_for_token(bruno) is None

    asyncio.run(scenario())


def test_bots_change_nothing_while_nobody_declined(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            table, (ana, _) = await finished(lobby, clock)
            first = await Rematches(lobby).want(table.id, ana, rated=False, bots=True)
            assert first.row.state == "offered" and first.row.answers == ["yes", None]

    asyncio.run(scenario())
