"""The ``ludoteca`` command: serve the table, play in a terminal, simulate, verify, analyse,
list moves."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import sys
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ludoteca.bots import LEVELS, make_bot
from ludoteca.bots.arena import MatchResult, Tournament, run
from ludoteca.cli import analyse
from ludoteca.cli.terminal import StreamKeyboard, Terminal, TerminalTable, describe_outcome
from ludoteca.core import (
    Deal,
    InvalidParamsError,
    InvalidPositionError,
    Match,
    MatchRecord,
    Player,
    Receipt,
    SigningKey,
    UnknownGameError,
    verify,
)
from ludoteca.core.fairness import (
    commitment,
    contribution_problem,
    fingerprint,
    is_hex64,
    new_contribution,
    new_salt,
    new_secret,
    seat_commitment,
)
from ludoteca.games import all_games, get
from ludoteca.server.keys import KeyRing, rotate


class UsageError(Exception):
    """Bad command-line input: printed and exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        code: int = args.run(args)
    except (UsageError, UnknownGameError, InvalidParamsError, ValueError) as exc:
        print(f"ludoteca: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return code


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ludoteca", description="An online table for board games, with verifiable shuffles."
    )
    commands = parser.add_subparsers(metavar="COMMAND")
    game_ids = ", ".join(all_games())

    serve = commands.add_parser(
        "serve",
        help="start the table server (web table and API)",
        description="Start the table server (web table and API). Every option can also be set by "
        "its LUDOTECA_* environment variable (LUDOTECA_HOST, LUDOTECA_PORT, LUDOTECA_DB, "
        "LUDOTECA_REDIS, LUDOTECA_WORKERS); behind a proxy, LUDOTECA_FORWARDED_ALLOW_IPS names "
        "the proxies whose X-Forwarded-For is believed (none by default); "
        "LUDOTECA_LOG_FORMAT=json|text chooses the logs (default: text on a terminal, else JSON). "
        "See docs/deploy.md.",
    )
    serve.add_argument(
        "--host",
        default=os.environ.get("LUDOTECA_HOST", "127.0.0.1"),
        help="where to listen (default 127.0.0.1: this machine only); 0.0.0.0 lets phones and "
        "laptops on your network in, and the start line names the address they open",
    )
    serve.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("LUDOTECA_PORT", "8000")),
        help="the port (default 8000)",
    )
    serve.add_argument(
        "--db",
        default=os.environ.get("LUDOTECA_DB"),
        help="database URL (default: an SQLite file under ./var); postgresql://... for PostgreSQL",
    )
    serve.add_argument(
        "--redis",
        default=os.environ.get("LUDOTECA_REDIS"),
        help="redis://host:port/0 that server processes share: rate limits and, with several "
        "processes, table changes (default: LUDOTECA_REDIS, else none: limits in memory)",
    )
    serve.add_argument(
        "--upgrade", action="store_true", help="upgrade a database at an older schema first"
    )
    serve.add_argument(
        "--workers",
        type=workers_count,
        default=os.environ.get("LUDOTECA_WORKERS", "1"),
        metavar="N",
        help="server processes on this address (default: LUDOTECA_WORKERS, else 1); more than 1 "
        "needs --db postgresql://... and --redis, which the processes share (see docs/deploy.md)",
    )
    serve.set_defaults(run=cmd_serve)
    add_db_commands(commands)

    sim = commands.add_parser("simulate", help="play bot matches and print the results")
    sim.add_argument("game", help=f"game id ({game_ids})")
    sim.add_argument("--players", type=int, help="number of seats (default: the game's minimum)")
    sim.add_argument("--games", type=int, default=100, help="number of matches (default 100)")
    sim.add_argument("--seed", default="1", help="master seed; match seeds derive from it")
    sim.add_argument(
        "--bots",
        help=f"one level per seat, comma-separated ({', '.join(LEVELS)}; default: all random)",
    )
    sim.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    sim.add_argument(
        "--iterations",
        type=int,
        help="a fixed search budget per decision for hard instead of its clock (reproducible)",
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument("--records", type=Path, metavar="DIR", help="write every match record here")
    sim.add_argument(
        "--commit",
        action="store_true",
        help="each seat commits to and reveals a contribution as a person would (some commit to "
        "nothing, some never reveal), so the records carry every format-3 field",
    )
    sim.set_defaults(run=cmd_simulate)

    ver = commands.add_parser("verify", help="check a finished match record")
    ver.add_argument("record", type=Path, help="record file (JSON), or - for standard input")
    ver.add_argument(
        "--receipt",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="receipts the table showed you (JSON: one, or a list); the record must agree",
    )
    trust = ver.add_mutually_exclusive_group()
    trust.add_argument(
        "--key",
        type=Path,
        metavar="FILE",
        help="the server's public keys (hex, one a line, or the JSON of GET /api/keys)",
    )
    trust.add_argument(
        "--server", metavar="URL", help="fetch the server's public keys from URL/api/keys"
    )
    ver.set_defaults(run=cmd_verify)

    analyse.add_parser(commands, lambda name: read_json(Path(name)))

    keys = commands.add_parser("keys", help="list or rotate the server's record-signing keys")
    keys.add_argument("action", choices=("list", "rotate"))
    keys.add_argument(
        "--dir",
        type=Path,
        default=Path(os.environ.get("LUDOTECA_KEYS", "var/keys")),
        help="the key folder every server process reads (default: $LUDOTECA_KEYS or var/keys)",
    )
    keys.set_defaults(run=cmd_keys)

    moves = commands.add_parser("moves", help="print the legal actions of a position")
    moves.add_argument("game", help=f"game id ({game_ids})")
    moves.add_argument("--position", type=Path, required=True, help="position file (JSON) or -")
    moves.set_defaults(run=cmd_moves)

    play = commands.add_parser("play", help="play a match in the terminal against bots")
    play.add_argument("game", help=f"game id ({game_ids})")
    play.add_argument("--players", type=int, help="number of seats (default: the game's minimum)")
    play.add_argument("--seat", type=int, default=1, help="your seat, 1-based (default 1)")
    play.add_argument("--bots", default="medium", help=f"bot level(s) ({', '.join(LEVELS)})")
    play.add_argument(
        "--seed", help="the table's secret, 64 lowercase hex digits (default: a fresh one)"
    )
    play.add_argument(
        "--my-seed", help="your own contribution to the deal (default: a fresh random one)"
    )
    play.add_argument(
        "--turn-seconds",
        type=int,
        default=120,
        help="your time per turn; past it the table plays for you (default 120, 0: no clock)",
    )
    play.add_argument("--lang", default="en", help="language of the sentences: en, pt or de")
    play.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="where the match record is written at the end (default: <game>-<table>.json here)",
    )
    play.set_defaults(run=cmd_play)
    return parser


