"""Compiling the rules in the background (``ludoteca.native.background``): ``make run`` serves on
the pure rules at once while a detached process compiles them for the next start; the server
says which rules it runs; two builds never write ``build/native`` together."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ludoteca import native
from ludoteca.native import background

CHECKOUT = native.SRC.parent


@pytest.fixture
def build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, value in (("BUILD", tmp_path), ("PID", tmp_path / "background.pid")):
        monkeypatch.setattr(background, name, value)
    monkeypatch.setattr(background, "LOG", tmp_path / "background.log")
    monkeypatch.setattr(background, "LOCK", tmp_path / "lock")
    return tmp_path


def wait_until_not_building(limit: float = 20) -> None:
    deadline = time.monotonic() + limit
    while background.building() is not None:
        assert time.monotonic() < deadline, "the background command never ended"
        time.sleep(0.05)


def test_a_background_build_runs_detached_and_is_reported_while_it_runs(
    build: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # this process runs the pure rules, as a first start does (whatever the suite runs on)
    monkeypatch.setattr(native, "status", "pure")
    monkeypatch.setattr(native, "asked_pure", False)
    marker = build / "done"
    script = f"import time, pathlib; time.sleep(1); pathlib.Path({str(marker)!r}).touch()"
    pid = background.start([sys.executable, "-c", script], os.environ)
    assert background.building() == pid
    assert background.start([sys.executable, "-c", "raise SystemExit(3)"], {}) == pid  # not twice
    assert subprocess.run(["ps", "-o", "sid=", "-p", str(pid)], capture_output=True,
                          text=True, check=False).stdout.split() == [str(pid)]  # fmt: skip
    assert "compiling them in the background" in background.describe()
    wait_until_not_building()
    assert marker.exists()
    assert background.building() is None
    assert "background" not in background.describe()


def test_a_dead_or_garbled_process_id_is_no_build(build: Path) -> None:
    assert background.building() is None  # no file
    (build / "background.pid").write_text("not a number\n")
    assert background.building() is None
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)  # fmt: skip
    (build / "background.pid").write_text(ended.stdout)
    assert background.building() is None


def test_the_start_line_names_the_rules_in_use(
    build: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native, "status", "compiled")
    assert background.describe().startswith("the rules run compiled (mypyc")
    monkeypatch.setattr(native, "status", "pure")
    monkeypatch.setattr(native, "asked_pure", True)
    assert background.describe() == "the rules run as pure Python (LUDOTECA_PURE=1)"
    monkeypatch.setattr(native, "asked_pure", False)
    assert "make native compiles them" in background.describe()
    monkeypatch.setattr(native, "status", "stale")
    assert "out of date" in background.describe()


def test_a_second_build_waits_for_the_first(build: Path) -> None:
    order: list[str] = []
    with background.exclusive() as waited:
        assert not waited

        def second() -> None:
            with background.exclusive() as second_waited:
                order.append(f"second, waited={second_waited}")

        thread = threading.Thread(target=second)
        thread.start()
        thread.join(0.3)
        order.append("first done")
    thread.join(5)
    assert order == ["first done", "second, waited=True"]


def test_make_run_serves_without_waiting_for_the_compiler() -> None:
    """The ``run`` target does not depend on the compiled rules: it starts their build detached
    and then serves; ``test`` still compiles before the suite."""
    makefile = (CHECKOUT / "Makefile").read_text()
    rule = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    prerequisites, recipe = rule.split("\n", 1)
    assert "NATIVE_STAMP" not in prerequisites
    assert recipe.index("ludoteca.native --background") < recipe.index("ludoteca serve")
    assert "pytest: $(TEST_STAMP) $(NATIVE_STAMP)" in makefile


def test_a_background_build_that_cannot_start_leaves_the_start_going(
    build: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``make run`` serves even when the build's command cannot be started: one line says so."""
    from ludoteca.native import __main__ as command  # noqa: PLC0415 (the command's module)

    monkeypatch.setattr(sys, "argv", ["ludoteca.native", "--background", str(build / "nothing")])
    assert command.main() == 0
    assert capsys.readouterr().out.startswith("could not start compiling the rules")
    assert background.building() is None
