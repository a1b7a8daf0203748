"""The ``ludoteca`` command: simulate, verify, moves, play."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kit import processes
from kit.env import seconds
from kit.matches import ended_record
from ludoteca.bots import make_bot
from ludoteca.bots.arena import play_match
from ludoteca.cli import main
from ludoteca.cli.terminal import Terminal, clock, plain_sentence
from ludoteca.core import Deal, Match, MatchRecord, Player, SigningKey, decide, verify
from ludoteca.core.fairness import seat_commitment
from ludoteca.core.signing import key_fingerprint
from ludoteca.games import all_games, get
from ludoteca.games.dice_heroes.words import DiceHeroesWords as DiceHeroes
from ludoteca.games.dwarves.words import DwarvesWords as Dwarves
from ludoteca.games.heroes.words import HeroesWords as Heroes
from ludoteca.games.words import Messages

SECRET = "5e3d0b9c2a7f4e6190d8c1b2a3f4e5d60718293a4b5c6d7e8f90a1b2c3d4e5f6"


def ludoteca(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ludoteca.cli", *args],
        input=stdin,
        check=False,
        capture_output=True,
        text=True,
        timeout=seconds(600),
        cwd=cwd,
        env={**os.environ, "PYTHONHASHSEED": "random"},
    )


def ludoteca_here(*args: str) -> subprocess.CompletedProcess[str]:
    """``ludoteca ARGS`` run by this process: for the commands that only read and print (verify,
    moves), so that each call does not start an interpreter. Its exit status and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # the arguments refused
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(["ludoteca", *args], code, out.getvalue(), err.getvalue())


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
        "no_winner",
        "mean_actions",
        "games_per_second",
    }
    first.pop("games_per_second")
    second.pop("games_per_second")
    assert first == second
    assert (
        first["games"] == 1000 and sum(first["wins"]) + first["draws"] + first["no_winner"] == 1000
    )
    records = sorted(tmp_path.glob("heroes-*.json"))
    assert len(records) == 1000
    # the records are the matches counted: same wins, replayed by the verifier
    for path in records:
        verdict = verify(json.loads(path.read_text()), get)
        assert verdict.ok, (path.name, verdict.problems)
    done = ludoteca("verify", str(records[0]))
    assert done.returncode == 0 and done.stdout.startswith("OK:")


@pytest.mark.slow
def test_wins_follow_the_bots_order_while_seats_rotate() -> None:
    result = simulate_json("heroes", "--games", "40", "--seed", "7", "--bots", "medium,random")
    assert result["bots"] == ["medium", "random"]
    assert result["wins"][0] > 30 and result["wins"][1] < 5
    flipped = simulate_json("heroes", "--games", "40", "--seed", "7", "--bots", "random,medium")
    assert flipped["wins"][1] > 30


@pytest.mark.slow
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
def key() -> SigningKey:
    return SigningKey.generate()


@pytest.fixture(scope="module")
def record(key: SigningKey) -> dict[str, Any]:
    secret = hashlib.sha256(b"tamper").hexdigest()
    # with this secret seat 1 is a person's who commits and reveals, seat 0 a bot's
    bots = ["random", "random"]
    match = play_match(get("heroes"), 2, secret, bots, table="cli-test", commit=True)
    return match.record().sign(key).to_json()


def resigned(data: dict[str, Any], key: SigningKey) -> dict[str, Any]:
    """A changed record signed again, as only the key's holder could: the checks after the
    signature must catch the change by themselves."""
    return MatchRecord.from_json(data).sign(key).to_json()


def replayed(data: dict[str, Any]) -> Match:
    """The match a record's steps give, replayed through the match authority."""
    record = MatchRecord.from_json(data)
    return Match.replay(
        get(record.game), record.params, record.deal(), record.players, record.actions
    )


