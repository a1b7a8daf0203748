"""The test kit's own promises (tests/kit/processes.py, servers.py, env.py): a wait for a
process ends as soon as it exits and shows its log; a process that does not come up is stopped
with its whole group; nothing a test session starts outlives it, whatever its tests do; every
deadline stretches with ``LUDOTECA_TEST_SLOWDOWN``."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kit import processes
from kit.env import MAX_SLOWDOWN, ROOT, TESTS, load_slowdown, parse_slowdown, seconds, slowdown
from kit.servers import ServerProcess, ThreadServer, server_settings
from kit.wait import eventually


def running_pids(marker: str) -> list[int]:
    """The processes that run on this machine with ``marker`` in their command line or in the
    path of their working directory."""
    found = []
    for pid in processes.running():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue  # gone meanwhile, or not ours to read
        if marker in command or marker in cwd:
            found.append(pid)
    return found


def shell(script: str, folder: Path) -> subprocess.Popen[bytes]:
    """``script`` run by sh in ``folder``, its output in ``folder``/out.log."""
    with (folder / "out.log").open("ab") as out:
        return processes.spawn(
            ["sh", "-c", script], "a shell", cwd=folder, stdout=out, stderr=subprocess.STDOUT
        )


def failed_wait(process: subprocess.Popen[bytes], timeout: float, folder: Path) -> str:
    """The message of a wait for something that never comes, with the log of ``shell``."""
    with pytest.raises(AssertionError) as failure:
        log = folder / "out.log"
        processes.wait_ready(
            process, lambda: False, "the shell ready", timeout, lambda: processes.tail(log)
        )
    return str(failure.value)


# ------------------------------------------------------------------------------ waiting
def test_a_wait_ends_as_soon_as_the_process_exits_and_shows_its_log(tmp_path: Path) -> None:
    process = shell("for i in $(seq 1 60); do echo line $i; done; exit 3", tmp_path)
    began = time.monotonic()
    message = failed_wait(process, 120, tmp_path)
    took = time.monotonic() - began
    assert took < seconds(1), f"waited {took:.1f} s for a process that had exited"
    assert "exited with code 3" in message
    assert "line 60" in message and "line 21" in message, "its last 40 lines"
    assert "line 20\n" not in message, "only the last 40 lines"


@pytest.mark.slow
def test_a_server_process_that_exits_fails_its_start_with_its_log(tmp_path: Path) -> None:
    """A real ``ludoteca serve`` that cannot start: the wait ends when it exits (its import takes
    seconds here), not at the deadline, and says why."""
    server = ServerProcess(tmp_path, db_url="bogus://nowhere")
    began = time.monotonic()
    with pytest.raises(AssertionError) as failure:
        server.start(timeout=600)
    assert time.monotonic() - began < seconds(60)
    assert "unknown database URL 'bogus://nowhere'" in str(failure.value)
    assert "exited with code 1" in str(failure.value)


@pytest.mark.slow
def test_a_server_thread_that_stops_fails_its_start_at_once(tmp_path: Path) -> None:
    """uvicorn in a thread gives up when its port is taken: the wait ends then."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = ThreadServer(server_settings(f"sqlite:///{tmp_path / 'db.sqlite3'}"), port=port)
        began = time.monotonic()
        with pytest.raises(AssertionError, match="stopped before answering"):
            server.start()
        assert time.monotonic() - began < seconds(10)
        assert server.thread is not None and not server.thread.is_alive()


# ------------------------------------------------------------------------------ stopping
def test_a_wait_that_times_out_stops_the_whole_group_and_shows_its_log(tmp_path: Path) -> None:
    process = shell("echo starting up; sleep 600 & sleep 600 & wait", tmp_path)
    eventually(lambda: len(running_pids(str(tmp_path))) == 3, 10, what="the shell and its helpers")
    message = failed_wait(process, 0.3, tmp_path)
    assert "did not happen within" in message
    assert "starting up" in message
    assert process.poll() is not None
    assert not processes.group_alive(process.pid), "the helpers are stopped with it"
    assert running_pids(str(tmp_path)) == []


@pytest.mark.slow
def test_a_server_that_does_not_come_up_leaves_no_process(tmp_path: Path) -> None:
    """``ludoteca serve`` that hangs before it listens (a ``sitecustomize`` that starts a helper
    and sleeps): its start fails at the deadline with its log, and neither it nor the helper is
    left."""
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(
        "import subprocess, sys, time\n"
        "if 'serve' in sys.argv:\n"
        "    print('hanging before the server starts', flush=True)\n"
        "    subprocess.Popen(['sleep', '600'])\n"
        "    time.sleep(600)\n"
    )
    env = {"PYTHONPATH": os.pathsep.join([str(shim), os.environ.get("PYTHONPATH", "")])}
    server = ServerProcess(tmp_path, env=env)
    with pytest.raises(AssertionError) as failure:
        server.start(timeout=3)
    assert "hanging before the server starts" in str(failure.value)
    assert server.process is not None and server.process.poll() is not None
    assert not processes.group_alive(server.process.pid)
    assert running_pids(str(tmp_path)) == []


