"""The terminal table in process (``ludoteca.cli.terminal.TerminalTable``): typed lines from a
script, time from a fake clock, the screen into a string. The real-terminal behaviour (a pty: the
screen redrawn, the clock ticking while nobody types) is checked at the end with a real process."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import sys
import time
from pathlib import Path

import pytest

from kit import processes
from kit.env import seconds
from ludoteca.bots import make_bot
from ludoteca.cli.play import table_deal
from ludoteca.cli.terminal import LISTED, Terminal, TerminalTable, changed_lines, choices_text
from ludoteca.core import Match, Player, Receipt, verify
from ludoteca.games import get

SECRET = "5e3d0b9c2a7f4e6190d8c1b2a3f4e5d60718293a4b5c6d7e8f90a1b2c3d4e5f6"


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Script:
    """Typed lines, and silences (a number of seconds during which nothing is typed)."""

    def __init__(self, clock: FakeClock, *entries: str | float) -> None:
        self.clock = clock
        self.entries = list(entries)
        self.waits: list[float] = []

    def ready(self, timeout: float) -> bool:
        if self.entries and isinstance(self.entries[0], float):
            wait = min(timeout, self.entries[0])
            self.waits.append(wait)
            self.clock.t += wait
            left = self.entries[0] - wait
            if left > 0:
                self.entries[0] = left
            else:
                self.entries.pop(0)
            return False
        return True

    def readline(self) -> str:
        if not self.entries:
            return ""
        entry = self.entries.pop(0)
        assert isinstance(entry, str)
        return entry + "\n"


SALT = "5" * 32


def table(
    game_id: str,
    *entries: str | float,
    live: bool = False,
    turn_seconds: float = 0,
    record: Path | None = None,
    bots: str = "random",
    players: int = 2,
) -> tuple[TerminalTable, io.StringIO, Script]:
    game = get(game_id)
    others = range(1, players)
    seats = [Player("you"), *(Player(f"{bots} bot {s}", bot=True, level=bots) for s in others)]
    # the deal as `ludoteca play` makes it: your seed committed and revealed, format 5
    params = {"players": players}
    deal = table_deal(game, params, seats, 0, (SECRET, "terminal-test", "mine", SALT))
    match = Match(game, params, deal, seats)
    clock = FakeClock()
    out = io.StringIO()
    keys = Script(clock, *entries)
    made = TerminalTable(
        match,
        0,
        {s: make_bot(bots, game) for s in others},
        term=Terminal(game),
        out=out,
        keys=keys,
        turn_seconds=turn_seconds,
        live=live,
        record_path=record,
        now=clock,
        width=80,
    )
    return made, out, keys


def test_a_number_picks_the_action_it_lists_and_a_wrong_one_is_explained() -> None:
    made, out, _ = table("dice-heroes", "0", "999", "1", "quit")
    assert made.run() == 1
    text = out.getvalue()
    assert "There is no action 0: type 1 to" in text
    assert "There is no action 999" in text
    mine = [s for s in made.match.steps if s.seat == 0]
    assert [s.action for s in mine] == ["stop"]  # 1 is the first listed: stop
    assert "  1 stop" in text and "You left the match." in text


def test_the_action_text_still_works_and_bad_text_changes_nothing() -> None:
    made, out, _ = table("heroes", "fly away", "draw", "quit")
    assert made.run() == 1
    assert "Not possible: unknown action 'fly'" in out.getvalue()
    assert [s.action for s in made.match.steps if s.seat == 0] == ["draw"]


def test_choices_are_numbered_in_columns_and_long_lists_are_cut() -> None:
    texts = [f"reroll {n}" for n in range(1, 100)]
    shown = choices_text(texts, width=60)
    assert shown.splitlines()[0].split() == [
        "1",
        "reroll",
        "1",
        "2",
        "reroll",
        "2",
        "3",
        "reroll",
        "3",
        "4",
        "reroll",
        "4",
    ]
    assert f"{LISTED} reroll {LISTED}" in shown and f"reroll {LISTED + 1}" not in shown
    assert shown.endswith(f"and {99 - LISTED} more: '?' lists them all")
    assert choices_text([]) == ""


def test_only_the_changed_lines_of_a_board_are_printed_again() -> None:
    assert changed_lines(None, "a\nb") == "a\nb"
    assert changed_lines("a\nb\nc", "a\nB\nc") == "B"
    assert changed_lines("a\nb", "a\nb\nc") == "a\nb\nc"  # another shape: all of it
    made, out, _ = table("heroes", "draw", "draw", "quit")
    made.run()
    text = out.getvalue()
    assert text.count("north camp (Gold)") == 1  # the map once, then its changed lines
    assert text.count("Your turn (seat 1)") == 3


def test_the_clock_runs_out_and_the_table_plays() -> None:
    made, out, keys = table("heroes", 95.0, "quit", turn_seconds=90)
    assert made.run() == 1
    text = out.getvalue()
    assert "Your time ran out (1:30): the table plays" in text
    assert [s.by for s in made.match.steps if s.seat == 0] == ["table"]
    assert max(keys.waits) <= 1.0  # the clock is looked at every second


def test_a_line_typed_after_the_deadline_is_too_late() -> None:
    made, out, keys = table("heroes", "draw", "quit", turn_seconds=90)
    typed = keys.readline

    def slowly() -> str:
        keys.clock.t += 100  # the person took 100 s to type
        return typed()

    keys.readline = slowly  # type: ignore[method-assign]
    made.run()
    assert "Your time ran out (1:40)" in out.getvalue()
    assert next(s.by for s in made.match.steps if s.seat == 0) == "table"


def test_on_a_real_terminal_the_screen_is_redrawn_and_the_clock_ticks_in_place() -> None:
    made, out, _ = table("heroes", 2.0, "1", "quit", live=True, turn_seconds=90)
    made.intro = ["Heroes & Relics — table terminal-test"]
    made.run()
    text = out.getvalue()
    screens = text.split("\x1b[H\x1b[2J")
    assert len(screens) >= 3  # a fresh screen for each turn
    assert screens[1].startswith("Heroes & Relics — table terminal-test")
    assert "\x1b7\r1:29\x1b8" in text and "\x1b7\r1:28\x1b8" in text  # ticks, in place
    assert "  · " in screens[2]  # the events of the last moves under the board


def test_the_record_is_written_with_the_table_id_and_the_seed(tmp_path: Path) -> None:
    path = tmp_path / "rec.json"
    made, out, _ = table("dice-heroes", *(["1"] * 400), record=path)
    assert made.run() == 0
    text = out.getvalue()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["table"] == "terminal-test"
    assert f"Table: terminal-test\nThe seed of the deal: {data['seed']}\n" in text
    assert "\nNot rated: a match in the terminal is played here, not at a server.\n" in text
    assert f"The record of this match: {path.resolve()}" in text
    verdict = verify(data, get)
    assert verdict.ok, verdict
    # format 5, and every head the table showed from its creation kept beside the record
    kept = tmp_path / "rec.receipts.json"
    assert data["format"] == 5 and f"(receipts): {kept.resolve()}" in text
    receipts = json.loads(kept.read_text(encoding="utf-8"))
    assert [r.get("prelude") for r in receipts[:6]] == [1, 2, 3, 4, 5, 6]
    last = {"table": "terminal-test", "version": len(data["actions"]), "chain": data["chain"]}
    assert receipts[-1] == last
    verdict = verify(data, get, receipts=[Receipt.from_json(r) for r in receipts])
    assert verdict.ok and verdict.receipts == len(receipts), verdict


def test_a_record_that_cannot_be_written_is_said(tmp_path: Path) -> None:
    made, out, _ = table("dice-heroes", *(["1"] * 400), record=tmp_path / "missing" / "r.json")
    assert made.run() == 0
    assert "The record could not be written to" in out.getvalue()


@pytest.mark.slow
def test_a_real_terminal_sees_the_clock_tick_while_nobody_types(tmp_path: Path) -> None:
    """``ludoteca play`` on a pty: the screen is cleared and drawn, the prompt's clock counts down
    by itself, and when it runs out the table plays; then 'quit'."""
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "LINES": "40", "TERM": "xterm"}
    process = processes.spawn(
        [
            *(sys.executable, "-m", "ludoteca.cli", "play", "heroes", "--seed", SECRET),
            *("--turn-seconds", "3", "--bots", "random", "--record", str(tmp_path / "r.json")),
        ],
        "ludoteca play heroes on a pty",
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        cwd=tmp_path,
    )
    os.close(follower)
    seen = b""
    try:
        deadline = time.monotonic() + seconds(30)
        while b"Your time ran out" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(leader, 65536)
                except OSError:
                    break
        os.write(leader, b"quit\n")
        process.wait(timeout=seconds(30))
    finally:
        processes.stop(process)
        os.close(leader)
    text = seen.decode("utf-8", "replace")
    assert "\x1b[H\x1b[2J" in text  # drawn in place
    assert "\x1b7\r0:02\x1b8" in text  # the clock ticked with nobody typing
    assert "Your time ran out (0:03): the table plays" in text


def test_resign_against_one_bot_ends_the_match_and_the_bot_wins(tmp_path: Path) -> None:
    path = tmp_path / "rec.json"
    made, out, _ = table("dice-heroes", "1", "resign", record=path)
    assert made.run() == 0
    text = out.getvalue()
    assert "You resign: the match ends and the other side wins." in text
    assert "Result: you (seat 1) resigned, random bot 1 (seat 2, bot) wins" in text
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["ended"] == {"by": "resign", "seat": 0}
    assert data["outcome"] == {"winners": [1], "reason": "resigned", "draw": False}
    assert data["players"][0] == {"name": "you", "bot": False}, "no bot took the seat"
    kept = json.loads(path.with_name("rec.receipts.json").read_text(encoding="utf-8"))
    verdict = verify(data, get, receipts=[Receipt.from_json(r) for r in kept])
    assert verdict.ok, verdict


def test_resign_at_three_hands_the_seat_to_a_bot_and_the_record_verifies(tmp_path: Path) -> None:
    path = tmp_path / "rec.json"
    made, out, _ = table("dice-heroes", "1", "resign", record=path, players=3)
    assert made.run() == 0
    text = out.getvalue()
    assert "You resign: a bot plays your seat to the end." in text
    data = json.loads(path.read_text(encoding="utf-8"))
    me = data["players"][0]
    assert me["bot"] is True and me["level"] == "medium" and me["name"] == "you"
    steps = data["actions"]
    assert {s["by"] for s in steps[me["bot_from"] :] if s["seat"] == 0} == {"bot"}
    assert any(s["by"] == "player" for s in steps[: me["bot_from"]] if s["seat"] == 0)
    verdict = verify(data, get)
    assert verdict.ok, verdict


def test_abort_before_the_first_move_ends_the_match_with_no_result(tmp_path: Path) -> None:
    path = tmp_path / "rec.json"
    made, out, _ = table("dice-heroes", "abort", record=path)
    assert made.run() == 0
    text = out.getvalue()
    assert "You abort the match: it ends with no result." in text
    assert "Result: aborted by you (seat 1), no result" in text
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["ended"] == {"by": "abort", "seat": 0}
    assert data["outcome"] == {"winners": [], "reason": "aborted", "draw": False}
    kept = json.loads(path.with_name("rec.receipts.json").read_text(encoding="utf-8"))
    verdict = verify(data, get, receipts=[Receipt.from_json(r) for r in kept])
    assert verdict.ok, verdict


def test_abort_after_ones_own_move_is_refused_and_the_match_goes_on() -> None:
    made, out, _ = table("dice-heroes", "1", "abort", "quit")
    assert made.run() == 1
    text = out.getvalue()
    assert "You cannot abort: seat 0 made a move of its own (step" in text
    assert made.match.ended is None and not made.match.over
