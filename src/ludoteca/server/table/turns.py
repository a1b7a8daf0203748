"""Whose turn it is, for whoever tells people so: a turn-based table tells ``Services.turns`` each
time a person's turn begins, in the process that stored the step (once per step across
processes), and the notifications (web push, e-mail) listen there (``docs/turn-based.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class TurnBegan:
    """A person's turn began at a turn-based table: who, where, and until when."""

    table_id: str
    game: str
    seat: int
    version: int  # the step after which it is their turn
    deadline: float  # epoch seconds, when the table plays for them
    # what the news says: every seat's name (by seat), the seat whose step began this turn
    # (None: the deal), how it was played ("player", "bot" or "table": its time ran out), and
    # that step's events as this person sees them (their own seat's view, nothing hidden leaks)
    names: tuple[str, ...] = ()
    mover: int | None = None
    by: str | None = None
    events: tuple[Mapping[str, Any], ...] = ()


class TurnHook(Protocol):
    """Told of every turn that begins for a person at a turn-based table who does not have the
    table open at that moment (their page shows the turn: no push or mail); must not block (it
    queues its work) and must not raise."""

    def turn_began(self, turn: TurnBegan) -> None: ...


class NoTurnHook:
    """Nobody is told (notifications off)."""

    def turn_began(self, turn: TurnBegan) -> None:
        return None
