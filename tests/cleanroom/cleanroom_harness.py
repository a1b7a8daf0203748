"""Records, tampered variants and the two verdicts compared by the clean-room test and bench.

`ludoteca` is used as a black box only: `ludoteca simulate` writes the records, and
`ludoteca verify` judges them, either as a subprocess or (much faster, for thousands of records)
through its console-script entry point called with the same arguments in a worker process.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import importlib.util
import io
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LUDOTECA = str(ROOT / ".venv" / "bin" / "ludoteca")

_spec = importlib.util.spec_from_file_location("cleanroom_verifier", HERE / "verifier.py")
assert _spec is not None and _spec.loader is not None
verifier = importlib.util.module_from_spec(_spec)
sys.modules["cleanroom_verifier"] = verifier
_spec.loader.exec_module(verifier)

CONFIGS = [("heroes", 2), ("dice-heroes", 2), ("dice-heroes", 3), ("dice-heroes", 4)] + [
    ("dwarves", n) for n in range(2, 7)
]


def simulate(
    game: str, players: int, games: int, *, seed: int, level: str, out: Path
) -> list[Path]:
    """Records of `games` matches between bots of `level`, written by `ludoteca simulate
    --commit`: format 4, some seats people committing, revealing or withholding as people may,
    the others bots that commit to nothing."""
    bots = ",".join([level] * players)
    cmd = [LUDOTECA, "simulate", game, "--players", str(players), "--games", str(games), "--commit"]
    cmd += ["--seed", str(seed), "--bots", bots, "--jobs", "2", "--records", str(out)]
    subprocess.run(cmd, check=True, capture_output=True)
    return sorted(out.glob(f"{game}-*.json"))


@dataclass
class Case:
    """One record file to judge, with the arguments both verifiers get."""

    kind: str
    path: Path
    receipts: list[Path] = field(default_factory=list)
    key: Path | None = None
    config: str = ""

    def cli_args(self) -> list[str]:
        args = ["verify", str(self.path)]
        for receipt in self.receipts:
            args += ["--receipt", str(receipt)]
        if self.key is not None:
            args += ["--key", str(self.key)]
        return args


def normalise_cli(code: int, text: str) -> str:
    """`ok`, or `FAILED (<check>)` plus ` step N` for an `actions` problem."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    if code == 0 and first.startswith("OK"):
        return "ok"
    match = re.search(r"FAILED \(([a-z]+)\): (?:step (\d+):)?", text)
    if not match:
        return f"error {code}: {first}"
    check, step = match.groups()
    return f"FAILED ({check})" + (f" step {step}" if check == "actions" and step else "")


_ENTRY: dict[str, Callable[[], Any]] = {}


