"""``ludoteca verify RECORD``: check a finished match record, against the receipts a player kept
and the server's public keys."""

from __future__ import annotations

import argparse
import json
import urllib.request
from pathlib import Path

from ludoteca.cli import logcheck
from ludoteca.cli.arguments import Commands, UsageError, read_json
from ludoteca.cli.terminal import describe_outcome
from ludoteca.core import MatchRecord, Receipt, verify
from ludoteca.games import get


def add_parser(commands: Commands) -> None:
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
    ver.add_argument(
        "--log",
        metavar="URL",
        help="check that the server at URL lists the table in its public log (docs/log.md)",
    )
    ver.add_argument(
        "--heads",
        type=Path,
        metavar="FILE",
        help="with --log: the log's heads seen before (kept in FILE); the new one must extend them",
    )
    ver.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
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
    shown = verdict.outcome.to_json() | ({"ended": record.ended} if record.ended else {})
    print(f"outcome: {describe_outcome(shown, data['players'])}")
    for note in verdict.notes:
        print(f"note: {note}")
    if args.log is not None:
        return log_check(args, record)
    return 0


def log_check(args: argparse.Namespace, record: MatchRecord) -> int:
    """``--log``: the table in the server's public log, under a head signed by its keys."""
    listed = logcheck.fetch(args.log, "/api/keys").get("keys", [])
    keys = {k["key_id"]: k["public_key"] for k in listed if isinstance(k, dict)}
    problems = logcheck.check(args.log, record, keys, args.heads)
    for problem in problems:
        print(f"FAILED (log): {problem}")
    return 1 if problems else 0


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
