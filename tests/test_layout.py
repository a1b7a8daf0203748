"""A game's everything is in its package: no file of ludoteca outside ``src/ludoteca/games/<game>/``
names a game, by identifier, package name, class or display name in any language. The catalogue's
own discovery (``games/__init__.py``) is the one exception, and a data file may be excused with
its reason (``kit.layout``).

And no module of ludoteca is over ``MAX_LINES`` lines, except the games' rules (a game's
``rules.py`` and the modules its package declares in ``COMPILED``)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from kit.env import ROOT
from kit.layout import DATA, folder, named_outside, names, pattern
from ludoteca.core import Game
from ludoteca.games import all_games
from toygame import GAME as TOY


def packaged() -> list[Game[Any, Any]]:
    return [g for g in all_games().values() if g.package.startswith("ludoteca.games.")]


def test_nothing_outside_a_game_s_package_names_a_game() -> None:
    games = packaged()
    assert len(games) >= 3
    assert named_outside(games) == {}


def test_the_check_finds_a_game_named_in_any_of_its_ways() -> None:
    """The toy game's words, found as whole words in any case, and not inside other words."""
    words = names(TOY)
    assert {"high-card", "high_card", "toygame", "HighCardGame", "High Card", "Hohe Karte"} <= words
    match = pattern(words)
    for line in ("game=high-card", "games.high_card.rules", "a HIGH CARD duel", "toygame_x.js"):
        assert match.search(line), line
    for line in ("high-cards", "thigh card", "carta altas", "mytoygame"):
        assert not match.search(line), line


def test_each_data_file_excused_still_names_a_game() -> None:
    """An excuse that no longer matches is taken out."""
    match = pattern(set().union(*(names(g) for g in packaged())))
    for path in DATA:
        assert match.search((ROOT / path).read_text(encoding="utf-8")), path


MAX_LINES = 450
"""The most lines a module of ludoteca may have, the games' rules aside."""


def long_modules(root: Path, under: str, limit: int) -> dict[str, int]:
    """Each ``.py`` file under ``root/under`` with more than ``limit`` lines, by its path from
    ``root``, with its count of lines."""
    found = {}
    for path in sorted((root / under).rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found[path.relative_to(root).as_posix()] = lines
    return found


def rules_modules() -> set[str]:
    """The games' rules, by path: each packaged game's ``rules.py`` and the modules its package
    declares in ``COMPILED`` (``docs/games.md``)."""
    found = set()
    for game in packaged():
        base = folder(game).relative_to(ROOT).as_posix()
        compiled = getattr(importlib.import_module(game.package), "COMPILED", ())
        found |= {f"{base}/{name}.py" for name in ("rules", *compiled)}
    return found


def test_no_module_is_over_450_lines_but_the_games_rules() -> None:
    excused = rules_modules()
    offenders = {
        path: lines
        for path, lines in long_modules(ROOT, "src/ludoteca", MAX_LINES).items()
        if path not in excused
    }
    listed = ", ".join(f"{path} ({lines} lines)" for path, lines in offenders.items())
    assert not offenders, f"over {MAX_LINES} lines, split by subject: {listed}"


def test_the_games_rules_excused_are_the_real_modules() -> None:
    rules = rules_modules()
    assert {
        "src/ludoteca/games/heroes/rules.py",
        "src/ludoteca/games/dice_heroes/dice.py",
        "src/ludoteca/games/dwarves/play.py",
    } <= rules
    assert "src/ludoteca/games/heroes/notation.py" not in rules
    for path in rules:
        assert (ROOT / path).is_file(), path


def test_the_count_finds_a_module_one_line_over(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "sub" / "long.py").write_text("x = 1\n" * 451, encoding="utf-8")
    (tmp_path / "pkg" / "full.py").write_text("x = 1\n" * 450, encoding="utf-8")
    (tmp_path / "pkg" / "notes.txt").write_text("x\n" * 900, encoding="utf-8")
    assert long_modules(tmp_path, "pkg", 450) == {"pkg/sub/long.py": 451}
