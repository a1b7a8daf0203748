"""Match records: the JSON anyone can re-deal and replay (``docs/records.md``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from .ending import ended_problem
from .errors import LudotecaError
from .fairness import (
    FINGERPRINT_BITS,
    Deal,
    canonical_json,
    contribution_problem,
    fingerprint,
    is_hex64,
    salt_problem,
)
from .outcome import Outcome
from .signing import Signature, SigningKey
from .spec import JSON

RECORD_FORMAT = 4
FORMATS = (1, 2, 3, 4, 5)
PRELUDE_FORMAT = 5
"""A table's record: format 4 and the chain from the table's creation (``core.prelude``)."""
_COMMON = {"format", "game", "params", "commitment", "fingerprint", "seed", "players", "actions"}
_SIGNED = _COMMON | {"outcome", "table", "contributions", "secret", "chain", "signature"}
FORMAT_FIELDS = {
    1: _COMMON | {"outcome"},
    2: _SIGNED,
    3: _SIGNED | {"commitments", "salts"},
    4: _SIGNED | {"commitments", "salts"},
    5: _SIGNED | {"commitments", "salts", "prelude", "ended"},
}
Actor = Literal["player", "bot", "table"]
ACTORS: tuple[Actor, ...] = ("player", "bot", "table")


class RecordError(LudotecaError, ValueError):
    """A record that is not a well-formed ludoteca match record."""


@dataclass(frozen=True, slots=True)
class Player:
    """A seat's occupant as the record shows it: bots are always marked. ``bot_from``: a person's
    seat a bot took over (at a turn-based table after timeouts, or when the person resigned),
    after that many steps (its steps from then on are the bot's); absent for a seat that was a
    bot's or a person's throughout."""

    name: str
    bot: bool = False
    level: str | None = None
    bot_from: int | None = None

    def as_dealt(self) -> Player:
        """The seat as it was at the deal: a person's, if a bot took it over later."""
        return self if self.bot_from is None else Player(self.name)

    def to_json(self) -> JSON:
        data: JSON = {"name": self.name, "bot": self.bot}
        if self.level is not None:
            data["level"] = self.level
        if self.bot_from is not None:
            data["bot_from"] = self.bot_from
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
    """A match as the world may check it (``docs/records.md``).

    Format 3 (every match the table or the CLI plays today) carries the table id, every seat's
    commitment, revealed contribution and salt, the server's secret once the match is over, the
    head of the step chain and, once signed, the server's signature. Format 2 (older records) has
    contributions without commitments; format 1 only the seed.
    """

    game: str
    params: JSON
    commitment: str
    players: list[Player]
    actions: list[Step] = field(default_factory=list)
    seed: str | None = None
    outcome: Outcome | None = None
    format: int = RECORD_FORMAT
    table: str | None = None
    contributions: list[str | None] = field(default_factory=list)
    commitments: list[str | None] = field(default_factory=list)
    salts: list[str | None] = field(default_factory=list)
    secret: str | None = None
    chain: str | None = None
    signature: Signature | None = None
    prelude: list[JSON] = field(default_factory=list)
    ended: JSON | None = None
    """Format 5: how a match ended other than by the rules (``core.ending``), or None."""

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.commitment, FINGERPRINT_BITS if self.format >= 2 else 40)

    def to_json(self) -> JSON:
        if self.format == 1:
            return {
                "format": 1,
                "game": self.game,
                "params": self.params,
                "commitment": self.commitment,
                "fingerprint": self.fingerprint,
                "seed": self.seed,
                "players": [p.to_json() for p in self.players],
                "actions": [s.to_json() for s in self.actions],
                "outcome": self.outcome.to_json() if self.outcome else None,
            }
        data: JSON = {
            "format": self.format,
            "game": self.game,
            "params": self.params,
            "table": self.table,
            "commitment": self.commitment,
            "fingerprint": self.fingerprint,
            "contributions": list(self.contributions),
        }
        if self.format >= 3:
            data["commitments"] = list(self.commitments)
            data["salts"] = list(self.salts)
        if self.format >= 5:
            data["prelude"] = list(self.prelude)
        data |= {
            "secret": self.secret,
            "seed": self.seed,
            "players": [p.to_json() for p in self.players],
            "actions": [s.to_json() for s in self.actions],
        }
        if self.ended is not None:
            data["ended"] = dict(self.ended)
        data |= {
            "chain": self.chain,
            "outcome": self.outcome.to_json() if self.outcome else None,
        }
        if self.signature is not None:
            data["signature"] = self.signature.to_json()
        return data

    def payload(self) -> bytes:
        """What a signature covers: the canonical JSON of the record without its signature."""
        data = self.to_json()
        data.pop("signature", None)
        return canonical_json(data)

    def sign(self, key: SigningKey) -> MatchRecord:
        """This record signed with ``key`` (format 2 and later)."""
        if self.format < 2:
            raise RecordError("only format-2 records are signed")
        self.signature = key.sign(self.payload())
        return self

    def deal(self) -> Deal:
        """Where the match's seed came from; RecordError while the secret is not revealed."""
        secret = self.secret if self.format >= 2 else self.seed
        if secret is None:
            raise RecordError("the secret is not revealed: the match is not over")
        if self.format < 2:
            return Deal(secret)
        if self.format < 3:
            return Deal(secret, self.table, tuple(self.contributions))
        return Deal(
            secret,
            self.table,
            tuple(self.contributions),
            tuple(self.commitments),
            tuple(self.salts),
            self.format if self.format >= 4 else None,
            tuple(self.prelude) if self.format >= 5 else None,
        )

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        """Parse a record strictly, saying exactly which field is wrong when it is not one."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        form = data.get("format")
        if type(form) is not int or form not in FORMATS:
            raise RecordError(f"unknown record format {form!r} (expected 1, 2, 3, 4 or 5)")
        known = FORMAT_FIELDS[form]
        unknown = sorted(set(data) - known)
        if unknown:
            raise RecordError(f"unknown field(s) for format {form}: {', '.join(unknown)}")
        for key, kind in (("game", str), ("params", dict)):
            if not isinstance(data.get(key), kind):
                raise RecordError(f"field '{key}' is missing or not a {kind.__name__}")
        for key in ("commitment", *(("secret", "seed", "chain") if form >= 2 else ())):
            value = data.get(key)
            optional = key in ("secret", "seed")
            if not (is_hex64(value) or (optional and value is None)):
                raise RecordError(
                    f"field '{key}' must be 64 lowercase hex digits"
                    + (" or null" if optional else "")
                )
        if form == 1 and not isinstance(data.get("seed"), str | None):
            raise RecordError("field 'seed' must be a text or null")
        players = _players(data.get("players"))
        steps = _steps(data.get("actions"), len(players), strict=form >= 2)
        outcome = _outcome(data.get("outcome"), len(players))
        record = cls(
            game=data["game"],
            params=data["params"],
            commitment=data["commitment"],
            players=players,
            actions=steps,
            seed=data.get("seed"),
            outcome=outcome,
            format=form,
        )
        if form >= 2:
            table = data.get("table")
            if not isinstance(table, str) or not 1 <= len(table) <= 64:
                raise RecordError("field 'table' must be a text of 1 to 64 characters")
            contributions = data.get("contributions")
            if not isinstance(contributions, list) or len(contributions) != len(players):
                raise RecordError("field 'contributions' must be a list with one entry per seat")
            for seat, given in enumerate(contributions):
                problem = None if given is None else contribution_problem(given)
                if problem:
                    raise RecordError(f"contribution of seat {seat}: {problem}")
            record.table, record.contributions = table, contributions
            if form >= 3:
                record.commitments, record.salts = _seat_seeds(data, contributions)
            if form >= 5:
                prelude = data.get("prelude")
                if not isinstance(prelude, list) or not prelude:
                    raise RecordError("field 'prelude' must be a non-empty list of events")
                if not all(isinstance(e, dict) for e in prelude):
                    raise RecordError("field 'prelude': every event is an object")
                record.prelude = prelude
                if "ended" in data:  # null too: everything a record carries is signed
                    problem = ended_problem(data["ended"], len(players))
                    if problem:
                        raise RecordError(problem)
                    record.ended = data["ended"]
            record.secret, record.chain = data.get("secret"), data["chain"]
            if "signature" in data:
                try:
                    record.signature = Signature.from_json(data["signature"])
                except ValueError as exc:
                    raise RecordError(str(exc)) from None
        return record


def _seat_seeds(
    data: dict[str, Any], contributions: list[str | None]
) -> tuple[list[str | None], list[str | None]]:
    """Format 3's ``commitments`` and ``salts``, one per seat; a seat reveals its contribution
    and its salt together, and only after committing."""
    seats = len(contributions)
    lists = []
    for key in ("commitments", "salts"):
        given = data.get(key)
        if not isinstance(given, list) or len(given) != seats:
            raise RecordError(f"field '{key}' must be a list with one entry per seat")
        lists.append(given)
    commitments, salts = lists
    for seat, promised in enumerate(commitments):
        if promised is not None and not is_hex64(promised):
            raise RecordError(f"commitment of seat {seat}: 64 lowercase hex digits or null")
    for seat, salt in enumerate(salts):
        problem = None if salt is None else salt_problem(salt)
        if problem:
            raise RecordError(f"salt of seat {seat}: {problem}")
    for seat, (promised, given, salt) in enumerate(
        zip(commitments, contributions, salts, strict=True)
    ):
        if (given is None) != (salt is None) or (given is not None and promised is None):
            raise RecordError(
                f"seat {seat}: a contribution is revealed with its salt, "
                "and only by a seat that committed"
            )
    return commitments, salts


def seats_problem(record: MatchRecord) -> str | None:
    """Format 4: why the seats do not fit the steps and the deal, or None (``docs/fairness.md``,
    the seats). A bot's seat (``bot`` and no ``bot_from``) commits to nothing and every one of
    its steps is ``by: "bot"``; a person's seat's steps are ``player`` or ``table`` (the clock
    ran out); a seat a bot took over after step ``bot_from`` (at most the number of steps) is a
    person's up to that step and the bot's after it."""
    players, steps = record.players, record.actions
    for seat, (player, promised) in enumerate(zip(players, record.commitments, strict=True)):
        if player.bot and player.bot_from is None and promised is not None:
            return f"seat {seat} is a bot's, and a bot commits to nothing"
        if player.bot_from is not None and player.bot_from > len(steps):
            return (
                f"seat {seat} was taken over after step {player.bot_from}, "
                f"but the match has {len(steps)} steps"
            )
    for n, step in enumerate(steps, 1):
        player = players[step.seat]
        bot = player.bot and (player.bot_from is None or n > player.bot_from)
        if bot != (step.by == "bot"):
            whose = "a bot's" if bot else "a person's"
            return f"step {n}: seat {step.seat} is {whose} at this step, so 'by' is not {step.by!r}"
    return None


def _players(players: Any) -> list[Player]:
    if not isinstance(players, list) or not players:
        raise RecordError("field 'players' must be a non-empty list")
    parsed = []
    for n, p in enumerate(players):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise RecordError(f"player {n}: needs a text 'name'")
        _no_other_fields(p, {"name", "bot", "level", "bot_from"}, f"player {n}")
        if not isinstance(p.get("bot"), bool):
            raise RecordError(f"player {n}: 'bot' must be true or false")
        level = p.get("level")
        if level is not None and not isinstance(level, str):
            raise RecordError(f"player {n}: 'level' must be a text")
        since = p.get("bot_from")
        if since is not None and (
            not isinstance(since, int) or isinstance(since, bool) or since < 0 or not p["bot"]
        ):
            raise RecordError(
                f"player {n}: 'bot_from' must be a step number (0 or more), and only for a bot"
            )
        parsed.append(Player(p["name"], p["bot"], level, since))
    return parsed


def _steps(actions: Any, players: int, strict: bool) -> list[Step]:
    if not isinstance(actions, list):
        raise RecordError("field 'actions' must be a list")
    steps = []
    for n, a in enumerate(actions, 1):
        if not isinstance(a, dict):
            raise RecordError(f"step {n}: must be an object")
        _no_other_fields(a, {"seat", "action", "by"}, f"step {n}")
        seat, text = a.get("seat"), a.get("action")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise RecordError(f"step {n}: 'seat' must be a seat number from 0 to {players - 1}")
        if not isinstance(text, str):
            raise RecordError(f"step {n}: 'action' must be a text")
        by = a.get("by", None if strict else "player")
        if by not in ACTORS:
            raise RecordError(f"step {n}: 'by' must be one of {', '.join(ACTORS)}")
        steps.append(Step(seat, text, by))
    return steps


def _outcome(data: Any, players: int) -> Outcome | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise RecordError("field 'outcome' must be an object or null")
    _no_other_fields(data, {"winners", "reason", "draw", "scores"}, "outcome")
    winners, reason = data.get("winners"), data.get("reason")
    if not isinstance(winners, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players for s in winners
    ):
        raise RecordError("outcome 'winners' must be a list of seat numbers")
    if not isinstance(reason, str) or not isinstance(data.get("draw", False), bool):
        raise RecordError("outcome needs a text 'reason' and a true/false 'draw'")
    scores = data.get("scores", [])
    if not isinstance(scores, list) or not all(
        isinstance(x, int | float) and not isinstance(x, bool) for x in scores
    ):
        raise RecordError("outcome 'scores' must be a list of numbers")
    return Outcome(tuple(winners), reason, data.get("draw", False), tuple(scores))


def _no_other_fields(data: dict[str, Any], allowed: set[str], where: str) -> None:
    """Every field of a record is covered by its signature: nothing unknown may ride along."""
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise RecordError(f"{where}: unknown field(s) {', '.join(unknown)}")
