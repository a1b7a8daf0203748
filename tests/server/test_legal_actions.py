"""The ``state`` message carries the legal actions twice: as texts (``legal``) and as data
(``legal_actions``: ``{text, kind, args}``, the same actions in the same order), so a board picks
among them without parsing the notation (docs/protocol.md)."""

from __future__ import annotations

import asyncio

from kit.tables import FakeClock, commit_then_reveal, lobby_on
from ludoteca.server.lobby.lobby import SeatRequest
from ludoteca.server.storage.memory import MemoryStorage


def test_the_state_message_gives_the_legal_actions_as_data() -> None:
    async def scenario() -> None:
        async with lobby_on(MemoryStorage(), FakeClock()) as lobby:
            seats = [SeatRequest(), SeatRequest()]
            table, _, _ = await lobby.create(
                "heroes", players=2, seats=seats, turn_seconds=None, name="Ana", start=False
            )
            await lobby.join(table.id, "Bruno", None)  # the last seat taken: the table starts
            await commit_then_reveal(table, {0: "ana-seed", 1: "bruno-seed"})
            assert table.match is not None
            mover = table.match.to_move
            assert mover is not None
            shown = table.message_for(mover, 0)
            assert "legal_actions" in shown
            assert [a["text"] for a in shown["legal_actions"]] == shown["legal"] != []
            place = next(a for a in shown["legal_actions"] if a["kind"] == "place")
            assert place["text"] == f"place {place['args']['role']} {place['args']['room']}"
            assert table.message_for(1 - mover, 0)["legal_actions"] == []
            assert table.message_for(None, 0)["legal_actions"] == []

    asyncio.run(scenario())
