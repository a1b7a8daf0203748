"""The match authority: the one checked path from a seat's action text to a committed step.

Everything that plays a match goes through ``Match``: the server, the CLI, the bots' tournaments,
the verifier and the conformance suite. It checks an action once — match live, seat to move, text
parses, action legal, version current — prepares its result on a copy, and commits it when the
caller (the server, after storing it) says so. It replays stored steps, decides what each seat sees
and when the seed is revealed, and writes the record. ``Game`` keeps only the rules primitives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .ending import end_event, ended_outcome, ended_problem, ending_problem
from .errors import (
    IllegalActionError,
    InvalidActionError,
    MatchOverError,
    NotYourTurnError,
    ReplayError,
    StaleVersionError,
)
from .fairness import (
    CHAIN_DOMAIN,
    CHAIN_DOMAIN_4,
    Deal,
    chain_next,
    chain_start,
    fingerprint,
    takeover_event,
)
from .game import Game
from .outcome import Event, Outcome
from .prelude import prelude_heads
from .record import Actor, MatchRecord, Player, Step
from .spec import JSON


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
        deal: Deal | str,
        players: Sequence[Player] | None = None,
    ) -> None:
        self.game = game
        self.params = game.spec.params(params)
        self.deal = deal if isinstance(deal, Deal) else Deal(deal)
        self.seed = self.deal.seed
        self.commitment = self.deal.commitment
        self.fingerprint = fingerprint(self.commitment)
        self.state, self.opening_events = game.new_with_events(self.params, self.seed)
        count = game.players(self.state)
        self.players = (
            list(players)
            if players is not None
            else [Player(f"seat {i + 1}") for i in range(count)]
        )
        if len(self.players) != count:
            raise ValueError(f"{count} seats but {len(self.players)} players given")
        for name in ("contributions", "commitments", "salts"):
            given = getattr(self.deal, name)
            if given is not None and len(given) != count:
                raise ValueError(f"{count} seats but {len(given)} {name} given")
        self.steps: list[Step] = []
        self.prelude_chain = prelude_heads(self.deal.prelude or ()) if self.deal.format >= 5 else []
        """Format 5: the head after each event from the table's creation to the deal."""
        if self.prelude_chain:
            self.chain = [chain_next(self.prelude_chain[-1], self.header())]
        else:
            domain = CHAIN_DOMAIN_4 if self.deal.format >= 4 else CHAIN_DOMAIN
            self.chain = [chain_start(self.header(), domain)]
        """The chain's head after each version (index = version); format 4: after the step and
        the takeovers it led to; an ended match's last head binds the end (``end``)."""
        self.ended: JSON | None = None
        """How the match ended other than by the rules (``core.ending``), or None."""
        self.unended: str | None = None
        """An ended match: the last head before the end's link (a receipt may hold it)."""
        self._take_overs()

    def __repr__(self) -> str:  # never the seed: reprs end up in logs
        return f"<Match {self.game.spec.id} {self.fingerprint} v{self.version}>"

    # ------------------------------------------------------------------------ the position
    @property
    def version(self) -> int:
        """How many actions have been accepted (a client sends the version it saw)."""
        return len(self.steps)

    @property
    def to_move(self) -> int | None:
        return None if self.ended is not None else self.game.to_move(self.state)

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """The result (in the one shape records use, as every game gives it), None while playing;
        an ended match's is the ending's (``core.ending``: no result, or a resign's winner)."""
        if self.ended is not None:
            return ended_outcome(self.ended)
        return self.game.outcome(self.state)

    @property
    def revealed_seed(self) -> str | None:
        """The seed once the match is over, else None: the one place that decides the reveal."""
        return self.seed if self.over else None

    @property
    def revealed_secret(self) -> str | None:
        return self.deal.secret if self.over else None

    def header(self) -> JSON:
        """What the chain starts from: the match as it was dealt, before any action (format 3
        adds every seat's commitment; format 4 has the seats as dealt: a seat a bot took over
        later is the person's, ``{name, bot: false}``, its takeover a chain event)."""
        players = self.players
        if self.deal.format >= 4:  # format 5 too: the deal's link is format 4's header
            players = [p.as_dealt() for p in players]
        header: JSON = {
            "game": self.game.spec.id,
            "params": self.params,
            "table": self.deal.table,
            "commitment": self.commitment,
            "contributions": list(self.deal.contributions or ()),
            "players": [p.to_json() for p in players],
        }
        if self.deal.commitments is not None:
            header["commitments"] = list(self.deal.commitments)
        return header

    # --------------------------------------------------------------------------- acting
    def prepare(self, seat: int, text: str, version: int | None = None) -> Prepared:
        """Check ``seat``'s action text and compute its result on a copy; raises if bad.

        The checks run once each, in this order: the match is live (MatchOverError), ``seat`` is
        to move (NotYourTurnError), the text parses (InvalidActionError), the action is legal
        (IllegalActionError), and ``version``, when given, is current (StaleVersionError).
        Nothing changes when any of them fails.
        """
        state = self.state
        to_move = self.to_move
        if to_move is None:
            raise MatchOverError("the match is over")
        if seat != to_move:
            raise NotYourTurnError(
                f"it is not seat {seat + 1}'s turn (seat {to_move + 1} is to move)"
            )
        action = self.game.check(state, text)
        if version is not None and version != self.version:
            raise StaleVersionError(
                f"you acted on version {version} but the match is at version {self.version}"
            )
        canonical = self.game.action_to_text(state, action)
        after = state.clone()
        events = self.game.apply_unchecked(after, action)
        return Prepared(seat, canonical, after, events, self.version)

    def commit(self, prepared: Prepared, by: Actor = "player") -> list[Event]:
        """Make a prepared action part of the match (it must have been prepared at this version)."""
        if prepared.base_version != self.version:
            raise StaleVersionError("the match moved on since this action was prepared")
        step = Step(prepared.seat, prepared.text, by)
        self.state = prepared.state
        self.steps.append(step)
        self.chain.append(chain_next(self.chain[-1], step.to_json()))
        self._take_overs()
        return prepared.events

    def take_over(self, seat: int, level: str | None) -> None:
        """A bot takes the person's seat over after the step just committed (a turn-based table
        after too many timeouts, or a person who resigned): the seat is the bot's from now on
        (``bot_from`` = this version) and, format 4, the takeover extends the chain's head at
        this version. Earlier formats only mark the seat (their chain never bound a takeover)."""
        if self.players[seat].bot_from is not None:
            raise ValueError(f"seat {seat} was already taken over")
        if self.ended is not None:
            raise ValueError("the match has ended")
        self.players[seat] = Player(self.players[seat].name, True, level, self.version)
        self.chain[-1] = self._unbound  # every takeover at this version again, in seat order
        self._take_overs()

    def _take_overs(self) -> None:
        """Format 4: extend the head with the takeover of every seat taken over at this version
        (a match rebuilt from its final seats: a record replayed, a table read again), in the
        order of the seats however many are taken over at once (as the verifiers link them)."""
        self._unbound = self.chain[-1]
        if self.deal.format < 4:
            return
        for seat, player in enumerate(self.players):
            if player.bot_from == self.version:
                self.chain[-1] = chain_next(self.chain[-1], takeover_event(seat, player.level))

    def ending_problem(self, ended: JSON) -> str | None:
        """Why this match cannot end as ``ended`` now, or None (``core.ending``)."""
        if self.ended is not None:
            return "the match has ended already"
        if self.deal.format < 5:
            return f"a record of format {self.deal.format} cannot state an end: play it out"
        return ended_problem(ended, len(self.players)) or ending_problem(
            self.players, self.steps, self.over, ended
        )

    def end(self, ended: JSON) -> None:
        """End the match other than by the rules (aborted, by the operator, or resigned at 2
        seats): no seat moves again, the outcome is ``core.ending``'s (no result, or the other
        seat wins a resign), and the chain's last head binds the end.
        MatchOverError (nothing changed) when ``ending_problem`` says why not."""
        problem = self.ending_problem(ended)
        if problem:
            raise MatchOverError(problem)
        self.unended = self.chain[-1]
        self.chain[-1] = chain_next(self.chain[-1], end_event(ended))
        self.ended = dict(ended)

    def act(self, seat: int, text: str, by: Actor = "player") -> list[Event]:
        """Apply ``seat``'s action text, or raise (state untouched) saying why not."""
        return self.commit(self.prepare(seat, text), by)

    # ---------------------------------------------------------------------------- seeing
    def legal(self, seat: int | None) -> list[str]:
        """The action texts ``seat`` may send now ([] unless it is that seat's turn)."""
        if seat is None or self.over or self.to_move != seat:
            return []
        return self.game.legal_texts(self.state)

    def legal_choices(self, seat: int | None) -> list[JSON]:
        """The actions ``seat`` may send now as data, ``{text, kind, args}`` in the order of
        ``legal`` ([] unless it is that seat's turn); the texts are ``legal``'s."""
        if seat is None or self.over or self.to_move != seat:
            return []
        return self.game.legal_choices(self.state)

    def view(self, seat: int | None) -> JSON:
        """What the table shows a seat (None = a spectator): its observation, whose turn it is,
        the result, the commitment and fingerprint, and the seed once the match is over."""
        outcome = self.outcome
        return {
            "game": self.game.spec.id,
            "players": len(self.players),
            "seat": seat,
            "to_move": self.to_move,
            "over": outcome is not None,
            "outcome": outcome.to_json() if outcome else None,
            "ended": self.ended,
            "commitment": self.commitment,
            "fingerprint": self.fingerprint,
            "contributions": list(self.deal.contributions or ()),
            "commitments": list(self.deal.commitments or ()),
            "chain": self.chain[-1],
            "secret": self.revealed_secret,
            "seed": self.revealed_seed,
            "position": self.game.observation(self.state, seat),
        }

    def record(self) -> MatchRecord:
        """The record so far; the seed and outcome appear only once the match is over."""
        return MatchRecord(
            game=self.game.spec.id,
            params=dict(self.params),
            commitment=self.commitment,
            players=list(self.players),
            actions=list(self.steps),
            seed=self.revealed_seed,
            outcome=self.outcome,
            format=self.deal.format,
            table=self.deal.table,
            contributions=list(self.deal.contributions or ()),
            commitments=list(self.deal.commitments or ()),
            salts=list(self.deal.salts or ()),
            secret=self.revealed_secret if self.deal.format >= 2 else None,
            chain=self.chain[-1],
            prelude=list(self.deal.prelude or ()),
            ended=self.ended,
        )

    # --------------------------------------------------------------------------- replay
    def replay_steps(self, steps: Sequence[Step]) -> list[list[Event]]:
        """Apply stored steps in order; ReplayError (naming the step) at the first that does not
        apply, with the match left at the step before it. Returns each step's events."""
        done: list[list[Event]] = []
        for step in steps:
            try:
                prepared = self.prepare(step.seat, step.action)
            except (IllegalActionError, InvalidActionError) as exc:
                raise ReplayError(
                    self.version + 1, f"seat {step.seat} '{step.action}' is not legal: {exc}"
                ) from None
            if prepared.text != step.action:
                raise ReplayError(
                    self.version + 1,
                    f"'{step.action}' is not written in its canonical form '{prepared.text}'",
                )
            done.append(self.commit(prepared, step.by))
        return done

    @classmethod
    def replay(
        cls,
        game: Game[Any, Any],
        params: Mapping[str, Any] | None,
        deal: Deal | str,
        players: Sequence[Player] | None,
        steps: Sequence[Step],
    ) -> Match:
        """Rebuild a match from its deal and steps; ReplayError at the first that does not apply."""
        match = cls(game, params, deal, players)
        match.replay_steps(steps)
        return match
