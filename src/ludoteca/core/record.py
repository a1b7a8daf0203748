"""Match records: the JSON anyone can re-deal and replay (``docs/records.md``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import LudotecaError
from .fairness import fingerprint
from .game import JSON, Outcome

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