# --------------------------------------------------------------------------------- simulate
def bot_levels(spec: str | None, players: int) -> list[str]:
    levels = [s.strip() for s in spec.split(",")] if spec else ["random"] * players
    if len(levels) == 1 and players > 1:
        levels *= players
    if len(levels) != players:
        raise UsageError(f"--bots names {len(levels)} bots for {players} seats")
    for level in levels:
        if level not in LEVELS:
            raise UsageError(f"unknown bot level '{level}' (levels: {', '.join(LEVELS)})")
    return levels


def cmd_simulate(args: argparse.Namespace) -> int:
    game = get(args.game)
    players = game.spec.params({"players": args.players or game.spec.min_players})["players"]
    levels = bot_levels(args.bots, players)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.iterations is not None and args.iterations < 1:
        raise UsageError("--iterations must be at least 1")
    key = SigningKey.generate()
    if args.records:
        args.records.mkdir(parents=True, exist_ok=True)
        (args.records / "signing-key.pub").write_text(key.public_key + "\n", encoding="utf-8")
    progress = Progress(args.games, sys.stderr)

    def on_result(result: MatchResult) -> None:
        if args.records and result.record is not None:
            record = MatchRecord.from_json(json.loads(result.record)).sign(key)
            path = args.records / f"{game.spec.id}-{result.index:05d}.json"
            path.write_text(record.dumps() + "\n", encoding="utf-8")
        progress.step()

    tournament = run(
        game.spec.id,
        players,
        levels,
        args.games,
        str(args.seed),
        jobs=max(1, args.jobs),
        keep_records=args.records is not None,
        iterations=args.iterations,
        on_result=on_result,
        commit=args.commit,
    )
    progress.done()
    if args.records:
        print(
            f"records signed with key {key.key_id}, made for this run: its public key is "
            f"{args.records / 'signing-key.pub'} (ludoteca verify --key)",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(tournament.to_json()))
    else:
        print(format_table(tournament))
    return 0


