"""``ludoteca analyse RECORD.json``: the analysis of a finished match as a table or as JSON, the
same in every process (the server's workers and anyone's machine), and clear refusals."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from kit.env import seconds
from ludoteca.bots.analysis import analyse
from ludoteca.core import Match, MatchRecord, Player
from ludoteca.games import get


def ludoteca(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ludoteca.cli", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=seconds(600),
        env={**os.environ, "PYTHONHASHSEED": "random"},
    )


def finished(seed: str) -> MatchRecord:
    """A Dwarves match: Ana (a person, seat 0) and a bot, both playing the heuristic."""
    game = get("dwarves")
    match = Match(game, {"players": 2}, seed, [Player("Ana"), Player("Bot", True, "medium")])
    heuristic, rng = game.heuristic_bot(), random.Random(seed)
    while (seat := match.to_move) is not None:
        action = heuristic.choose(game, match.state.clone(), seat, rng)
        match.act(seat, game.action_to_text(match.state, action), "bot" if seat else "player")
    return match.record()


@pytest.mark.slow
def test_analyse_prints_the_same_analysis_in_every_process(tmp_path: Path) -> None:
    record = finished("cli-analyse")
    path = tmp_path / "match.json"
    path.write_text(record.dumps(), encoding="utf-8")
    runs = [ludoteca("analyse", str(path), "--iterations", "30", "--json") for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr
    first = json.loads(runs[0].stdout)
    assert json.loads(runs[1].stdout) == first
    assert first == analyse(get("dwarves"), record, iterations=30)
    persons = [n for n, s in enumerate(record.actions, 1) if s.by == "player"]
    assert [d["version"] for d in first["decisions"]] == persons

    shown = ludoteca("analyse", str(path), "--iterations", "30")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert "30 iterations" in lines[0]
    rows = [line for line in lines if line[:4].strip().isdigit()]
    assert [int(row.split()[0]) for row in rows] == persons
    for row, decision in zip(rows, first["decisions"], strict=True):
        assert decision["taken"]["action"] in row
        if decision["grade"]:
            assert row.endswith(decision["grade"])
    total = first["totals"]["0"]
    assert f"Ana (seat 0): {total['decisions']} decisions" in lines[-1]

    bots = ludoteca("analyse", str(path), "--iterations", "10", "--seat", "1", "--json")
    assert bots.returncode == 0, bots.stderr
    theirs = json.loads(bots.stdout)
    assert theirs["seats"] == [1]
    assert {d["by"] for d in theirs["decisions"]} == {"bot"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "4"], "seat 4 is not a seat of this match"),
        (["--iterations", "0"], "at least 1"),
        (["--unfinished"], "not over"),
    ],
)
def test_analyse_refuses_what_it_cannot_analyse(
    tmp_path: Path, args: list[str], message: str
) -> None:
    record = finished("cli-refused")
    if args == ["--unfinished"]:
        args = []
        record = Match(get("dwarves"), {"players": 2}, "cli-refused").record()
    path = tmp_path / "match.json"
    path.write_text(record.dumps(), encoding="utf-8")
    result = ludoteca("analyse", str(path), *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""
