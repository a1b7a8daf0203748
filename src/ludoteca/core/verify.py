"""Checking a finished match record: form, signature, the seats (format 4), commitment, each
seat's reveal, seed, re-deal, every action, the chain, the outcome, and any receipts kept
(``docs/records.md``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from .ending import end_event
from .errors import LudotecaError, ReplayError
from .fairness import chain_next, commitment, is_hex64, seat_commitment
from .game import Game
from .match import Match
from .outcome import Outcome
from .prelude import prelude_problem
from .record import MatchRecord, RecordError, seats_problem
from .signing import key_fingerprint
from .spec import JSON

CHECKS = (
    "record",
    "signature",
    "seats",
    "prelude",
    "commitment",
    "reveal",
    "seed",
    "redeal",
    "actions",
    "chain",
    "outcome",
    "receipt",
)
FORMAT_1_NOTE = (
    "format 1: the server alone chose this seed and the record carries no chain and no "
    "signature, so it proves that the deal came from the committed seed and that every action "
    "is legal, not who chose the seed nor that this is the record the table played"
)


@dataclass(frozen=True, slots=True)
class Problem:
    """What does not check out: which check (one of ``CHECKS``), at which step, and why."""

    check: str
    message: str
    step: int | None = None

    def to_json(self) -> JSON:
        return {"check": self.check, "step": self.step, "message": self.message}


@dataclass(frozen=True, slots=True)
class Receipt:
    """What a player was shown at one version of a match: the chain's head then. Format 5, before
    the deal: ``prelude`` is how many events of the prelude the head covers (``version`` is then
    0 and unused)."""

    table: str
    version: int
    chain: str
    prelude: int | None = None

    @classmethod
    def from_json(cls, data: Any) -> Receipt:
        if not isinstance(data, dict):
            raise ValueError("a receipt is an object with 'table', 'version' and 'chain'")
        table, version, chain = data.get("table"), data.get("version"), data.get("chain")
        events = data.get("prelude")
        if events is not None:
            if (
                version is not None
                or not isinstance(events, int)
                or isinstance(events, bool)
                or events < 1
            ):
                raise ValueError(
                    "a receipt before the deal has a whole-number 'prelude' (1 or more) "
                    "and no 'version'"
                )
            version = 0
        if not isinstance(table, str) or not isinstance(version, int) or isinstance(version, bool):
            raise ValueError("a receipt needs a text 'table' and a whole-number 'version'")
        if version < 0 or not is_hex64(chain):
            raise ValueError("a receipt's 'chain' is 64 lowercase hex digits, its version >= 0")
        return cls(table, version, str(chain), events)

    def to_json(self) -> JSON:
        if self.prelude is not None:
            return {"table": self.table, "prelude": self.prelude, "chain": self.chain}
        return {"table": self.table, "version": self.version, "chain": self.chain}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The result of checking a record: ``problems`` is empty exactly when it checks out.

    ``notes`` say what a valid record still cannot prove (format 1); ``key_id`` and
    ``key_fingerprint`` name the key that signed it (format 2).
    """

    problems: tuple[Problem, ...]
    outcome: Outcome | None = None
    notes: tuple[str, ...] = ()
    key_id: str | None = None
    key_fingerprint: str | None = None
    receipts: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> JSON:
        return {
            "ok": self.ok,
            "problems": [p.to_json() for p in self.problems],
            "outcome": self.outcome.to_json() if self.outcome else None,
            "notes": list(self.notes),
            "key_id": self.key_id,
            "key_fingerprint": self.key_fingerprint,
            "receipts": self.receipts,
        }


