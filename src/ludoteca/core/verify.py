"""Checking a finished match record: commitment, re-deal, every action, outcome."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import LudotecaError, ReplayError
from .fairness import commitment
from .game import JSON, Game, Outcome
from .match import Match
from .record import MatchRecord, RecordError

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
    try:
        match.replay_steps(record.actions)
    except ReplayError as exc:
        return _failed("actions", str(exc), exc.step)
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
