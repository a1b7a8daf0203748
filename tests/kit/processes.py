"""Every process a test starts (a ``ludoteca serve``, nginx, a Redis of its own, a helper) is
started here, in a process group of its own, and stopped as a group whatever happens:

- ``spawn`` starts it (``start_new_session``: the group holds it and whatever it starts, such as
  a server's worker processes or nginx's workers) and remembers the group;
- ``wait_ready`` waits for it to be ready, ends at once if it exits, and on failure stops it and
  fails with the last lines of its log;
- ``stop`` ends the group (SIGTERM, then SIGKILL); a test's fixture calls it, and
  tests/conftest.py stops after every test whatever the test started and left running
  (``stop_started_since``), at the end of the session every group still alive, and, last, the
  same from an ``atexit`` hook and on SIGTERM. Under pytest-xdist each worker holds and stops
  its own."""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from kit.env import seconds
from kit.wait import eventually

TAIL_LINES = 40


@dataclass
class Started:
    """A process group started by ``spawn``: its leader and what it is, for messages."""

    process: subprocess.Popen[Any]
    what: str

    @property
    def group(self) -> int:
        return self.process.pid  # the leader of a new session: its pid is the group's id


_started: list[Started] = []


def spawn(command: list[str], what: str, **options: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(command, **options)`` in a process group of its own, remembered until
    its group is gone."""
    process: subprocess.Popen[Any] = subprocess.Popen(command, start_new_session=True, **options)
    _started.append(Started(process, what))
    return process


def running() -> dict[int, int]:
    """Every process on the machine that runs, by pid: its process group. Zombies do not count:
    a killed helper whose parent died before reaping it waits for init and runs nothing."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # the fields after the command's closing parenthesis: state, ppid, pgrp, ...
            state, _, pgrp = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:3]
        except OSError:
            continue  # gone meanwhile
        if state != "Z":
            found[int(entry.name)] = int(pgrp)
    return found


def group_alive(group: int) -> bool:
    """Whether any process of the group still runs."""
    return group in running().values()


def _signal_group(group: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, sig)


def stop(process: subprocess.Popen[Any], grace: float = 10.0) -> int | None:
    """End the process and every process of its group: SIGTERM, up to ``grace`` seconds
    (stretched) for the leader to exit, then SIGKILL to whatever of the group is left. Returns
    the leader's exit code. Safe to call again, and on a process that already exited."""
    if process.poll() is None:
        _signal_group(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=seconds(grace))
    _signal_group(process.pid, signal.SIGKILL)  # the leader's helpers, or a leader that hung
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=seconds(10))
    # a killed helper still shows as running until the kernel has ended it (a moment on a busy
    # machine): return once the whole group is gone, not just its leader
    deadline = time.monotonic() + seconds(10)
    while group_alive(process.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return process.returncode


def alive() -> list[Started]:
    """The groups started here that still have a process."""
    for started in _started:
        started.process.poll()  # reap a leader that exited, so its group can empty
    groups = set(running().values())
    return [s for s in _started if s.group in groups]


def mark() -> int:
    """Where the record of started groups stands now (for ``stop_started_since``)."""
    return len(_started)


def stop_started_since(since: int) -> list[str]:
    """Stop every group started after ``mark()`` returned ``since`` that is still alive (what a
    test started and left behind); what they were. Groups that are gone are forgotten."""
    if len(_started) == since:
        return []
    groups = set(running().values())
    left = [s for s in _started[since:] if s.process.poll() is None or s.group in groups]
    for started in left:
        stop(started.process, grace=2.0)
    groups = set(running().values())
    _started[since:] = [s for s in _started[since:] if s.group in groups]
    return [s.what for s in left]


def stop_all() -> list[str]:
    """Kill every group still alive, at once (the end of a session, ``atexit``, SIGTERM)."""
    left = alive()
    for started in left:
        _signal_group(started.group, signal.SIGKILL)
    for started in left:
        with contextlib.suppress(subprocess.TimeoutExpired):
            started.process.wait(timeout=5)
    _started[:] = alive()
    return [s.what for s in left]


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    stop_all()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def install_last_resort() -> None:
    """Stop every group still alive when this process exits: from ``atexit``, and on SIGTERM
    (which would otherwise end Python without running ``atexit``) unless something else already
    handles SIGTERM. SIGKILL of the test process cannot be caught: then the groups outlive it."""
    atexit.register(stop_all)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _on_sigterm)


def tail(path: Path, lines: int = TAIL_LINES) -> str:
    """The last ``lines`` lines of a log file ("" when there is none)."""
    if not path.exists():
        return ""
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


class Exited(AssertionError):
    """The process being waited for exited."""


def wait_ready(
    process: subprocess.Popen[Any],
    ready: Callable[[], bool],
    what: str,
    timeout: float,
    log: Callable[[], str] = lambda: "",
) -> None:
    """Wait until ``ready()`` is true (``timeout`` stretched, as every wait of the kit), polling
    the process too: if it exits the wait ends at once. Either way a failure stops the process's
    group and fails with ``what``, why, and ``log()`` (its last lines)."""
    started = time.monotonic()

    def up() -> bool:
        if process.poll() is not None:
            raise Exited(f"exited with code {process.returncode}")
        return ready()

    try:
        eventually(up, timeout, what=what)
    except AssertionError as failure:
        stop(process, grace=2.0)
        took = time.monotonic() - started
        why = (
            f"{what}: the process {failure} after {took:.1f} s"
            if isinstance(failure, Exited)
            else str(failure)
        )
        raise AssertionError(f"{why}; the last lines of its log:\n{log()}") from None
