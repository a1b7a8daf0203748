"""The terminal table (``ludoteca play``): a match against bots, in a terminal.

Each turn shows the board, the legal actions numbered (type ``3`` or the action itself) and the
clock; events are told as sentences in the game's own words (``Game.words``, from the game's
package), seats counted from 1. On a real terminal the screen is redrawn in place (ANSI escapes)
and the clock in the prompt counts down every second while you type; elsewhere (a pipe, a file)
the output is plain lines, and a board that changed prints only its changed lines. At the end the
record is written to a file and its path printed, with the table id and the seed, so the match can
be checked and dealt again (``docs/fairness.md``). A game with no words of its own gets a plain
line per event: its kind in words and its fields. ``resign`` against one bot ends the match, the
bot the winner (the record's ``ended``, as at the server); against more, it hands the seat to a
bot for the rest of the match (marked in the record, as at the server); ``abort``, before the
person's first move, ends the match with no result (the record's ``ended``, as at the server).
"""

from __future__ import annotations

import contextlib
import json
import random
import select
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from ludoteca.core import (
    Bot,
    Event,
    Game,
    IllegalActionError,
    InvalidActionError,
    Match,
    SigningKey,
    decide,
)
from ludoteca.core.ending import aborted, resigned

SEAT_FIELDS = {"seat", "rival", "first", "holder", "by"}
LISTED = 60
"""At most this many legal actions are listed each turn (every one is still picked by number)."""
LOG_LINES = 8
"""Events kept on screen below the board on a real terminal."""
CLEAR = "\x1b[H\x1b[2J"
SAVE, RESTORE = "\x1b7", "\x1b8"


def _field(name: str, value: Any) -> str | None:
    if value is None or value in ([], {}):
        return None
    if name in SEAT_FIELDS and isinstance(value, int):
        return f"{name} {value + 1}"
    if name == "winners" and isinstance(value, list):
        return "winners " + ", ".join(str(v + 1) for v in value)
    if isinstance(value, list):
        return f"{name.replace('_', ' ')} " + ", ".join(
            json.dumps(v) if isinstance(v, dict | list) else str(v) for v in value
        )
    if isinstance(value, dict):
        return f"{name.replace('_', ' ')} {json.dumps(value)}"
    return f"{name.replace('_', ' ')} {value}"


def plain_sentence(event: Mapping[str, Any]) -> str:
    """A readable line for any event: its kind in words, then its fields (seats from 1)."""
    kind = str(event["kind"]).replace("_", " ")
    fields = [f for k, v in event.items() if k != "kind" and (f := _field(k, v))]
    return kind[:1].upper() + kind[1:] + (": " + "; ".join(fields) if fields else "") + "."


class Terminal:
    """What the terminal says for a game, in a language: the game's own words, else plain."""

    def __init__(self, game: Game[Any, Any], lang: str = "en") -> None:
        self.words = game.words(lang)

    def sentence(self, event: Mapping[str, Any], position: Mapping[str, Any] | None = None) -> str:
        """The event in words; ``position`` (the seat's view of the table) names the game's
        pieces and places as the web page does."""
        said = self.words.sentence(event, position) if self.words else None
        return said or plain_sentence(event)

    def board(self, position: Mapping[str, Any]) -> str | None:
        return self.words.board(position) if self.words else None


