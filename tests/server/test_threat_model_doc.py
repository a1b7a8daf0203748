"""docs/accounts.md's threat model names, for each attack, the test that tries it: every test it
names exists, in the file it names (or, named alone, in some test file), so the table cannot
point at a test that was renamed or removed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FILES = {"A": "test_accounts.py", "S": "test_accounts_service.py", "R": "test_password_reset.py"}
FILES["N"] = "test_notify.py"


def section() -> str:
    text = (ROOT / "docs" / "accounts.md").read_text("utf-8")
    return text.split("## Threat model", 1)[1].split("\n## ", 1)[0]


def defined(path: Path, name: str) -> bool:
    return re.search(rf"^def {name}\(", path.read_text("utf-8"), re.MULTILINE) is not None


def test_every_test_the_threat_model_names_exists() -> None:
    rows = [line for line in section().splitlines() if line.startswith("| ") and "test_" in line]
    assert len(rows) >= 15, "one row per attack"
    named = 0
    for row in rows:
        tests_cell = row.rstrip(" |").rsplit(" | ", 1)[1]
        for letter, file, name in re.findall(
            r"(?:\b([ASRN]) )?`(?:(?:web/)?(test_\w+\.py)::)?(test_\w+)`", tests_cell
        ):
            if name.endswith(".py") or not name.startswith("test_"):
                continue
            candidates = (
                [ROOT / "tests" / "server" / FILES[letter]]
                if letter
                else list((ROOT / "tests").rglob(file))
                if file
                else list((ROOT / "tests").rglob("test_*.py"))
            )
            assert candidates, (file, name)
            assert any(defined(path, name) for path in candidates), f"{name} ({row[:60]}…)"
            named += 1
    assert named >= 25
