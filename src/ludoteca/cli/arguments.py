"""What several commands share: the usage error, reading a JSON file or standard input, the games,
bot levels and table options an argument names."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TypeAlias

from ludoteca.bots import LEVELS
from ludoteca.core import Game
from ludoteca.games import all_games

Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""The ``ludoteca`` parser's commands, to which each command module adds its own parser."""


class UsageError(Exception):
    """Bad command-line input: printed and exit status 2."""


def game_help() -> str:
    """The help of an argument that names a game: the ids of the catalogue."""
    return f"game id ({', '.join(all_games())})"


def read_json(path: Path) -> Any:
    """The JSON of a file, or of standard input for ``-``."""
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path} is not JSON: {exc}") from None


def bot_levels(spec: str | None, players: int) -> list[str]:
    """``--bots``: one level per seat, or one for all of them (default: all random)."""
    levels = [s.strip() for s in spec.split(",")] if spec else ["random"] * players
    if len(levels) == 1 and players > 1:
        levels *= players
    if len(levels) != players:
        raise UsageError(f"--bots names {len(levels)} bots for {players} seats")
    for level in levels:
        if level not in LEVELS:
            raise UsageError(f"unknown bot level '{level}' (levels: {', '.join(LEVELS)})")
    return levels


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """``--option name=value``, once per table option of the game (``GameSpec.options``)."""
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option of the game, e.g. --option dice=3 (repeat for each; the game's "
        "options and their values: GET /api/games or a wrong one here)",
    )


def table_params(game: Game[Any, Any], players: int, options: list[str]) -> dict[str, Any]:
    """The match parameters from ``--players`` and each ``--option name=value``: the value read
    as the game lists it (``3`` a whole number when the option's values are), the others at their
    defaults. A usage error names the game's options or the option's values."""
    spec = game.spec
    known = {option.name: option for option in spec.options}
    offered = ", ".join(known) if known else "none"
    chosen: dict[str, Any] = {}
    for text in options:
        name, sign, value = text.partition("=")
        name, value = name.strip(), value.strip()
        if not sign or not name or not value:
            raise UsageError(f"--option {text!r}: write it as NAME=VALUE, e.g. --option dice=3")
        if name == "players":
            raise UsageError("--option players: the number of seats is --players")
        option = known.get(name)
        if option is None:
            raise UsageError(
                f"--option {name}: {spec.id} has no such table option (its options: {offered})"
            )
        if name in chosen:
            raise UsageError(f"--option {name} is given twice")
        match = [allowed for allowed in option.values if str(allowed) == value]
        if not match:
            shown = ", ".join(str(v) for v in option.values)
            raise UsageError(f"--option {name} must be one of {shown}, not {value!r}")
        chosen[name] = match[0]
    return spec.params({**chosen, "players": players})