def clock(seconds: float) -> str:
    """``1:05`` from seconds (rounded up, never below zero), as on the web table."""
    total = max(0, -int(-seconds // 1))
    return f"{total // 60}:{total % 60:02d}"


def choices_text(texts: list[str], width: int = 100) -> str:
    """The legal actions numbered from 1, in columns (the first ``LISTED`` of them)."""
    shown = [f"{n:>3} {text}" for n, text in enumerate(texts[:LISTED], 1)]
    if not shown:
        return ""
    column = max(len(s) for s in shown) + 2
    per_row = max(1, width // column)
    rows = [
        "".join(s.ljust(column) for s in shown[i : i + per_row]).rstrip()
        for i in range(0, len(shown), per_row)
    ]
    if len(texts) > LISTED:
        rows.append(f"    ... and {len(texts) - LISTED} more: '?' lists them all")
    return "\n".join(rows)


def changed_lines(before: str | None, after: str) -> str:
    """The lines of ``after`` that differ from ``before`` (all of them when the shape changed)."""
    if before is None:
        return after
    old, new = before.splitlines(), after.splitlines()
    if len(old) != len(new):
        return after
    return "\n".join(line for line, was in zip(new, old, strict=True) if line != was)


class Keyboard(Protocol):
    """Where the terminal table reads a person's lines."""

    def ready(self, timeout: float) -> bool:
        """Whether a line can be read now, waiting at most ``timeout`` seconds."""

    def readline(self) -> str:
        """The next line ('' at the end of the input)."""


class StreamKeyboard:
    """Lines from a stream; on a real terminal ``ready`` waits on it (``select``), elsewhere a
    line is always ready (a pipe is read line by line, its clock checked after each)."""

    def __init__(self, stream: TextIO, live: bool) -> None:
        self.stream = stream
        self.live = live

    def ready(self, timeout: float) -> bool:
        if not self.live:
            return True
        found, _, _ = select.select([self.stream], [], [], max(0.0, timeout))
        return bool(found)

    def readline(self) -> str:
        return self.stream.readline()


class TerminalTable:
    """One match in the terminal: the person at ``human``, bots at the other seats."""

    def __init__(
        self,
        match: Match,
        human: int,
        bots: Mapping[int, Bot],
        *,
        term: Terminal,
        out: TextIO,
        keys: Keyboard,
        turn_seconds: float = 0,
        live: bool = False,
        record_path: Path | None = None,
        now: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        width: int = 100,
    ) -> None:
        self.match, self.game, self.human, self.bots = match, match.game, human, dict(bots)
        self.term, self.out, self.keys = term, out, keys
        self.turn_seconds, self.live, self.now = turn_seconds, live, now
        self.record_path = record_path
        self.rng = rng or random.Random()
        self.width = width
        self.log: list[str] = []
        self.shown_board: str | None = None
        self.intro: list[str] = []

    # ------------------------------------------------------------------------------ output
    def write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()

    def tell(self, events: list[Event]) -> None:
        """Events as sentences: printed at once, and kept for the screen's log."""
        position = self.match.view(self.human)["position"]  # names the pieces and places
        for event in events:
            line = f"  · {self.term.sentence(event.for_seat(self.human), position)}"
            self.log.append(line)
            if not self.live:
                self.write(line + "\n")

    def board(self) -> str:
        view = self.match.view(self.human)
        drawn = self.term.board(view["position"])
        return drawn or self.game.describe(self.match.state, self.human)

    def prompt(self, remaining: float | None) -> str:
        return (f"{clock(remaining)} " if remaining is not None else "") + "> "

    def show_turn(self, texts: list[str], remaining: float | None) -> None:
        """The board, the numbered actions and the prompt: the whole screen redrawn on a real
        terminal, else the board's changed lines and the rest as plain lines."""
        board = self.board()
        turn = f"Your turn (seat {self.human + 1})" + (
            f" · {clock(remaining)} on the clock." if remaining is not None else "."
        )
        if self.live:
            parts = [*self.intro, "", board, "", *self.log[-LOG_LINES:], "", turn]
            self.write(CLEAR + "\n".join(parts) + "\n" + choices_text(texts, self.width) + "\n")
        else:
            lines = changed_lines(self.shown_board, board)
            if lines:
                self.write("\n" + lines + "\n")
            self.write(f"{turn}\n{choices_text(texts, self.width)}\n")
        self.shown_board = board
        self.write(self.prompt(remaining))

    def tick(self, remaining: float) -> None:
        """The clock in the prompt, rewritten in place (the typed text stays where it is)."""
        self.write(f"{SAVE}\r{clock(remaining)}{RESTORE}")

    # ------------------------------------------------------------------------------- play
    def run(self) -> int:
        """Play to the end (0) or until the person leaves (1)."""
        match = self.match
        for line in self.intro:
            self.write(line + "\n")
        self.tell(match.opening_events)
        while (seat := match.to_move) is not None:
            if seat in self.bots:
                action = decide(self.bots[seat], self.game, match.state, seat, self.rng)
                text = self.game.action_to_text(match.state, action)
                events = match.act(seat, text, by="bot")
                self.log.append(f"Seat {seat + 1} ({match.players[seat].name}) plays {text}.")
                if not self.live:
                    self.write(self.log[-1] + "\n")
                self.tell(events)
            elif not self.turn():
                self.write("You left the match.\n")
                return 1
        self.finish()
        return 0

    def turn(self) -> bool:
        """The person's turn: False when they leave."""
        match, game = self.match, self.game
        choices = game.legal_texts(match.state)
        limit = self.turn_seconds
        deadline = self.now() + limit if limit else None
        self.show_turn(choices, limit or None)
        while True:
            remaining = None if deadline is None else deadline - self.now()
            if remaining is not None and remaining <= 0:
                self.time_out(clock(limit))
                return True
            if not self.keys.ready(min(1.0, remaining) if remaining is not None else 3600.0):
                if remaining is not None and self.live:
                    self.tick(deadline - self.now() if deadline is not None else 0)
                continue
            line = self.keys.readline()
            if not line:
                return False
            text = line.strip()
            if deadline is not None and self.now() > deadline:
                self.time_out(clock(self.now() - deadline + limit))
                return True
            if text.lower() in {"quit", "exit", "q"}:
                return False
            if text.lower() == "resign" and self.resign():
                return True
            if text.lower() == "abort" and self.abort():
                return True
            if text in {"?", "help", "h"}:
                self.write("Legal actions:\n  " + "\n  ".join(choices) + "\n")
            elif text:
                chosen = self.chosen(text, choices)
                if chosen is not None:
                    try:
                        events = match.act(self.human, chosen)
                    except (InvalidActionError, IllegalActionError) as exc:
                        self.write(f"Not possible: {exc}. Type '?' to list the legal actions.\n")
                    else:
                        self.log.append(f"You play {chosen}.")
                        self.tell(events)
                        return True
            left = None if deadline is None else deadline - self.now()
            self.write(self.prompt(left))

    def chosen(self, text: str, choices: list[str]) -> str | None:
        """The action a typed line names: a number picks from the list, anything else is the
        action's text (None, said why, for a number out of range)."""
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(choices):
                return choices[n - 1]
            self.write(f"There is no action {n}: type 1 to {len(choices)}, or the action.\n")
            return None
        return text

    def resign(self) -> bool:
        """The person resigns, as at the server: against one bot the match ends at once, the bot
        the winner (``ended``); against more, the game's heuristic bot plays the seat to the end,
        and the record marks the seat as a bot's from here on (``bot_from``)."""
        if len(self.match.players) == 2:
            problem = self.match.ending_problem(resigned(self.human))
            if problem:
                self.write(f"You cannot resign: {problem}.\n")
                return False
            self.match.end(resigned(self.human))
            line = "You resign: the match ends and the other side wins."
            self.log.append(line)
            self.write(line + "\n")
            return True
        self.match.take_over(self.human, "medium")  # format 4: the chain binds it
        self.bots[self.human] = self.game.heuristic_bot()
        line = "You resign: a bot plays your seat to the end."
        self.log.append(line)
        self.write(line + "\n")
        return True

    def abort(self) -> bool:
        """The person aborts before their first move: the match ends with no result, and the
        record says so (``ended``), as the server does; False, said why, once they moved."""
        problem = self.match.ending_problem(aborted(self.human))
        if problem:
            self.write(f"You cannot abort: {problem}.\n")
            return False
        self.match.end(aborted(self.human))
        line = "You abort the match: it ends with no result."
        self.log.append(line)
        self.write(line + "\n")
        return True

    def time_out(self, took: str) -> None:
        game, state = self.game, self.match.state
        action = decide(game.heuristic_bot(), game, state, self.human, self.rng)
        text = game.action_to_text(state, action)
        line = f"Your time ran out ({took}): the table plays {text} for you."
        self.log.append(line)
        self.write("\n" + line + "\n")
        self.tell(self.match.act(self.human, text, by="table"))

    def finish(self) -> None:
        """The final board, the result, and the proof: table id, seed, secret, the record (and
        how to analyse it)."""
        match = self.match
        board = self.board()
        if self.live:
            self.write(CLEAR + "\n".join([*self.intro, "", board, "", *self.log[-LOG_LINES:]]))
        else:
            self.write("\n" + board)
        outcome = match.outcome
        assert outcome is not None
        players = [p.to_json() for p in match.players]
        result = outcome.to_json() | ({"ended": match.ended} if match.ended else {})
        self.write(f"\n\nResult: {describe_outcome(result, players)}\n")
        self.write("Not rated: a match in the terminal is played here, not at a server.\n")
        self.write(f"Table: {match.deal.table}\n")
        self.write(f"The seed of the deal: {match.revealed_seed}\n")
        self.write(f"The table's secret (its SHA-256 is the commitment): {match.revealed_secret}\n")
        path = self.record_path or Path(f"{self.game.spec.id}-{match.deal.table}.json")
        record = match.record().sign(SigningKey.generate())
        try:
            path.write_text(record.dumps() + "\n", encoding="utf-8")
        except OSError as exc:
            self.write(f"The record could not be written to {path}: {exc.strerror or exc}\n")
            return
        shown = path.resolve()
        kept = path.with_name(path.stem + ".receipts.json")
        with contextlib.suppress(OSError):  # every head shown, from the table's creation
            kept.write_text(json.dumps(receipts(match), indent=1) + "\n", encoding="utf-8")
        self.write(
            f"The record of this match: {shown}\n"
            f"The chain heads this table showed (receipts): {kept.resolve()}\n"
            f"Check it with 'ludoteca verify {shown} --receipt {kept.resolve()}', or deal it "
            "again with "
            f"'python3 docs/verify_deal.py {shown}'.\n"
            f"See how each of your decisions compares with the best: 'ludoteca analyse {shown}'.\n"
        )


def receipts(match: Match) -> list[dict[str, Any]]:
    """Every head the match showed: before the deal after each event (format 5), then at each
    version (``docs/fairness.md#receipts``)."""
    table = match.deal.table
    return [
        *({"table": table, "prelude": k, "chain": h} for k, h in enumerate(match.prelude_chain, 1)),
        *({"table": table, "version": v, "chain": h} for v, h in enumerate(match.chain)),
    ]


def describe_outcome(outcome: Mapping[str, Any], players: Sequence[Mapping[str, Any]]) -> str:
    """A result in a sentence, players named with their seat (and bot)."""

    def name(seat: int) -> str:
        p = players[seat] if seat < len(players) else {"name": f"seat {seat + 1}"}
        return f"{p['name']} (seat {seat + 1}{', bot' if p.get('bot') else ''})"

    ended = outcome.get("ended")
    if ended:  # a match that ended other than by the rules (docs/records.md#an-ended-match)
        if ended.get("by") == "abort":
            return f"aborted by {name(ended['seat'])}, no result"
        if ended.get("by") == "resign":
            return f"{name(ended['seat'])} resigned, {name(1 - ended['seat'])} wins"
        return "ended by the operator, no result"
    winners = outcome["winners"]
    if winners:
        who = " and ".join(name(s) for s in winners)
        verb = "share the win" if len(winners) > 1 else "wins"
        text = f"{who} {verb} ({outcome['reason']})"
    elif outcome.get("draw"):
        text = f"draw ({outcome['reason']})"
    else:
        text = f"no player wins ({outcome['reason']})"
    if outcome.get("scores"):
        text += "; scores " + ", ".join(str(s) for s in outcome["scores"])
    return text
