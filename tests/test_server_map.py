"""``docs/server.md`` is the map of the server's code: every module of ``src/ludoteca/server`` is
named on it, and every module it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "src" / "ludoteca" / "server"
MAP = ROOT / "docs" / "server.md"

NAMED = re.compile(r"`((?:[a-z_]+/)*[a-z_]+\.py)`")


def named_modules(text: str) -> set[str]:
    """The server modules the page names, as paths under ``server/`` (``cli/``, ``core/``,
    ``web/`` and ``tests/`` paths are elsewhere: left out)."""
    return {p for p in NAMED.findall(text) if not p.startswith(("cli/", "core/", "web/", "tests/"))}


def server_modules() -> set[str]:
    found = set()
    for path in SERVER.rglob("*.py"):
        relative = path.relative_to(SERVER).as_posix()
        if path.name == "__init__.py" or relative.startswith("migrations/versions/"):
            continue
        found.add(relative)
    return found


def test_every_module_the_map_names_exists() -> None:
    named = named_modules(MAP.read_text(encoding="utf-8"))
    assert "table/ledger.py" in named
    assert sorted(p for p in named if not (SERVER / p).is_file()) == []


def test_every_module_of_the_server_is_on_the_map() -> None:
    named = named_modules(MAP.read_text(encoding="utf-8"))
    assert sorted(server_modules() - named) == []


def test_the_check_sees_a_missing_and_an_unnamed_module() -> None:
    assert named_modules("`table/gone.py` and `cli/serve.py`") == {"table/gone.py"}
    assert "table/table.py" in server_modules()
