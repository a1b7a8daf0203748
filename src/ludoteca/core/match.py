"""The match authority: the one checked path from a seat's action text to a stored step."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import IllegalActionError, InvalidActionError
from .fairness import commitment
from .game import Event, Game
from .record import Actor, MatchRecord, Player, Step


@dataclass(frozen=True, slots=True)
class Prepared:
    """A checked action and the position it leads to, not yet part of the match."""

    seat: int
    text: str
    state: Any
    events: list[Event]
    base_version: int


class Match:
    """A match in play: the game, its state, and every accepted step, ready to become a record.

    ``prepare`` checks an action and computes its result on a copy without changing the match;
    ``commit`` makes it part of the match. The server stores the step between the two, so nothing is
    applied that is not stored; ``act`` does both at once.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        params: Mapping[str, Any] | None,
        seed: str,
        players: Sequence[Player] | None = None,
    ) -> None:
        self.game = game
        self.params = game.spec.params(params)
        self.seed = seed
        self.state, self.opening_events = game.new_with_events(self.params, seed)
        count = game.players(self.state)
        self.players = (
            list(players)
            if players is not None
            else [Player(f"seat {i + 1}") for i in range(count)]
        )
        if len(self.players) != count:
            raise ValueError(f"{count} seats but {len(self.players)} players given")
        self.steps: list[Step] = []

    @property
    def version(self) -> int:
        """How many actions have been accepted (a client sends the version it saw)."""
        return len(self.steps)

    def prepare(self, seat: int, text: str) -> Prepared:
        """Check ``seat``'s action text and compute its result; raises (nothing changes) if bad."""
        if self.game.is_over(self.state):
            raise IllegalActionError("the match is over")
        to_move = self.game.to_move(self.state)
        if seat != to_move:
            raise IllegalActionError(f"it is not seat {seat}'s turn (seat {to_move} is to move)")
        action = self.game.parse_action(self.state, text)
        if not self.game.is_legal(self.state, action):
            raise IllegalActionError(f"'{text}' is not a legal action here")
        canonical = self.game.action_to_text(self.state, action)
        after = self.state.clone()
        events = self.game.apply_unchecked(after, action)
        return Prepared(seat, canonical, after, events, self.version)

    def commit(self, prepared: Prepared, by: Actor = "player") -> list[Event]:
        """Make a prepared action part of the match (it must have been prepared at this version)."""
        if prepared.base_version != self.version:
            raise IllegalActionError("the match moved on since this action was prepared")
        self.state = prepared.state
        self.steps.append(Step(prepared.seat, prepared.text, by))
        return prepared.events

    def act(self, seat: int, text: str, by: Actor = "player") -> list[Event]:
        """Apply ``seat``'s action text, or raise (state untouched) saying why not."""
        return self.commit(self.prepare(seat, text), by)

    def record(self) -> MatchRecord:
        """The record so far; the seed and outcome appear only once the match is over."""
        outcome = self.game.outcome(self.state)
        return MatchRecord(
            game=self.game.spec.id,
            params=dict(self.params),
            commitment=commitment(self.seed),
            players=list(self.players),
            actions=list(self.steps),
            seed=self.seed if outcome is not None else None,
            outcome=outcome,
        )

    @classmethod
    def replay(
        cls,
        game: Game[Any, Any],
        params: Mapping[str, Any] | None,
        seed: str,
        players: Sequence[Player] | None,
        steps: Sequence[Step],
    ) -> Match:
        """Rebuild a match from its seed and steps; raises at the first step that does not apply."""
        match = cls(game, params, seed, players)
        for n, step in enumerate(steps, 1):
            try:
                match.act(step.seat, step.action, step.by)
            except (IllegalActionError, InvalidActionError) as exc:
                raise IllegalActionError(f"step {n} ({step.action!r}): {exc}") from None
        return match