def _cli_in_process(args: list[str]) -> str:
    if not _ENTRY:
        (ep,) = [e for e in entry_points(group="console_scripts") if e.name == "ludoteca"]
        _ENTRY["main"] = ep.load()
    out = io.StringIO()
    saved = sys.argv
    sys.argv = ["ludoteca", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code = _ENTRY["main"]() or 0
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 1
    finally:
        sys.argv = saved
    return normalise_cli(int(code), out.getvalue())


def _cli_subprocess(args: list[str]) -> str:
    done = subprocess.run([LUDOTECA, *args], capture_output=True, text=True, check=False)
    return normalise_cli(done.returncode, done.stdout + done.stderr)


def cli_verdicts(cases: list[Case], jobs: int = 2, subprocess_mode: bool = False) -> list[str]:
    """`ludoteca verify`'s verdict on every case, `jobs` at a time."""
    run = _cli_subprocess if subprocess_mode else _cli_in_process
    if jobs <= 1:
        return [run(c.cli_args()) for c in cases]
    with ProcessPoolExecutor(jobs, initializer=_quiet_python) as pool:
        return list(pool.map(run, [c.cli_args() for c in cases], chunksize=16))


def _quiet_python() -> None:
    os.environ.setdefault("PYTHONWARNINGS", "ignore")


def own_verdict(case: Case) -> str:
    rec = _load(case.path)
    receipts: list[dict[str, Any]] = []
    for path in case.receipts:
        data = json.loads(path.read_text())
        receipts += data if isinstance(data, list) else [data]
    keys = verifier.load_keys(str(case.key)) if case.key else None
    return str(verifier.result(rec, receipts=receipts, keys=keys))


def _load(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return None


# --------------------------------------------------------------------------- tampering


def to_format1(rec: dict[str, Any]) -> dict[str, Any]:
    """The same match as an old format-1 record (no table, secret, chain or signature)."""
    seed = rec["seed"]
    commitment = hashlib.sha256(seed.encode()).hexdigest()
    return {
        "format": 1,
        "game": rec["game"],
        "params": rec["params"],
        "commitment": commitment,
        "fingerprint": verifier.fingerprint(commitment, 40),
        "seed": seed,
        "players": rec["players"],
        "actions": rec["actions"],
        "outcome": rec["outcome"],
    }


def random_history(rec: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A different complete legal history from the same seed, as a format-1 record, with the
    outcome this verifier's rules give: `ludoteca verify` must accept it when the docs are right."""
    f1 = to_format1(rec)
    n = rec["params"].get("players", len(rec["players"]))
    f1["actions"], f1["outcome"] = _play_randomly(rec["game"], n, rec["seed"], rng)
    return f1


def history_record(game_id: str, players: int, seed: str, rng: random.Random) -> dict[str, Any]:
    """A format-1 record of a match played at random from any seed (format 1 lets the seed be any
    text), judged by this verifier's rules alone."""
    commitment = hashlib.sha256(seed.encode()).hexdigest()
    actions, outcome = _play_randomly(game_id, players, seed, rng)
    return {
        "format": 1,
        "game": game_id,
        "params": {"players": players},
        "commitment": commitment,
        "fingerprint": verifier.fingerprint(commitment, 40),
        "seed": seed,
        "players": [{"name": f"p{s}", "bot": False} for s in range(players)],
        "actions": actions,
        "outcome": outcome,
    }


def _play_randomly(
    game_id: str, players: int, seed: str, rng: random.Random
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    game = verifier.GAMES[game_id][0](players, verifier.Stream(seed))
    actions = []
    short = rng.random() < 0.7
    while game.outcome is None and len(actions) < 5000:
        legal = game.legal()
        # Dice Heroes: mostly prefer `stop` and small re-rolls, so turns vary in length.
        text = rng.choice(legal[:8] if short and game_id == "dice-heroes" else legal)
        actions.append({"seat": game.to_move, "action": text, "by": "player"})
        game.play(text)
    return actions, game.outcome


def _other_legal(rec: dict[str, Any], rng: random.Random) -> tuple[list[dict[str, Any]], int]:
    """The actions with one of them replaced by another legal action at that point."""
    n = rec["params"].get("players", len(rec["players"]))
    factory = verifier.GAMES[rec["game"]][0]
    game = factory(n, verifier.Stream(rec["seed"]))
    options = []
    for k, step in enumerate(rec["actions"]):
        legal = [t for t in game.legal() if t != step["action"]]
        if legal:
            options.append((k, legal))
        game.play(step["action"])
    actions = copy.deepcopy(rec["actions"])
    if not options:
        return actions, -1
    k, legal = rng.choice(options)
    actions[k]["action"] = rng.choice(legal)
    return actions, k


NONCANONICAL = {
    "draw": "Draw",
    "skip": "skip ",
    "stop": "STOP",
}


def _noncanonical(text: str) -> str:
    if text in NONCANONICAL:
        return NONCANONICAL[text]
    words = text.split(" ")
    if words[0] == "reroll" and len(words) > 2:
        return "reroll " + " ".join(reversed(words[1:]))
    if words[0] == "reroll":
        return "re-roll " + words[1]
    return text.replace(" ", "  ", 1)


def tampered(rec: dict[str, Any], rng: random.Random) -> Iterator[tuple[str, object]]:
    """Changed copies of a valid signed record, each named by what was changed."""
    actions = rec["actions"]

    def changed(mutate: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
        out = copy.deepcopy(rec)
        mutate(out)
        return out

    def swap(r: dict[str, Any]) -> None:
        pairs = [i for i in range(len(actions) - 1) if actions[i] != actions[i + 1]]
        if pairs:
            i = rng.choice(pairs)
            r["actions"][i], r["actions"][i + 1] = r["actions"][i + 1], r["actions"][i]

    yield "swap two actions", changed(swap)
    other, _k = _other_legal(rec, rng)
    yield "another legal action", changed(lambda r: r.__setitem__("actions", other))
    yield "a name", changed(lambda r: r["players"][0].__setitem__("name", "Mallory"))
    yield (
        "a bot flag",
        changed(lambda r: r["players"][-1].__setitem__("bot", not r["players"][-1]["bot"])),
    )
    yield "a level removed", changed(lambda r: r["players"][0].pop("level", None))
    yield "a level null", changed(lambda r: r["players"][0].__setitem__("level", None))
    yield "by", changed(lambda r: r["actions"][0].__setitem__("by", "table"))
    yield "winners", changed(lambda r: r["outcome"].__setitem__("winners", _other_winners(r)))
    yield "scores dropped", changed(lambda r: r["outcome"].pop("scores"))
    yield "draw dropped", changed(lambda r: r["outcome"].pop("draw"))
    yield "outcome null", changed(lambda r: r.__setitem__("outcome", None))
    yield "actions cut", changed(lambda r: r.__setitem__("actions", r["actions"][:-1]))
    yield "no signature", changed(lambda r: r.pop("signature"))
    yield (
        "signature flipped",
        changed(lambda r: r["signature"].__setitem__("value", _flip(r["signature"]["value"]))),
    )
    yield "key id", changed(lambda r: r["signature"].__setitem__("key_id", "0" * 16))
    yield (
        "fingerprint wrong",
        changed(lambda r: r.__setitem__("fingerprint", "0000-0000-0000-0000")),
    )
    yield "fingerprint absent", changed(lambda r: r.pop("fingerprint"))
    yield "fingerprint null", changed(lambda r: r.__setitem__("fingerprint", None))
    yield "params empty", changed(lambda r: r.__setitem__("params", {}))
    yield (
        "commitment upper",
        changed(lambda r: r.__setitem__("commitment", r["commitment"].upper())),
    )
    yield "chain missing", changed(lambda r: r.pop("chain"))
    yield "chain other", changed(lambda r: r.__setitem__("chain", _flip(r["chain"])))
    yield "unknown field", changed(lambda r: r.__setitem__("note", "hi"))
    yield "unknown step field", changed(lambda r: r["actions"][0].__setitem__("t", 1))
    yield "step by missing", changed(lambda r: r["actions"][0].pop("by"))
    yield (
        "seat out of range",
        changed(lambda r: r["actions"][0].__setitem__("seat", len(r["players"]))),
    )
    yield "seat float", changed(lambda r: r["actions"][0].__setitem__("seat", 1.0))
    yield "format 2.0", changed(lambda r: r.__setitem__("format", 2.0))
    yield "secret null", changed(lambda r: r.__setitem__("secret", None))
    yield "seed null", changed(lambda r: r.__setitem__("seed", None))
    yield "contribution space", changed(lambda r: r["contributions"].__setitem__(0, "a b"))
    yield "contribution added", changed(lambda r: r["contributions"].__setitem__(0, "mine"))
    yield "table long", changed(lambda r: r.__setitem__("table", "t" * 65))
    yield "players short", changed(lambda r: r.__setitem__("players", r["players"][:-1]))
    # Format 1: no signature, so the replay itself must catch every change.
    f1 = to_format1(rec)
    yield "f1 valid", f1
    yield "f1 no by", _f1(f1, lambda r: [a.pop("by") for a in r["actions"]])
    yield "f1 another legal action", _f1(f1, lambda r: r.__setitem__("actions", other))
    yield (
        "f1 swap two actions",
        _f1(f1, lambda r: r.__setitem__("actions", changed(swap)["actions"])),
    )
    yield "f1 actions cut", _f1(f1, lambda r: r.__setitem__("actions", r["actions"][:-1]))
    yield "f1 extra action", _f1(f1, lambda r: r["actions"].append(dict(r["actions"][-1])))
    yield "f1 winners", _f1(f1, lambda r: r["outcome"].__setitem__("winners", _other_winners(r)))
    yield "f1 reason", _f1(f1, lambda r: r["outcome"].__setitem__("reason", "camp"))
    yield (
        "f1 scores",
        _f1(f1, lambda r: r["outcome"].__setitem__("scores", [9] * len(r["players"]))),
    )
    yield "f1 noncanonical", _f1(f1, lambda r: _noncanonical_step(r, rng))
    yield "f1 wrong seat", _f1(f1, lambda r: _wrong_seat(r, rng))
    yield (
        "f1 fingerprint 80",
        _f1(f1, lambda r: r.__setitem__("fingerprint", verifier.fingerprint(r["commitment"]))),
    )
    yield "f1 old shared shape", _f1(f1, _old_shape)
    yield "f1 random history", random_history(rec, rng)
    yield from _malformed(rec, f1)
    yield from _format3(rec)
    yield from _format4(rec)


def resigned(rec: dict[str, Any]) -> dict[str, Any]:
    """The record signed again by a fresh key (whose holder could write anything): the checks
    after the signature must catch a change by themselves."""
    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes_raw()
    out = copy.deepcopy(rec)
    out.pop("signature", None)
    out["signature"] = {
        "alg": "ed25519",
        "key_id": hashlib.sha256(public).hexdigest()[:16],
        "public_key": public.hex(),
        "value": key.sign(verifier.signed_bytes(out)).hex(),
    }
    return out


def _format3(rec: dict[str, Any]) -> Iterator[tuple[str, object]]:
    """Format 3's seat commitments, reveals and salts: changed and signed again (the `reveal` and
    `seed` checks must catch them), or malformed."""
    seats = range(len(rec["players"]))
    revealed = [s for s in seats if rec["contributions"][s] is not None]
    withheld = [s for s in seats if rec["commitments"][s] and rec["contributions"][s] is None]
    empty = [s for s in seats if rec["commitments"][s] is None]

    def edit(mutate: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
        out = copy.deepcopy(rec)
        mutate(out)
        return out

    def put(r: dict[str, Any], seat: int, given: str | None, salt: str | None) -> None:
        r["contributions"][seat], r["salts"][seat] = given, salt

    yield "f3 resigned unchanged", resigned(rec)
    if revealed:
        s = revealed[0]
        yield "f3 reveal changed", resigned(edit(lambda r: r["contributions"].__setitem__(s, "x")))
        yield "f3 salt changed", resigned(edit(lambda r: r["salts"].__setitem__(s, "0" * 32)))
        yield "f3 reveal withdrawn", resigned(edit(lambda r: put(r, s, None, None)))
        yield "f3 salt missing", edit(lambda r: r["salts"].__setitem__(s, None))
        yield "f3 salt upper", edit(lambda r: r["salts"].__setitem__(s, r["salts"][s].upper()))

        def forged(r: dict[str, Any]) -> None:
            put(r, s, "forged", "ab" * 16)
            r["commitments"][s] = verifier.seat_commitment("forged", "ab" * 16)

        yield "f3 other reveal", resigned(edit(forged))
        yield "f3 reveal without commitment", edit(lambda r: r["commitments"].__setitem__(s, None))
    if withheld:
        s = withheld[0]
        yield "f3 withheld dropped", resigned(edit(lambda r: r["commitments"].__setitem__(s, None)))
        yield "f3 withheld salt", edit(lambda r: r["salts"].__setitem__(s, "0" * 32))
    if empty:
        s = empty[0]
        yield (
            "f3 commitment added",
            resigned(edit(lambda r: r["commitments"].__setitem__(s, "0" * 64))),
        )
    yield "f3 commitments absent", edit(lambda r: r.pop("commitments"))
    yield "f3 salts short", edit(lambda r: r.__setitem__("salts", r["salts"][:-1]))
    yield "f3 commitment short", edit(lambda r: r["commitments"].__setitem__(0, "ab"))


def _format4(rec: dict[str, Any]) -> Iterator[tuple[str, object]]:
    """Format 4's seats: `by` against who held each seat, bots committing to nothing, and a
    bot's takeover of a person's seat bound by the chain (the head computed again here, from
    fairness.md's construction, as a forger with the key would)."""
    if rec.get("format") != 4:
        return
    seats = range(len(rec["players"]))
    people = [s for s in seats if not rec["players"][s]["bot"]]
    bots = [s for s in seats if rec["players"][s]["bot"]]

    def edit(mutate: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
        out = copy.deepcopy(rec)
        mutate(out)
        return out

    def rechained(r: dict[str, Any]) -> dict[str, Any]:
        r["chain"] = verifier.chain_heads(r, len(r["players"]))[-1]
        return resigned(r)

    def all_bot(r: dict[str, Any]) -> None:
        for a in r["actions"]:
            a["by"] = "bot"

    if any(a["seat"] in people for a in rec["actions"]):
        yield "f4 every step by a bot", rechained(edit(all_bot))
    if bots:
        s = bots[0]
        yield (
            "f4 bot committed",
            resigned(edit(lambda r: r["commitments"].__setitem__(s, "c" * 64))),
        )
    mine = [k for k, a in enumerate(rec["actions"], 1) if people and a["seat"] == people[0]]
    if len(mine) >= 2:
        seat, after = people[0], mine[len(mine) // 2]

        def take_over(r: dict[str, Any]) -> None:
            r["players"][seat] |= {"bot": True, "level": "random", "bot_from": after}
            for k, a in enumerate(r["actions"], 1):
                if a["seat"] == seat and k > after:
                    a["by"] = "bot"

        yield "f4 takeover", rechained(edit(take_over))
        yield "f4 takeover unbound", resigned(edit(take_over))

        def late(r: dict[str, Any]) -> None:
            take_over(r)
            r["players"][seat]["bot_from"] = len(r["actions"]) + 1

        yield "f4 takeover after the end", rechained(edit(late))


def _malformed(rec: dict[str, Any], f1: dict[str, Any]) -> Iterator[tuple[str, object]]:
    """Format-1 records reach the redeal, the replay and the outcome without a signature, so
    their parameters and outcome shapes are judged by the rules; format-2 shapes by the parser."""
    n = len(rec["players"])

    def set_f1(key: str, value: object) -> dict[str, Any]:
        return _f1(f1, lambda r: r.__setitem__(key, value))

    def set_f2(key: str, value: object) -> dict[str, Any]:
        out = copy.deepcopy(rec)
        out[key] = value
        return out

    def drop_f2(key: str) -> dict[str, Any]:
        out = copy.deepcopy(rec)
        out.pop(key)
        return out

    def outcome_f1(key: str, value: object) -> dict[str, Any]:
        return _f1(f1, lambda r: r["outcome"].__setitem__(key, value))

    yield "f1 players 2.0", set_f1("params", {"players": float(n)})
    yield "f1 players true", set_f1("params", {"players": True})
    yield "f1 players text", set_f1("params", {"players": str(n)})
    yield "f1 players 7", set_f1("params", {"players": 7})
    yield "f1 unknown param", set_f1("params", {"players": n, "x": 1})
    yield "f1 params empty", set_f1("params", {})
    yield "f1 unknown game", set_f1("game", "chess")
    yield "f1 seats short", set_f1("players", f1["players"][:-1])
    yield "f1 winners out of range", outcome_f1("winners", [n])
    yield "f1 winners negative", outcome_f1("winners", [-1])
    yield "f1 winners float", outcome_f1("winners", [0.0])
    yield "f1 scores bool", outcome_f1("scores", [True] * n)
    yield "f1 scores text", outcome_f1("scores", ["1"] * n)
    yield "f1 scores as ints", outcome_f1("scores", [int(x) for x in f1["outcome"]["scores"]])
    yield "f1 scores as floats", outcome_f1("scores", [float(x) for x in f1["outcome"]["scores"]])
    yield "f1 scores empty", outcome_f1("scores", [])
    yield "f1 draw text", outcome_f1("draw", "no")
    yield "f1 reason number", outcome_f1("reason", 1)
    yield "f1 draw absent", _f1(f1, lambda r: r["outcome"].pop("draw"))
    yield "f1 scores absent", _f1(f1, lambda r: r["outcome"].pop("scores"))
    yield "f1 outcome absent", _f1(f1, lambda r: r.pop("outcome"))
    yield "f1 outcome list", set_f1("outcome", [])
    yield "f1 outcome extra key", outcome_f1("why", "x")
    yield "f1 seed other", set_f1("seed", "x" + f1["seed"])
    yield "f1 seed null", set_f1("seed", None)
    yield "f1 seed number", set_f1("seed", 5)
    yield "f1 seed absent", _f1(f1, lambda r: r.pop("seed"))
    yield "f1 table field", set_f1("table", "t")
    yield "f1 by bogus", _f1(f1, lambda r: r["actions"][0].__setitem__("by", "robot"))
    yield "f1 level number", _f1(f1, lambda r: r["players"][0].__setitem__("level", 5))
    yield "f1 name missing", _f1(f1, lambda r: r["players"][0].pop("name"))
    yield "f1 bot missing", _f1(f1, lambda r: r["players"][0].pop("bot"))
    yield "f1 bot text", _f1(f1, lambda r: r["players"][0].__setitem__("bot", "yes"))
    yield "f1 player extra key", _f1(f1, lambda r: r["players"][0].__setitem__("elo", 1))
    yield "f1 step text", _f1(f1, lambda r: r["actions"].__setitem__(0, "draw"))
    yield "f1 action number", _f1(f1, lambda r: r["actions"][0].__setitem__("action", 5))
    yield "f1 seat negative", _f1(f1, lambda r: r["actions"][0].__setitem__("seat", -1))
    yield "f1 seat bool", _f1(f1, lambda r: r["actions"][0].__setitem__("seat", False))
    yield "f1 no actions", set_f1("actions", [])
    yield "f1 fingerprint absent", _f1(f1, lambda r: r.pop("fingerprint"))
    yield "f1 format true", set_f1("format", True)
    yield "not an object", [rec]
    yield "format missing", drop_f2("format")
    yield "format text", set_f2("format", "2")
    yield "format 5", set_f2("format", 5)
    yield "format 2 with commitments", set_f2("format", 2)
    yield "game missing", drop_f2("game")
    yield "params list", set_f2("params", [])
    yield "secret absent", drop_f2("secret")
    yield "seed absent", drop_f2("seed")
    yield "contributions absent", drop_f2("contributions")
    yield "contributions short", set_f2("contributions", rec["contributions"][:-1])
    yield "contribution number", set_f2("contributions", [5, *rec["contributions"][1:]])
    yield "contribution long", set_f2("contributions", ["a" * 65, *rec["contributions"][1:]])
    yield "table empty", set_f2("table", "")
    yield "table absent", drop_f2("table")
    yield "outcome absent", drop_f2("outcome")
    yield "players empty", set_f2("players", [])
    yield "actions object", set_f2("actions", {})
    yield "signature null", set_f2("signature", None)
    yield "signature extra", set_f2("signature", {**rec["signature"], "note": "x"})
    yield "signature alg", set_f2("signature", {**rec["signature"], "alg": "rsa"})
    yield (
        "signature upper",
        set_f2("signature", {**rec["signature"], "key_id": rec["signature"]["key_id"].upper()}),
    )
    yield (
        "signature short",
        set_f2("signature", {**rec["signature"], "value": rec["signature"]["value"][:-2]}),
    )
    yield "secret other", set_f2("secret", _flip(rec["secret"]))
    yield "secret upper", set_f2("secret", rec["secret"].upper())


def _f1(f1: dict[str, Any], mutate: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    out = copy.deepcopy(f1)
    mutate(out)
    return out


def _other_winners(r: dict[str, Any]) -> list[int]:
    return [0] if r["outcome"]["winners"] == [1] else [1]


def _flip(hex_text: str) -> str:
    return ("1" if hex_text[0] == "0" else "0") + hex_text[1:]


def _noncanonical_step(r: dict[str, Any], rng: random.Random) -> None:
    k = rng.randrange(len(r["actions"]))
    r["actions"][k]["action"] = _noncanonical(r["actions"][k]["action"])


def _wrong_seat(r: dict[str, Any], rng: random.Random) -> None:
    k = rng.randrange(len(r["actions"]))
    r["actions"][k]["seat"] = (r["actions"][k]["seat"] + 1) % len(r["players"])


def _old_shape(r: dict[str, Any]) -> None:
    o = r["outcome"]
    if r["game"] == "heroes" and o["draw"]:
        o["winners"], o["draw"] = [], True
    elif len(o["winners"]) > 1:
        o["draw"] = False
    else:
        o["winners"] = list(reversed(o["winners"]))


def receipt_cases(rec: dict[str, Any], rng: random.Random) -> Iterator[tuple[str, list[object]]]:
    """Receipts for a valid record: right ones, and ones it must fail."""
    n = rec["params"].get("players", len(rec["players"]))
    heads = verifier.chain_heads(rec, n)
    v = rng.randrange(len(heads))
    good = {"table": rec["table"], "version": v, "chain": heads[v]}
    yield "receipt good", [good, {"table": rec["table"], "version": 0, "chain": heads[0]}]
    yield "receipt other head", [{**good, "chain": _flip(good["chain"])}]
    yield "receipt later version", [{**good, "version": len(heads)}]
    yield "receipt other table", [{**good, "table": rec["table"] + "x"}]


def write_cases(
    records: Iterable[tuple[str, Path]], out: Path, per_config: int, seed: int = 7
) -> list[Case]:
    """Tampered variants, receipts and key checks of the first `per_config` records of each
    configuration, written under `out`."""
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    cases: list[Case] = []
    taken: dict[str, int] = {}
    wrong_key = out / "wrong-key.pub"
    wrong_key.write_text("11" * 32 + "\n")
    for config, path in records:
        if taken.get(config, 0) >= per_config:
            continue
        number = taken[config] = taken.get(config, 0) + 1
        rec = json.loads(path.read_text())
        stem = f"{config.replace('/', '-')}-{number:03d}"
        for i, (kind, variant) in enumerate(tampered(rec, rng)):
            target = out / f"{stem}-{i:02d}.json"
            target.write_text(json.dumps(variant, ensure_ascii=False, indent=1))
            cases.append(Case(kind, target, config=config))
            if kind == "f1 valid":
                f1_path = target
        for j, (kind, receipts) in enumerate(receipt_cases(rec, rng)):
            receipt = out / f"{stem}-receipt{j}.json"
            receipt.write_text(json.dumps(receipts))
            cases.append(Case(kind, path, receipts=[receipt], config=config))
        cases.append(Case("key right", path, key=path.parent / "signing-key.pub", config=config))
        cases.append(Case("key wrong", path, key=wrong_key, config=config))
        cases.append(
            Case("f1 with key", f1_path, key=path.parent / "signing-key.pub", config=config)
        )
        cases.append(Case("f1 with receipt", f1_path, receipts=[receipt], config=config))
    return cases
