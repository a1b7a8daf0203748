"""The compiled rules (``ludoteca.native``): used when built and current, never when stale, and the
pure modules they stand in for still pass the conformance suite and the golden records."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from ludoteca import native
from ludoteca.native.declared import BASE, inputs, modules

SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def test_the_compiled_modules_are_the_ones_imported_when_built() -> None:
    if native.status != "compiled":
        reason = f"the rules are not compiled here ({native.status}; `make native` builds them)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + ": CI must run the suite on the compiled rules")
        pytest.skip(reason)
    for name in modules():
        module = importlib.import_module(name)
        assert module.__file__ is not None
        assert module.__file__.endswith(SUFFIX), name
        assert Path(module.__file__).is_relative_to(native.BUILD), name


@pytest.mark.slow
def test_the_pure_modules_pass_the_conformance_suite_and_the_golden_records() -> None:
    env = {**os.environ, native.PURE_VARIABLE: "1"}
    env["PYTHONPATH"] = os.pathsep.join([str(native.SRC), env.get("PYTHONPATH", "")])
    where = subprocess.run(
        [sys.executable, "-c", "import ludoteca.games.dwarves.rules as r, ludoteca.native as n;"
         "print(n.status, r.__file__)"],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    status, file = where.stdout.split()
    assert status == "pure"
    assert file.endswith(".py")
    tests = Path(__file__).parents[1] / "games"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         str(tests / "test_conformance.py"), str(tests / "test_golden_records.py")],
        check=False, env=env, capture_output=True, text=True, cwd=native.SRC.parent,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout


def write_manifest(folder: Path, sources: dict[str, str], suffix: str = SUFFIX) -> Path:
    files = {name: f"lib/{name}{suffix}" for name in [*sources, "group__mypyc"]}
    for file in files.values():
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
        (folder / file).touch()
    manifest = folder / "manifest.json"
    manifest.write_text(json.dumps({"suffix": suffix, "sources": sources, "files": files}))
    return manifest


def current() -> dict[str, str]:
    return {name: native.digest(native.source(name)) for name in modules()}


def test_a_build_of_exactly_the_present_sources_is_used(tmp_path: Path) -> None:
    status, files, changed = native.examine(write_manifest(tmp_path, current()))
    assert (status, changed) == ("compiled", [])
    assert set(files) == {*modules(), "group__mypyc"}
    assert files["ludoteca.games.dwarves.rules"].parent == tmp_path / "lib"


def test_a_build_older_than_one_source_is_left_aside(tmp_path: Path) -> None:
    sources = current()
    sources["ludoteca.games.heroes.rules"] = "0" * 64  # heroes/rules.py edited since the build
    assert native.examine(write_manifest(tmp_path, sources)) == (
        "stale",
        {},
        ["ludoteca.games.heroes.rules"],
    )


def test_a_build_missing_a_module_file_or_source_is_left_aside(tmp_path: Path) -> None:
    manifest = write_manifest(tmp_path, current())
    (tmp_path / f"lib/ludoteca.core.state{SUFFIX}").unlink()
    assert native.examine(manifest)[0] == "stale"
    sources = {**current(), "ludoteca.games.gone": "0" * 64}  # a module deleted since the build
    assert native.examine(write_manifest(tmp_path, sources)) == ("stale", {}, ["manifest.json"])


def test_a_module_declared_since_the_build_stays_pure_until_make_rebuilds(tmp_path: Path) -> None:
    """``install`` judges a build by the modules it compiled (it cannot import the games to read
    their declarations yet): the others are used, the new one is imported from its source, and
    ``make`` rebuilds because the declaring package is among the build's inputs."""
    sources = current()
    del sources["ludoteca.games.dwarves.play"]
    status, files, changed = native.examine(write_manifest(tmp_path, sources))
    assert (status, changed) == ("compiled", [])
    assert "ludoteca.games.dwarves.play" not in files
    assert "src/ludoteca/games/dwarves/__init__.py" in inputs()


def test_each_game_declares_what_is_compiled() -> None:
    """The packaged games' ``COMPILED``, found by the catalogue, plus the positions' base; the
    build's inputs are those sources and the packages that declare them."""
    compiled = modules()
    assert BASE[0] in compiled
    assert {"ludoteca.games.heroes.rules", "ludoteca.games.dwarves.play"} <= set(compiled)
    assert all(native.source(m).is_file() for m in compiled)
    assert inputs()[: len(compiled)] == [
        str(native.source(m).relative_to(native.SRC.parent)) for m in compiled
    ]
    run = subprocess.run(
        [sys.executable, "-m", "ludoteca.native", "--sources"],
        env={**os.environ, "PYTHONPATH": str(native.SRC), native.PURE_VARIABLE: "1"},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert run.stdout.split() == inputs()


def test_no_build_or_a_build_for_another_python_is_not_used(tmp_path: Path) -> None:
    assert native.examine(tmp_path / "manifest.json") == ("pure", {}, [])
    other = write_manifest(tmp_path, current(), suffix=".cpython-310-x86_64-linux-gnu.so")
    assert native.examine(other) == ("other python", {}, [])


def test_a_stale_build_says_so_once_and_imports_the_sources(tmp_path: Path) -> None:
    sources = current()
    sources["ludoteca.games.dwarves.state"] = "0" * 64
    manifest = write_manifest(tmp_path, sources)
    code = (  # pure on import (whatever is built here), then the stale build offered
        "import os, ludoteca.native as n; from pathlib import Path;"
        f"n.MANIFEST = Path({str(manifest)!r}); del os.environ[n.PURE_VARIABLE];"
        "print(n.install()); import ludoteca.games.dwarves.state as s; print(s.__file__)"
    )
    env = {**os.environ, "PYTHONPATH": str(native.SRC), native.PURE_VARIABLE: "1"}
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    status, file = run.stdout.split()
    assert status == "stale"
    assert file.endswith("dwarves/state.py")
    warnings = [line for line in run.stderr.splitlines() if "out of date" in line]
    assert len(warnings) == 1
    assert "games.dwarves.state" in warnings[0]
