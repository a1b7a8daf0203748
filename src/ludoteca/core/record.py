"""Matches and their records: the JSON anyone can re-deal and replay (``docs/records.md``).

``Match`` is the one place where a seat's action text becomes a state change and a record
line; the CLI, the server and the verifier all go through it, so a record replays as it was played.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import IllegalActionError, InvalidActionError, LudotecaError
from .fairness import commitment, fingerprint
from .game import JSON, Event, Game, Outcome

RECORD_FORMAT = 1
Actor = Literal["player", "bot", "table"]
ACTORS: tuple[Actor, ...] = ("player", "bot", "table")


class RecordError(LudotecaError, ValueError):
    """A record that is not a well-formed ludoteca match record."""


@dataclass(frozen=True, slots=True)
class Player:
    """A seat's occupant as the record shows it: bots are always marked."""

    name: str
    bot: bool = False
    level: str | None = None

    def to_json(self) -> JSON:
        data: JSON = {"name": self.name, "bot": self.bot}
        if self.level is not None:
            data["level"] = self.level
        return data


@dataclass(frozen=True, slots=True)
class Step:
    """One accepted action: who acted, what they did, and whether a person, a bot or the table
    (for a seat whose clock ran out) chose it."""

    seat: int
    action: str
    by: Actor = "player"

    def to_json(self) -> JSON:
        return {"seat": self.seat, "action": self.action, "by": self.by}


@dataclass(slots=True)
class MatchRecord:
    game: str
    params: JSON
    commitment: str
    players: list[Player]
    actions: list[Step] = field(default_factory=list)
    seed: str | None = None
    outcome: Outcome | None = None

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.commitment)

    def to_json(self) -> JSON:
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "params": self.params,
            "commitment": self.commitment,
            "fingerprint": self.fingerprint,
            "seed": self.seed,
            "players": [p.to_json() for p in self.players],
            "actions": [s.to_json() for s in self.actions],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        """Parse a record, saying exactly which field is wrong when it is not one."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"unknown record format {data.get('format')!r} (expected 1)")
        for key, kind in (("game", str), ("commitment", str), ("params", dict)):
            if not isinstance(data.get(key), kind):
                raise RecordError(f"field '{key}' is missing or not a {kind.__name__}")
        seed = data.get("seed")
        if seed is not None and not isinstance(seed, str):
            raise RecordError("field 'seed' must be a string or null")
        players = data.get("players")
        if not isinstance(players, list) or not players:
            raise RecordError("field 'players' must be a non-empty list")
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise RecordError("field 'actions' must be a list")
        try:
            parsed_players = [
                Player(str(p["name"]), bool(p.get("bot", False)), p.get("level")) for p in players
            ]
            steps = []
            for n, a in enumerate(actions, 1):
                if a.get("by", "player") not in ACTORS:
                    raise RecordError(f"step {n}: 'by' must be one of {', '.join(ACTORS)}")
                if not isinstance(a["seat"], int) or not isinstance(a["action"], str):
                    raise RecordError(f"step {n}: needs an integer 'seat' and a text 'action'")
                steps.append(Step(a["seat"], a["action"], a.get("by", "player")))
            outcome = Outcome.from_json(data["outcome"]) if data.get("outcome") else None
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"malformed record: {exc!r}") from None
        return cls(
            game=data["game"],
            params=data["params"],
            commitment=data["commitment"],
            players=parsed_players,
            actions=steps,
            seed=seed,
            outcome=outcome,
        )


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


CHECKS = ("record", "commitment", "redeal", "actions", "outcome")


@dataclass(frozen=True, slots=True)
class Problem:
    """What does not check out: which check (one of ``CHECKS``), at which step, and why."""

    check: str
    message: str
    step: int | None = None

    def to_json(self) -> JSON:
        return {"check": self.check, "step": self.step, "message": self.message}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The result of checking a record: ``problems`` is empty exactly when it checks out."""

    problems: tuple[Problem, ...]
    outcome: Outcome | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> JSON:
        return {
            "ok": self.ok,
            "problems": [p.to_json() for p in self.problems],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }


def _failed(check: str, message: str, step: int | None = None) -> Verdict:
    return Verdict((Problem(check, message, step),))


def verify(data: Any, lookup: Callable[[str], Game[Any, Any]]) -> Verdict:
    """Check a finished match, in the order of ``CHECKS``: the record's form, the commitment, the
    re-deal, every action in order, the outcome. Reports the first problem found."""
    try:
        record = MatchRecord.from_json(data)
    except RecordError as exc:
        return _failed("record", str(exc))
    if record.seed is None:
        return _failed("commitment", "the seed is not revealed: the match is not over")
    if commitment(record.seed) != record.commitment.lower():
        return _failed(
            "commitment",
            f"commitment does not match the seed: sha256(seed) = {commitment(record.seed)}, "
            f"the record says {record.commitment}",
        )
    stated_fingerprint = data.get("fingerprint")
    if stated_fingerprint is not None and stated_fingerprint != record.fingerprint:
        return _failed(
            "commitment",
            f"fingerprint {stated_fingerprint} is not the commitment's ({record.fingerprint})",
        )
    try:
        game = lookup(record.game)
        match = Match(game, record.params, record.seed, record.players)
    except (LudotecaError, ValueError) as exc:
        return _failed("redeal", str(exc))
    for n, step in enumerate(record.actions, 1):
        try:
            match.act(step.seat, step.action, step.by)
        except (IllegalActionError, InvalidActionError) as exc:
            return _failed(
                "actions", f"step {n}: seat {step.seat} '{step.action}' is not legal: {exc}", n
            )
    replayed = game.outcome(match.state)
    if replayed is None:
        return _failed("outcome", f"the match is not over after all {len(record.actions)} actions")
    if record.outcome != replayed:
        return Verdict(
            (
                Problem(
                    "outcome",
                    f"outcome differs: the record says {_describe(record.outcome)}, "
                    f"the replay gives {_describe(replayed)}",
                ),
            ),
            replayed,
        )
    return Verdict((), replayed)


def _describe(outcome: Outcome | None) -> str:
    if outcome is None:
        return "no outcome"
    return json.dumps(outcome.to_json(), sort_keys=True)