SESSION = """
import os, signal
from pathlib import Path

import pytest

from kit import processes
from kit.servers import ServerProcess

PIDS = Path(os.environ["KIT_PIDS"])


def note(pid: int) -> None:
    with PIDS.open("a") as out:
        out.write(f"{pid}\\n")


@pytest.fixture(scope="session")
def forgotten(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("forgotten")).start()
    note(srv.process.pid)
    yield srv  # no teardown: the session's end must stop it


def test_a_server_then_an_error(tmp_path, forgotten):
    srv = ServerProcess(tmp_path).start()
    note(srv.process.pid)
    helper = processes.spawn(["sleep", "600"], "a helper")
    note(helper.pid)
    raise RuntimeError("the test breaks half-way")


def test_a_killed_server_leaves_its_helpers(tmp_path):
    srv = ServerProcess(tmp_path).start()
    note(srv.process.pid)
    srv.kill()
    assert False, "and then fails"
"""


def run_session(
    tmp_path: Path, body: str, *args: str, **variables: str
) -> subprocess.CompletedProcess[str]:
    """pytest on a module of ``body``, in a process of its own, with this suite's conftest."""
    (tmp_path / "test_tiny.py").write_text(body)
    env = {
        **os.environ,
        "KIT_PIDS": str(tmp_path / "pids"),
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(TESTS)]),
        **variables,
    }
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest"]
    return subprocess.run(
        [*command, "--rootdir", str(tmp_path), *args, str(tmp_path / "test_tiny.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=seconds(300),
        check=False,
    )


def noted(tmp_path: Path) -> list[int]:
    return [int(line) for line in (tmp_path / "pids").read_text().split()]


@pytest.mark.slow
@pytest.mark.parametrize("workers", [[], ["-n", "1"]], ids=["one-process", "xdist"])
def test_nothing_a_session_starts_outlives_it(tmp_path: Path, workers: list[str]) -> None:
    """A session whose tests start servers and a helper, then raise or fail, and whose
    session-scoped fixture never stops its server: afterwards no process of any of their groups
    is alive, and none runs in the session's folders (under pytest-xdist too)."""
    done = run_session(tmp_path, SESSION, *workers)
    assert "2 failed" in done.stdout, done.stdout + done.stderr
    pids = noted(tmp_path)
    assert len(pids) == 4, pids
    assert [pid for pid in pids if processes.group_alive(pid)] == []
    assert running_pids(str(tmp_path)) == []


SIGTERMED = """
import os, signal
from pathlib import Path

from kit.servers import ServerProcess


def test_the_run_is_ended(tmp_path):
    srv = ServerProcess(tmp_path).start()
    Path(os.environ["KIT_PIDS"]).write_text(f"{srv.process.pid}\\n")
    os.kill(os.getpid(), signal.SIGTERM)  # as a CI runner's time limit does
"""


@pytest.mark.slow
def test_a_session_ended_by_sigterm_stops_its_servers(tmp_path: Path) -> None:
    done = run_session(tmp_path, SIGTERMED)
    assert done.returncode == -signal.SIGTERM, done.stdout + done.stderr
    [pid] = noted(tmp_path)
    assert not processes.group_alive(pid)
    assert running_pids(str(tmp_path)) == []


# ------------------------------------------------------------------------------ slowdown
def test_the_slowdown_is_a_number_of_at_least_one() -> None:
    assert parse_slowdown("2.5") == 2.5
    assert parse_slowdown("1") == 1
    for bad in ["0.5", "0", "-2", "nan", "inf", "fast", ""]:
        with pytest.raises(ValueError, match="LUDOTECA_TEST_SLOWDOWN must be a number"):
            parse_slowdown(bad)


def test_unset_the_slowdown_follows_the_load_per_core() -> None:
    assert load_slowdown(0.3, 2) == 1, "an idle machine keeps the written deadlines"
    assert load_slowdown(6.0, 2) == 3
    assert load_slowdown(500.0, 2) == MAX_SLOWDOWN
    assert load_slowdown(4.0, 0) == 4, "no core count: one core"


def test_every_wait_stretches_with_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDOTECA_TEST_SLOWDOWN", "3")
    assert slowdown() == 3 and seconds(10) == 30
    with pytest.raises(AssertionError, match=r"within 0\.3 s"):
        eventually(lambda: False, 0.1)


@pytest.mark.slow
def test_a_bad_slowdown_stops_the_run_with_a_clear_error(tmp_path: Path) -> None:
    done = run_session(tmp_path, "def test_nothing():\n    pass\n", LUDOTECA_TEST_SLOWDOWN="soon")
    assert done.returncode == pytest.ExitCode.USAGE_ERROR
    assert "LUDOTECA_TEST_SLOWDOWN must be a number ≥ 1 (e.g. 3), not 'soon'" in done.stderr