def verify_file(tmp_path: Path, data: Any, *options: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return ludoteca_here("verify", str(path), *options)


def test_verify_accepts_the_record_and_names_the_signing_key(
    tmp_path: Path, record: dict[str, Any], key: SigningKey
) -> None:
    done = verify_file(tmp_path, record)
    assert done.returncode == 0, done.stdout
    assert "outcome:" in done.stdout and record["fingerprint"] in done.stdout
    assert key.key_id in done.stdout and key_fingerprint(key.public_key) in done.stdout
    keys = tmp_path / "keys.txt"
    keys.write_text(key.public_key + "\n")
    assert verify_file(tmp_path, record, "--key", str(keys)).returncode == 0
    keys.write_text(SigningKey.generate().public_key + "\n")
    other = verify_file(tmp_path, record, "--key", str(keys))
    assert other.returncode == 1 and "not one of the keys given" in other.stdout


def test_verify_refuses_any_change_made_without_the_key(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    changes: list[dict[str, Any]] = []
    for path, value in (
        (("players", 0, "name"), "Mallory"),
        (("players", 1, "bot"), True),
        (("players", 0, "bot"), False),
        (("actions", 0, "by"), "table"),
        (("outcome", "reason"), "camp"),
        (("contributions", 1), "mine"),
        (("salts", 1), "0" * 32),
    ):
        changed = json.loads(json.dumps(record))
        *parents, last = path
        target = changed
        for part in parents:
            target = target[part]
        target[last] = value
        changes.append(changed)
    for changed in changes:
        done = verify_file(tmp_path, changed)
        assert done.returncode == 1
        assert "FAILED (signature)" in done.stdout, done.stdout


def test_verify_names_a_changed_secret(
    tmp_path: Path, record: dict[str, Any], key: SigningKey
) -> None:
    secret = record["secret"]
    other = secret[:-1] + ("1" if secret.endswith("0") else "0")
    done = verify_file(tmp_path, resigned({**record, "secret": other}, key))
    assert done.returncode == 1
    assert "commitment does not match the secret" in done.stdout


def test_verify_refuses_a_reveal_that_does_not_open_its_commitment_and_a_seed_not_from_the_reveals(
    tmp_path: Path, record: dict[str, Any], key: SigningKey
) -> None:
    assert record["format"] == 4 and record["contributions"][1] and record["commitments"][1]
    done = verify_file(tmp_path, record)
    assert done.returncode == 0 and "1 players' seeds" in done.stdout
    # another seed for seat 1, signed again: it does not open the commitment seat 1 published
    other = resigned({**record, "contributions": [None, "another-seed"]}, key)
    done = verify_file(tmp_path, other)
    assert done.returncode == 1
    assert done.stdout.startswith("FAILED (reveal): the reveal of seat 1 does not match")
    # another seed with a commitment to match: the reveals hold, the seed does not follow
    salt = "c" * 32
    forged = {
        **record,
        "contributions": [None, "forged"],
        "salts": [None, salt],
        "commitments": [record["commitments"][0], seat_commitment("forged", salt)],
    }
    done = verify_file(tmp_path, resigned(forged, key))
    assert done.returncode == 1
    assert done.stdout.startswith("FAILED (seed): the seed is not HMAC-SHA-256(secret, table and")


def test_verify_names_the_step_of_a_changed_action(
    tmp_path: Path, record: dict[str, Any], key: SigningKey
) -> None:
    game = get("heroes")
    replay = Match(
        game,
        record["params"],
        MatchRecord.from_json(record).deal(),
    )
    n = 0
    others: list[str] = []
    for step in record["actions"]:
        n += 1
        others = [t for t in replay.legal(step["seat"]) if t != step["action"]]
        if others:
            break
        replay.act(step["seat"], step["action"])
    changed = json.loads(json.dumps(record))
    changed["actions"][n - 1]["action"] = "place paladin camp"
    done = verify_file(tmp_path, resigned(changed, key))
    assert done.returncode == 1
    assert f"step {n}:" in done.stdout and "not legal" in done.stdout
    # another legal action, signed by the key's holder: the chain or the outcome gives it away
    swapped = json.loads(json.dumps(record))
    swapped["actions"][n - 1]["action"] = others[0]
    done = verify_file(tmp_path, resigned(swapped, key))
    assert done.returncode == 1
    assert "FAILED" in done.stdout


def test_verify_names_a_changed_outcome(
    tmp_path: Path, record: dict[str, Any], key: SigningKey
) -> None:
    outcome = dict(record["outcome"])
    outcome["winners"] = [1 - outcome["winners"][0]] if outcome["winners"] else [0]
    done = verify_file(tmp_path, resigned({**record, "outcome": outcome}, key))
    assert done.returncode == 1
    assert "outcome differs" in done.stdout


def test_verify_checks_receipts_against_the_chain(tmp_path: Path, record: dict[str, Any]) -> None:
    replay = replayed(record)
    receipts = tmp_path / "receipts.json"
    shown = [{"table": "cli-test", "version": v, "chain": replay.chain[v]} for v in (0, 5)]
    receipts.write_text(json.dumps(shown))
    done = verify_file(tmp_path, record, "--receipt", str(receipts))
    assert done.returncode == 0 and "2 receipt(s) agree" in done.stdout
    shown[1]["chain"] = "0" * 64
    receipts.write_text(json.dumps(shown))
    done = verify_file(tmp_path, record, "--receipt", str(receipts))
    assert done.returncode == 1 and "FAILED (receipt)" in done.stdout
    receipts.write_text('{"table": "cli-test"}')
    bad = verify_file(tmp_path, record, "--receipt", str(receipts))
    assert bad.returncode == 2 and "receipt" in bad.stderr


def test_verify_names_an_unfinished_or_malformed_record(
    tmp_path: Path, record: dict[str, Any], key: SigningKey
) -> None:
    unfinished = resigned({**record, "actions": record["actions"][:-1]}, key)
    assert "chain head" in verify_file(tmp_path, unfinished).stdout
    unfinished["chain"] = replayed(unfinished).chain[-1]
    assert "not over" in verify_file(tmp_path, resigned(unfinished, key)).stdout
    assert "not revealed" in verify_file(tmp_path, {**record, "secret": None}).stdout
    assert "field 'game'" in verify_file(tmp_path, {**record, "game": 5}).stdout
    assert "unknown record format" in verify_file(tmp_path, {**record, "format": 99}).stdout
    not_json = verify_file(tmp_path, "{oops")
    assert not_json.returncode == 2 and "is not JSON" in not_json.stderr
    missing = ludoteca_here("verify", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


@pytest.mark.parametrize("game_id", list(all_games()))
def test_moves_prints_the_legal_actions_of_a_position(tmp_path: Path, game_id: str) -> None:
    game = get(game_id)
    state = game.new(None, "moves")
    path = tmp_path / "position.json"
    path.write_text(json.dumps(game.to_json(state)))
    done = ludoteca_here("moves", game_id, "--position", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == game.legal_texts(state)
    path.write_text('{"not": "a position"}')
    bad = ludoteca_here("moves", game_id, "--position", str(path))
    assert bad.returncode == 2 and f"not a {game_id} position" in bad.stderr


def test_play_tells_the_match_in_sentences_with_the_map_and_the_clock() -> None:
    done = ludoteca("play", "heroes", "--seed", SECRET, "--turn-seconds", "90", stdin="quit\n")
    out = done.stdout
    keep = out[out.index("north camp") :]  # the map (the hex lines above may hold "a1" too)
    assert " begins." in out
    assert "Gold was dealt 4 heroes (" in out  # your own hand, by name
    assert "Blue was dealt 4 heroes." in out  # the rival's, only counted
    assert "=" not in out.split("'quit' to leave.")[1].split("north camp")[0]  # no raw fields
    assert "north camp (Gold) · 0/6" in out and "south camp (Blue) · 0/6" in out
    assert keep.index("a1") < keep.index("b1") < keep.index("a5")  # north on top, a on the left
    assert "(1)" in out and "(2)" in out  # each ward's relics
    assert "Your turn (seat 1) · 1:30 on the clock." in out


def test_terminal_words_come_from_the_web_catalogues() -> None:
    heroes = get("heroes")
    pt = Messages("pt", heroes)  # the board's words, from the game's package
    assert pt.t("heroes.group.0") == "Dourado" and pt.t("keys.title") == "Teclado"
    assert Messages("xx", heroes).t("heroes.group.1") == "Blue"  # English without a catalogue
    assert Messages(game=heroes).t("heroes.log.drew", group="Gold", count=1) == "Gold drew 1 hero"
    assert Messages().t("heroes.group.0") == "heroes.group.0"  # no game: no board's words
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
    drawn = Heroes(Messages(game=get("heroes"))).board(position)
    assert "a1 G Paladin 7 ×2" in drawn  # full names, with their strength
    assert "[B]" in drawn
    dwarves = get("dwarves")
    seen = dwarves.observation(dwarves.new({"players": 3}, "map"), 0)
    drawn = Terminal(dwarves).board(seen)
    assert drawn is not None and "tile 0 (" in drawn and "The dragon: " in drawn
    assert f"Round 1 of {seen['round_cap']} · pool {seen['pool']}" in drawn


def told(game_id: str, players: int, seed: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every event of a random bots' match as seat 1 sees it, with seat 1's position after it."""
    game = get(game_id)
    bots = [Player("random bot", bot=True, level="random")] * players
    match = Match(game, {"players": players}, Deal(seed, "terminal", (None,) * players), bots)
    bot, rng = make_bot("random", game), random.Random(seed)
    seen = [(e.for_seat(0), match.view(0)["position"]) for e in match.opening_events]
    while (seat := game.to_move(match.state)) is not None:
        text = game.action_to_text(match.state, decide(bot, game, match.state, seat, rng))
        events = match.act(seat, text, by="bot")
        position = match.view(0)["position"]
        seen += [(e.for_seat(0), position) for e in events]
    return seen


def is_fallback(line: str, kinds: set[str]) -> bool:
    """Whether a line is ``plain_sentence``'s ("Kind: fields." or "Kind.") for one of ``kinds``."""
    heads = [plain_sentence({"kind": kind})[:-1] for kind in kinds]
    return any(line.startswith(f"{head}:") or line == f"{head}." for head in heads)


SEEDED = {"dice-heroes": [(2, "a"), (3, "b"), (4, "c")], "dwarves": [(2, "a"), (4, "b"), (6, "c")]}


@pytest.mark.parametrize("lang", ["en", "pt", "de"])
@pytest.mark.parametrize("game_id", list(SEEDED))
def test_every_event_of_dice_heroes_and_dwarves_is_a_catalogue_sentence(
    game_id: str, lang: str
) -> None:
    term = Terminal(get(game_id), lang)
    words = term.words
    assert words is not None
    kinds: set[str] = set()
    for players, seed in SEEDED[game_id]:
        for event, position in told(game_id, players, seed):
            kinds.add(event["kind"])
            said = words.sentence(event, position)
            assert said, event  # the game's own words, not the plain fallback
            assert said == term.sentence(event, position)
            assert not is_fallback(said, {event["kind"]}), said
            assert "{" not in said and "}" not in said, said
            assert "Seat 0" not in said and "Lugar 0" not in said and "Platz 0" not in said
            assert said[:1] == said[:1].upper()
    expected = {"rolloff", "opening", "roll", "hunt", "coins", "end"}
    if game_id == "dwarves":
        expected = {"setup", "deal", "round", "roll", "move", "trade", "steal", "end", "result"}
    assert expected <= kinds  # the seeded matches reach the kinds that matter


def test_dice_heroes_and_dwarves_say_what_the_web_says() -> None:
    pt, en = Messages("pt", get("dice-heroes")), Messages(game=get("dice-heroes"))
    dice = DiceHeroes(en)
    position = {"seats": [{"hero": "otters"}, {"hero": "bears"}]}
    hunt = {"kind": "hunt", "seat": 0, "success": True, "swords": 5, "previous": 1, "to_beat": 4}
    assert dice.sentence(hunt, position) == "Otters outbid Bears with 5 swords."
    assert dice.sentence(hunt) == "Bears outbid Falcons with 5 swords."  # seat order, no view
    assert dice.sentence({**hunt, "previous": 0}, position) == "Otters lay 5 swords at the posters."
    assert DiceHeroes(pt).sentence({"kind": "marker", "seat": 1}, position) == (
        "Ursos pegam os dados de volta e põem o marcador de duelo."
    )
    growth = {"kind": "growth", "seat": 1, "dice": {"white": 0, "yellow": 1, "red": 2}}
    assert dice.sentence(growth, position) == "Bears add to their troop: 1 yellow and 2 red."
    pt, en = Messages("pt", get("dwarves")), Messages(game=get("dwarves"))
    dwarves = Dwarves(en)
    position = {
        "dwarves": [
            {"colour": "red", "seat": 1, "extra": False},
            {"colour": "green", "seat": None, "extra": True},
        ],
        "ring": [{"kind": "portal"}, {"kind": "purple"}],
    }
    race = {
        "kind": "race",
        "round": 2,
        "rolls": [
            {"figure": "red", "roll": "blue", "run": 1},
            {"figure": "dragon", "roll": "red", "run": 3},
        ],
    }
    assert dwarves.sentence(race, position) == (
        "Race, round 2: Red dwarf (Seat 2) blue (1) and the dragon red (3)."
    )
    move = {"kind": "move", "dwarf": "green", "from": 0, "to": 0}
    assert dwarves.sentence(move, position) == "Green dwarf (extra) stays on tile 0 (Portal)."
    bite = {"kind": "bite", "dwarf": "red", "stone": "ruby"}
    assert Dwarves(pt).sentence(bite, position) == "O dragão tira de Anão vermelho (Lugar 2): rubi."
    assert (
        Terminal(get("dwarves")).sentence({"kind": "meet_dragon", "seat": 0})
        == "Meet dragon: seat 1."
    )


def test_play_explains_bad_input_and_asks_again() -> None:
    done = ludoteca(
        "play", "heroes", "--seed", SECRET, "--my-seed", "mine", stdin="?\nfly away\nquit\n"
    )
    assert done.returncode == 1
    assert "The table's commitment:" in done.stdout
    # the person's seed and its salt, and the commitment that opens with them
    salt = re.search(r"Your seed, mixed into the deal: mine \(salt ([0-9a-f]{32})\)", done.stdout)
    assert salt is not None
    shown = (
        f"Your commitment, sent before any seed was revealed: {seat_commitment('mine', salt[1])}"
    )
    assert shown in done.stdout
    assert "Legal actions:" in done.stdout
    assert "Not possible:" in done.stdout and "'?'" in done.stdout
    assert "You left the match." in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("game_id", list(all_games()))
def test_a_person_plays_a_whole_match_in_the_terminal(game_id: str, tmp_path: Path) -> None:
    """Drive ``ludoteca play`` as a person would: read the prompt, ask '?', pick an action by
    its text or by its number; at the end the record is written where it says, and checks."""
    record = tmp_path / "match.json"
    process = processes.spawn(
        [
            sys.executable,
            "-u",
            "-m",
            "ludoteca.cli",
            "play",
            game_id,
            "--seed",
            SECRET,
            "--bots",
            "random",
            "--record",
            str(record),
        ],
        f"ludoteca play {game_id}",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=0,
        cwd=tmp_path,
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
        n = pick.randrange(len(actions))
        process.stdin.write(f"{n + 1}\n" if n % 2 else f"{actions[n]}\n")
    process.wait(timeout=seconds(60))
    process.stdin.close()
    process.stdout.close()
    assert process.returncode == 0, seen[-2000:]
    assert "Result:" in seen and "The table's secret" in seen
    data = json.loads(record.read_text(encoding="utf-8"))
    assert f"The record of this match: {record.resolve()}" in seen
    assert f"Table: {data['table']}" in seen and data["table"].startswith("terminal-")
    assert f"The seed of the deal: {data['seed']}" in seen
    assert ludoteca("verify", str(record)).returncode == 0
    assert f"'ludoteca analyse {record.resolve()}'" in seen
    analysed = ludoteca("analyse", str(record), "--iterations", "5", "--json")
    assert analysed.returncode == 0, analysed.stderr
    mine = [n for n, s in enumerate(data["actions"], 1) if s["by"] == "player"]
    assert mine and [d["version"] for d in json.loads(analysed.stdout)["decisions"]] == mine
    said = [line[4:] for line in seen.splitlines() if line.startswith("  · ")]
    kinds = {e["kind"] for e, _ in told(game_id, 2, "kinds")} | {"end", "result"}
    assert said and not [line for line in said if is_fallback(line, kinds)]
    assert is_fallback(plain_sentence({"kind": "end", "round": 3}), kinds)  # the check can fail


def test_verify_says_how_an_ended_match_ended(tmp_path: Path) -> None:
    aborted = verify_file(tmp_path, ended_record("abort"))
    assert aborted.returncode == 0, aborted.stdout
    assert "outcome: aborted by Ana (seat 1), no result" in aborted.stdout
    operator = ended_record("operator", moves=2)
    done = verify_file(tmp_path, operator)
    assert done.returncode == 0 and "outcome: ended by the operator, no result" in done.stdout
    changed = verify_file(tmp_path, {**operator, "ended": {"by": "abort", "seat": 1}})
    assert changed.returncode == 1 and "FAILED (signature)" in changed.stdout
    resigned = verify_file(tmp_path, ended_record("resign", moves=2))
    assert resigned.returncode == 0, resigned.stdout
    said = "outcome: Ana (seat 1) resigned, Bot 2 (random) (seat 2, bot) wins"
    assert said in resigned.stdout, resigned.stdout
