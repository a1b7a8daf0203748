"""The ``ludoteca`` command."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("ludoteca: the command line is being built", file=sys.stderr)
    return 1
