"""What several commands share: the usage error, reading a JSON file or standard input, the games
and bot levels an argument names."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TypeAlias

from ludoteca.bots import LEVELS
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