def verify(
    data: Any,
    lookup: Callable[[str], Game[Any, Any]],
    *,
    receipts: Sequence[Receipt] = (),
    trusted_keys: Collection[str] | None = None,
) -> Verdict:
    """Check a finished match, in the order of ``CHECKS``; report the first problem found.

    ``receipts`` are chain heads a player was shown; ``trusted_keys`` (public keys, hex) are the
    keys the server publishes: when given, the record must be signed by one of them.
    """
    try:
        record = MatchRecord.from_json(data)
    except RecordError as exc:
        return _failed("record", str(exc))
    found: dict[str, Any] = {}
    if record.format >= 2 and record.secret is None:
        return _failed("commitment", "the secret is not revealed: the match is not over")
    if record.format >= 2:
        signature = record.signature
        if signature is None:
            return _failed("signature", "the record is not signed")
        problem = signature.problem(record.payload())
        if problem:
            return _failed("signature", problem)
        if trusted_keys is not None and signature.public_key not in trusted_keys:
            return _failed(
                "signature",
                f"key {signature.key_id} is not one of the keys given as the server's",
            )
        found = {
            "key_id": signature.key_id,
            "key_fingerprint": key_fingerprint(signature.public_key),
        }
    elif trusted_keys is not None or receipts:
        return _failed("signature", "a format-1 record is neither signed nor chained")
    if record.format >= 4:
        problem = seats_problem(record)
        if problem:
            return _failed("seats", problem)
    if record.format >= 5:
        problem = prelude_problem(
            record.prelude,
            game=record.game,
            params=record.params,
            table=record.table,
            commitment=record.commitment,
            players=[(p.name, p.bot, p.level) for p in (q.as_dealt() for q in record.players)],
            commitments=record.commitments,
            contributions=record.contributions,
            salts=record.salts,
        )
        if problem:
            return _failed("prelude", problem)
    secret = record.secret if record.format >= 2 else record.seed
    if secret is None or record.seed is None:
        return _failed("commitment", "the seed is not revealed: the match is not over")
    if commitment(secret) != record.commitment:
        what = "secret" if record.format >= 2 else "seed"
        return _failed(
            "commitment",
            f"commitment does not match the {what}: sha256({what}) = {commitment(secret)}, "
            f"the record says {record.commitment}",
        )
    stated_fingerprint = data.get("fingerprint")
    if stated_fingerprint is not None and stated_fingerprint != record.fingerprint:
        return _failed(
            "commitment",
            f"fingerprint {stated_fingerprint} is not the commitment's ({record.fingerprint})",
        )
    deal = record.deal()
    if record.format >= 3:
        for seat, (given, salt, promised) in enumerate(
            zip(record.contributions, record.salts, record.commitments, strict=True)
        ):
            if given is not None and salt is not None and seat_commitment(given, salt) != promised:
                return _failed(
                    "reveal",
                    f"the reveal of seat {seat} does not match its commitment: "
                    f"sha256(contribution, salt) = {seat_commitment(given, salt)}, "
                    f"the record says {promised}",
                )
    if record.format >= 2:
        expected = deal.seed
        if record.seed != expected:
            what = "reveals" if record.format >= 3 else "contributions"
            return _failed(
                "seed", f"the seed is not HMAC-SHA-256(secret, table and {what}) = {expected}"
            )
    try:
        game = lookup(record.game)
        match = Match(game, record.params, deal, record.players)
    except (LudotecaError, ValueError) as exc:
        return _failed("redeal", str(exc))
    try:
        match.replay_steps(record.actions)
    except ReplayError as exc:
        return _failed("actions", str(exc), exc.step)
    head = match.chain[-1]
    if record.ended is not None:
        head = chain_next(head, end_event(record.ended))
    if record.format >= 2 and record.chain != head:
        return _failed("chain", f"the chain head is {head}, the record says {record.chain}")
    if record.ended is not None:
        problem = match.ending_problem(record.ended)
        if problem:
            return _failed("outcome", problem)
        match.end(record.ended)
    replayed = match.outcome
    if replayed is None:
        return _failed("outcome", f"the match is not over after all {len(record.actions)} actions")
    stated = record.outcome
    if record.format == 1 and stated is not None:
        stated = stated.canonical(len(record.players))  # format 1 had two shapes for a shared end
    if stated != replayed:
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
    for receipt in receipts:
        problem = _receipt_problem(receipt, record, match)
        if problem:
            return _failed("receipt", problem, receipt.version)
    notes = (FORMAT_1_NOTE,) if record.format == 1 else ()
    return Verdict((), replayed, notes, receipts=len(receipts), **found)


def _receipt_problem(receipt: Receipt, record: MatchRecord, match: Match) -> str | None:
    if receipt.table != record.table:
        return f"the receipt is for table {receipt.table}, the record for table {record.table}"
    if receipt.prelude is not None:
        heads = match.prelude_chain
        if receipt.prelude > len(heads):
            return (
                f"the receipt is for event {receipt.prelude} before the deal; "
                f"the record's prelude has {len(heads)}"
            )
        if heads[receipt.prelude - 1] != receipt.chain:
            return (
                f"after event {receipt.prelude} before the deal the player was shown chain head "
                f"{receipt.chain}, the record gives {heads[receipt.prelude - 1]}"
            )
        return None
    if receipt.version >= len(match.chain):
        return f"the receipt is for version {receipt.version}; the record ends at {match.version}"
    if match.chain[receipt.version] != receipt.chain and not (
        receipt.version == match.version and match.unended == receipt.chain
    ):  # an ended match: a receipt taken at its last version before the end holds the head then
        return (
            f"at version {receipt.version} the player was shown chain head {receipt.chain}, "
            f"the record gives {match.chain[receipt.version]}"
        )
    return None


def _failed(check: str, message: str, step: int | None = None) -> Verdict:
    return Verdict((Problem(check, message, step),))


def _describe(outcome: Outcome | None) -> str:
    if outcome is None:
        return "no outcome"
    return json.dumps(outcome.to_json(), sort_keys=True)