def format_table(t: Tournament) -> str:
    lines = [
        f"{t.game}: {t.games} matches, {t.players} players",
        f"{'bot':<12} {'level':<8} {'wins':>6} {'rate':>7}   95% interval",
    ]
    for i, level in enumerate(t.bots):
        rate, low, high = t.win_rate(i)
        lines.append(
            f"{'bot ' + str(i + 1):<12} {level:<8} {t.wins[i]:>6} {rate:>7.1%}   "
            f"{low:.1%} - {high:.1%}"
        )
    lines.append(f"draws (shared results): {t.draws}, no winner: {t.nobody}")
    lines.append(f"mean actions per match: {t.mean_actions:.1f}")
    lines.append(f"matches per second: {t.games_per_second:.1f}")
    lines.append("(seats rotate between matches; bot N keeps its column)")
    return "\n".join(lines)


class Progress:
    """A one-line progress bar on a terminal; a few plain lines elsewhere."""

    def __init__(self, total: int, out: TextIO) -> None:
        self.total, self.out, self.count = total, out, 0
        self.tty = out.isatty()
        self.every = max(1, total // (100 if self.tty else 4))

    def step(self) -> None:
        self.count += 1
        if self.count % self.every and self.count != self.total:
            return
        if self.tty:
            filled = 30 * self.count // self.total
            bar = "#" * filled + "." * (30 - filled)
            self.out.write(f"\r[{bar}] {self.count}/{self.total}")
        else:
            self.out.write(f"{self.count}/{self.total} matches\n")
        self.out.flush()

    def done(self) -> None:
        if self.tty:
            self.out.write("\n")
            self.out.flush()


# ----------------------------------------------------------------------------------- verify
def read_json(path: Path) -> Any:
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not JSON: {exc}") from None


def cmd_verify(args: argparse.Namespace) -> int:
    data = read_json(args.record)
    receipts = [r for path in args.receipt for r in read_receipts(path)]
    trusted = trusted_keys(args)
    verdict = verify(data, get, receipts=receipts, trusted_keys=trusted)
    if not verdict.ok:
        for problem in verdict.problems:
            print(f"FAILED ({problem.check}): {problem.message}")
        return 1
    assert verdict.outcome is not None
    record = MatchRecord.from_json(data)
    what = "secret" if record.format >= 2 else "seed"
    print(
        f"OK: {record.game} match {record.fingerprint}, {len(record.actions)} actions replayed, "
        f"commitment matches the {what}"
    )
    if verdict.key_id is not None:
        whose = "one of the server's keys" if trusted is not None else "the key the record names"
        print(f"signed by key {verdict.key_id} ({whose}), fingerprint {verdict.key_fingerprint}")
        given = sum(c is not None for c in record.contributions)
        withheld = sum(
            c is None and p is not None
            for c, p in zip(record.contributions, record.commitments, strict=False)
        )
        kept = f", {withheld} commitment(s) never revealed" if withheld else ""
        print(f"seed = HMAC(secret, table {record.table} and {given} players' seeds{kept})")
    if verdict.receipts:
        print(f"{verdict.receipts} receipt(s) agree with the record's chain")
    print(f"outcome: {describe_outcome(verdict.outcome.to_json(), data['players'])}")
    for note in verdict.notes:
        print(f"note: {note}")
    return 0


def read_receipts(path: Path) -> list[Receipt]:
    data = read_json(path)
    try:
        return [Receipt.from_json(r) for r in (data if isinstance(data, list) else [data])]
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from None


def trusted_keys(args: argparse.Namespace) -> set[str] | None:
    """The public keys given with --key or fetched with --server, or None."""
    if args.key is not None:
        try:
            text = args.key.read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot read {args.key}: {exc.strerror}") from None
        return parse_keys(text, str(args.key))
    if args.server is not None:
        url = args.server.rstrip("/") + "/api/keys"
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                text = response.read().decode()
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot fetch {url}: {exc}") from None
        return parse_keys(text, url)
    return None


def parse_keys(text: str, where: str) -> set[str]:
    """Public keys from the JSON of GET /api/keys, or hex keys one a line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("keys"), list):
        found = {k.get("public_key") for k in data["keys"] if isinstance(k, dict)}
    else:
        found = {line.strip().lower() for line in text.splitlines() if line.strip()}
    keys = {k for k in found if isinstance(k, str) and len(k) == 64}
    if not keys or any(not all(c in "0123456789abcdef" for c in k) for k in keys):
        raise UsageError(f"{where} holds no Ed25519 public keys (64 hex digits each)")
    return keys


# ------------------------------------------------------------------------------------- keys
def cmd_keys(args: argparse.Namespace) -> int:
    """Rotation makes a new key that signs from the next record on; running servers notice the
    folder changed and sign with it; older keys stay published and their records keep checking."""
    if args.action == "rotate":
        _, key = rotate(args.dir)
        print(
            f"new signing key {key.key_id} in {args.dir}: servers reading this folder sign with "
            "it from their next record (copy it to every machine's key folder)"
        )
    try:
        ring = KeyRing.load(args.dir, create=False)
    except (FileNotFoundError, ValueError) as exc:
        raise UsageError(f"{exc} (make one with 'ludoteca keys rotate --dir {args.dir}')") from None
    for published in ring.published():
        state = "retired" if published.retired_at else "current"
        print(f"{published.key_id}  {state:7}  {published.public_key}")
    return 0


# ------------------------------------------------------------------------------------ moves
def cmd_moves(args: argparse.Namespace) -> int:
    game = get(args.game)
    try:
        state = game.from_json(read_json(args.position))
    except InvalidPositionError as exc:
        print(f"ludoteca: not a {game.spec.id} position: {exc}", file=sys.stderr)
        return 2
    for text in game.legal_texts(state):
        print(text)
    return 0


# ------------------------------------------------------------------------------------- play
def cmd_play(args: argparse.Namespace) -> int:
    game = get(args.game)
    players = game.spec.params({"players": args.players or game.spec.min_players})["players"]
    if not 1 <= args.seat <= players:
        raise UsageError(f"--seat must be between 1 and {players}")
    if args.turn_seconds < 0:
        raise UsageError("--turn-seconds must be 0 (no clock) or more")
    human = args.seat - 1
    others = bot_levels(args.bots, players - 1) if players > 1 else []
    levels: list[str | None] = [*others[:human], None, *others[human:]]
    secret = args.seed or new_secret()
    if not is_hex64(secret):
        raise UsageError("--seed: the table's secret is 64 lowercase hex digits")
    mine = args.my_seed or new_contribution()
    problem = contribution_problem(mine)
    if problem:
        raise UsageError(f"--my-seed: {problem}")
    seats = [
        Player("you") if lv is None else Player(f"{lv} bot", bot=True, level=lv) for lv in levels
    ]
    salt = new_salt()
    promised = seat_commitment(mine, salt)
    contributions = tuple(mine if lv is None else None for lv in levels)
    commitments = tuple(promised if lv is None else None for lv in levels)
    salts = tuple(salt if lv is None else None for lv in levels)
    table_id = f"terminal-{secrets.token_hex(4)}"
    deal = Deal(secret, table_id, contributions, commitments, salts)
    match = Match(game, {"players": players}, deal, seats)
    bots = {seat: make_bot(lv, game) for seat, lv in enumerate(levels) if lv is not None}
    live = os.name == "posix" and sys.stdin.isatty() and sys.stdout.isatty()  # select() on stdin
    table = TerminalTable(
        match,
        human,
        bots,
        term=Terminal(game, args.lang),
        out=sys.stdout,
        keys=StreamKeyboard(sys.stdin, live),
        turn_seconds=args.turn_seconds,
        live=live,
        record_path=args.record,
        width=shutil.get_terminal_size().columns,
    )
    table.intro = [
        f"{game.spec.name(args.lang)} — table {table_id} — you are seat {args.seat} of {players}.",
        f"The table's commitment: {commitment(secret)} ({fingerprint(commitment(secret))})",
        f"Your seed, mixed into the deal: {mine} (salt {salt})",
        f"Your commitment, sent before any seed was revealed: {promised}",
        "Type the number of an action or the action, '?' for all of them, 'quit' to leave.",
    ]
    return table.run()


# ------------------------------------------------------------------------------------ serve
def cmd_serve(args: argparse.Namespace) -> int:
    # the web stack (FastAPI, SQLAlchemy, uvicorn) loads only for this command
    from ludoteca.server.main import serve  # noqa: PLC0415

    return serve(
        host=args.host,
        port=args.port,
        db=args.db,
        redis=args.redis,
        upgrade=args.upgrade,
        workers=args.workers,
    )


def workers_count(text: str) -> int:
    """``--workers``: a whole number of processes, 1 or more."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of processes, not {text!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"1 or more processes, not {count}")
    return count


# --------------------------------------------------------------------------------------- db
def add_db_commands(commands: Any) -> None:
    db = commands.add_parser("db", help="the server's database: upgrade its schema, show it")
    db.set_defaults(run=lambda _args: db.print_help() or 2)
    actions = db.add_subparsers(metavar="ACTION")
    for name, handler, about in (
        ("upgrade", cmd_db_upgrade, "bring the database to the newest schema revision"),
        ("current", cmd_db_current, "print the database's schema revision"),
    ):
        action = actions.add_parser(name, help=about)
        action.add_argument(
            "--db",
            default=os.environ.get("LUDOTECA_DB", "sqlite:///var/ludoteca.sqlite3"),
            help="database URL (default: LUDOTECA_DB, else the SQLite file under ./var)",
        )
        action.set_defaults(run=handler)


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    # SQLAlchemy and Alembic load only for the db commands
    from ludoteca.server.storage import migrate  # noqa: PLC0415

    try:
        before, after, seconds = migrate.upgrade_url(args.db)
    except migrate.DatabaseError as exc:
        print(f"ludoteca: {exc}", file=sys.stderr)
        return 1
    if before.empty:
        print(f"{migrate.shown(args.db)}: created at {after.current} in {seconds:.2f} s")
    elif before.current == after.current:
        print(f"{migrate.shown(args.db)}: already at {after.describe()}")
    else:
        print(
            f"{migrate.shown(args.db)}: upgraded from {before.describe()} "
            f"to {after.current} in {seconds:.2f} s"
        )
    return 0


def cmd_db_current(args: argparse.Namespace) -> int:
    from ludoteca.server.storage import migrate  # noqa: PLC0415

    try:
        print(migrate.current_url(args.db).describe())
    except migrate.DatabaseError as exc:
        print(f"ludoteca: {exc}", file=sys.stderr)
        return 1
    return 0
