"""The ``ludoteca`` command: simulate, verify, moves, play."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ludoteca.games import all_games, get


def ludoteca(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ludoteca.cli", *args],
        input=stdin,
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
        env={**os.environ, "PYTHONHASHSEED": "random"},
    )


def simulate_json(*args: str) -> dict[str, Any]:
    done = ludoteca("simulate", *args, "--json")
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.slow
def test_simulate_heroes_1000_is_reproducible_and_every_record_verifies(tmp_path: Path) -> None:
    first = simulate_json("heroes", "--games", "1000", "--seed", "1", "--records", str(tmp_path))
    second = simulate_json("heroes", "--games", "1000", "--seed", "1", "--jobs", "1")
    assert set(first) >= {
        "game",
        "games",
        "players",
        "wins",
        "draws",
        "mean_actions",
        "games_per_second",
    }
    first.pop("games_per_second")
    second.pop("games_per_second")
    assert first == second
    assert first["games"] == 1000 and sum(first["wins"]) + first["draws"] == 1000
    records = sorted(tmp_path.glob("heroes-*.json"))
    assert len(records) == 1000
    # the records are the matches counted: same wins, replayed by the verifier
    from ludoteca.core import verify

    for path in records:
        verdict = verify(json.loads(path.read_text()), get)
        assert verdict.ok, (path.name, verdict.problems)
    done = ludoteca("verify", str(records[0]))
    assert done.returncode == 0 and done.stdout.startswith("OK:")


def test_wins_follow_the_bots_order_while_seats_rotate() -> None:
    result = simulate_json("heroes", "--games", "40", "--seed", "7", "--bots", "medium,random")
    assert result["bots"] == ["medium", "random"]
    assert result["wins"][0] > 30 and result["wins"][1] < 5
    flipped = simulate_json("heroes", "--games", "40", "--seed", "7", "--bots", "random,medium")
    assert flipped["wins"][1] > 30


@pytest.mark.parametrize("game_id", list(all_games()))
def test_simulate_every_game_at_every_count(game_id: str) -> None:
    game = get(game_id)
    for players in range(game.spec.min_players, game.spec.max_players + 1):
        result = simulate_json(game_id, "--players", str(players), "--games", "4", "--seed", "2")
        assert result["players"] == players and result["games"] == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "chess"], "no game 'chess'"),
        (["simulate", "heroes", "--players", "3"], "2 players, not 3"),
        (["simulate", "heroes", "--bots", "random"], None),
        (["simulate", "heroes", "--bots", "random,genius"], "unknown bot level 'genius'"),
        (["simulate", "heroes", "--bots", "random,random,random"], "3 bots for 2 seats"),
        (["simulate", "heroes", "--games", "0"], "at least 1"),
    ],
)
def test_simulate_explains_bad_arguments(args: list[str], message: str | None) -> None:
    done = ludoteca(*args, "--games", "2") if "--games" not in args else ludoteca(*args)
    if message is None:
        assert done.returncode == 0  # one level for every seat is accepted
        return
    assert done.returncode == 2
    assert message in done.stderr


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("records")
    simulate_json("heroes", "--games", "1", "--seed", "tamper", "--records", str(folder))
    loaded: dict[str, Any] = json.loads(next(folder.glob("*.json")).read_text())
    return loaded


def verify_file(tmp_path: Path, data: Any) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return ludoteca("verify", str(path))


def test_verify_accepts_the_record_and_prints_the_outcome(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    done = verify_file(tmp_path, record)
    assert done.returncode == 0, done.stdout
    assert "outcome:" in done.stdout and record["fingerprint"] in done.stdout


def test_verify_names_a_changed_seed(tmp_path: Path, record: dict[str, Any]) -> None:
    done = verify_file(tmp_path, {**record, "seed": record["seed"][:-1] + "0"})
    if record["seed"].endswith("0"):
        done = verify_file(tmp_path, {**record, "seed": record["seed"][:-1] + "1"})
    assert done.returncode == 1
    assert "commitment does not match the seed" in done.stdout


def test_verify_names_the_step_of_a_changed_action(tmp_path: Path, record: dict[str, Any]) -> None:
    game = get("heroes")
    from ludoteca.core import Match

    match = Match(game, record["params"], record["seed"])
    n = 0
    for step in record["actions"]:
        n += 1
        legal = game.legal_texts(match.state)
        others = [t for t in legal if t != step["action"]]
        if others:
            break
        match.act(step["seat"], step["action"])
    changed = json.loads(json.dumps(record))
    changed["actions"][n - 1]["action"] = "place paladin camp"
    done = verify_file(tmp_path, changed)
    assert done.returncode == 1
    assert f"step {n}:" in done.stdout and "not legal" in done.stdout
    # a legal but different action makes a different match: some later step or the outcome breaks
    swapped = json.loads(json.dumps(record))
    swapped["actions"][n - 1]["action"] = others[0]
    done = verify_file(tmp_path, swapped)
    assert done.returncode == 1
    assert "FAILED" in done.stdout


def test_verify_names_a_changed_outcome(tmp_path: Path, record: dict[str, Any]) -> None:
    outcome = dict(record["outcome"])
    outcome["winners"] = [1 - outcome["winners"][0]] if outcome["winners"] else [0]
    done = verify_file(tmp_path, {**record, "outcome": outcome})
    assert done.returncode == 1
    assert "outcome differs" in done.stdout


def test_verify_names_an_unfinished_or_malformed_record(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    assert "not over" in verify_file(tmp_path, {**record, "actions": record["actions"][:-1]}).stdout
    assert "not revealed" in verify_file(tmp_path, {**record, "seed": None}).stdout
    assert "field 'game'" in verify_file(tmp_path, {**record, "game": 5}).stdout
    assert "unknown record format" in verify_file(tmp_path, {**record, "format": 99}).stdout
    not_json = verify_file(tmp_path, "{oops")
    assert not_json.returncode == 2 and "is not JSON" in not_json.stderr
    missing = ludoteca("verify", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


@pytest.mark.parametrize("game_id", list(all_games()))
def test_moves_prints_the_legal_actions_of_a_position(tmp_path: Path, game_id: str) -> None:
    game = get(game_id)
    state = game.new(None, "moves")
    path = tmp_path / "position.json"
    path.write_text(json.dumps(game.to_json(state)))
    done = ludoteca("moves", game_id, "--position", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == game.legal_texts(state)
    path.write_text('{"not": "a position"}')
    bad = ludoteca("moves", game_id, "--position", str(path))
    assert bad.returncode == 2 and f"not a {game_id} position" in bad.stderr


def test_play_tells_the_match_in_sentences_with_the_map_and_the_clock() -> None:
    done = ludoteca("play", "heroes", "--seed", "terminal", "--turn-seconds", "90", stdin="quit\n")
    out = done.stdout
    assert "Blue begins." in out  # this seed's draw for the first turn
    assert "Gold was dealt 4 heroes (" in out  # your own hand, by name
    assert "Blue was dealt 4 heroes." in out  # the rival's, only counted
    assert "=" not in out.split("Type an action")[1].split("north camp")[0]  # no raw fields
    assert "north camp (Gold) · 0/6" in out and "south camp (Blue) · 0/6" in out
    assert out.index("a1") < out.index("b1") < out.index("a5")  # north on top, a on the left
    assert "(1)" in out and "(2)" in out  # each ward's relics
    assert "Your turn (seat 1) · 1:30 on the clock." in out


def test_terminal_words_come_from_the_web_catalogues() -> None:
    from ludoteca.terminal import Heroes, Messages, Terminal, clock, plain_sentence

    pt = Messages("pt")
    assert pt.t("heroes.group.0") == "Dourado"
    assert Messages("xx").t("heroes.group.1") == "Blue"  # English when there is no catalogue
    assert Messages().t("heroes.log.drew", group="Gold", count=1) == "Gold drew 1 hero"
    assert Messages().t("no.such.key") == "no.such.key"
    line = plain_sentence({"kind": "meet_dragon", "seat": 0, "winners": [1], "covered": None})
    assert line == "Meet dragon: seat 1; winners 2."
    assert clock(61.2) == "1:02" and clock(-3) == "0:00"
    position = get("heroes").observation(get("heroes").new({}, "map"), 0)
    position["rooms"][0]["stack"] = [
        {"owner": 1, "role": "bard"},
        {"owner": 0, "role": "paladin"},
    ]
    position["wards"][0]["sealed_by"] = 1
    drawn = Heroes(Messages()).board(position)
    assert "a1 G Palad×2" in drawn
    assert "[B]" in drawn
    assert Terminal("dwarves").board(position) is None


def test_play_explains_bad_input_and_asks_again() -> None:
    done = ludoteca("play", "heroes", "--seed", "terminal", stdin="?\nfly away\nquit\n")
    assert done.returncode == 1
    assert "Fingerprint of this match's seed:" in done.stdout
    assert "Legal actions:" in done.stdout
    assert "Not possible:" in done.stdout and "'?'" in done.stdout
    assert "You left the match." in done.stdout


@pytest.mark.parametrize("game_id", list(all_games()))
def test_a_person_plays_a_whole_match_in_the_terminal(game_id: str) -> None:
    """Drive ``ludoteca play`` as a person would: read the prompt, ask '?', pick an action."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-u",
            "-m",
            "ludoteca.cli",
            "play",
            game_id,
            "--seed",
            "t",
            "--bots",
            "random",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=0,
    )
    assert process.stdin is not None and process.stdout is not None
    seen = ""

    def read_until(marker: str) -> str:
        nonlocal seen
        chunk = ""
        while marker not in chunk:
            char = process.stdout.read(1)  # type: ignore[union-attr]
            if not char:
                break
            chunk += char
        seen += chunk
        return chunk

    pick = random.Random(0)
    for _ in range(5000):
        if not read_until("> ").endswith("> "):
            break
        process.stdin.write("?\n")
        listing = read_until("> ").split("Legal actions:\n", 1)[1]
        actions = []
        for line in listing.splitlines():
            if not line.startswith("  "):
                break
            actions.append(line.strip())
        process.stdin.write(pick.choice(actions) + "\n")
    process.wait(timeout=60)
    process.stdin.close()
    process.stdout.close()
    assert process.returncode == 0, seen[-2000:]
    assert "Result:" in seen and "Seed (check it with 'ludoteca verify'):" in seen
