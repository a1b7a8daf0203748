"""docs/research.md stays true: its examples run, and its tensor tables are the code's layouts."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from ludoteca.interop.encoding import encoding

PAGE = Path(__file__).resolve().parents[2] / "docs" / "research.md"
TEXT = PAGE.read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```python\n(.*?)```", TEXT, flags=re.DOTALL)


def test_the_page_has_its_examples() -> None:
    assert len(EXAMPLES) == 4


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_example_runs(index: int) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(EXAMPLES[index], f"research.md example {index + 1}", "exec"), {})
    assert out.getvalue().strip()


@pytest.mark.parametrize(
    ("game_id", "players"), [("heroes", 2), ("dice-heroes", 3), ("dwarves", 4), ("liars-dice", 2)]
)
def test_tensor_tables_match_the_code(game_id: str, players: int) -> None:
    layout = encoding(game_id, players)
    rows = [
        f"| `{s.name}` | {' x '.join(map(str, s.shape))} | {s.offset} | {s.meaning} |"
        for s in layout.segments
    ]
    table = "\n".join(["| block | shape | offset | meaning |", "|---|---|---|---|", *rows])
    assert table in TEXT
    assert f"{players} players, {layout.size} numbers" in TEXT
