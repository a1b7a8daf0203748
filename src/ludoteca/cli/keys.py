"""``ludoteca keys list|rotate``: the server's record-signing keys, in the folder the server reads
(``ludoteca.server.config``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ludoteca.cli.arguments import Commands, UsageError
from ludoteca.server import config
from ludoteca.server.signing import KeyRing, rotate


def add_parser(commands: Commands) -> None:
    keys = commands.add_parser("keys", help="list or rotate the server's record-signing keys")
    keys.add_argument("action", choices=("list", "rotate"))
    keys.add_argument(
        "--dir",
        type=Path,
        default=Path(config.keys_folder()),
        help=f"the key folder every server process reads (default: $LUDOTECA_KEYS or "
        f"{config.DEFAULT_KEYS})",
    )
    keys.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
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
