"""Compiling the rules without holding up a first start: ``make run`` serves on the pure rules at
once and compiles them in a detached process (``python -m ludoteca.native --background COMMAND``
starts COMMAND, ``make native``, in its own session, with its output in ``background.log`` and
its process id in ``background.pid``); the next start uses the compiled rules. A running server
never switches: it keeps the rules it imported until it is restarted.

Builds take ``BUILD/lock`` (``flock``) so that a background build and ``make test``'s never write
``build/native`` together: the later one waits, and finds the rules already current.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator, Mapping, Sequence

from ludoteca import native

from . import BUILD

PID = BUILD / "background.pid"
LOG = BUILD / "background.log"
LOCK = BUILD / "lock"


def start(command: Sequence[str], env: Mapping[str, str]) -> int:
    """Start ``command`` detached with ``env`` (its own session: the terminal's Ctrl-C or closing
    it does not stop it), unless a background build is already running; returns its process id
    (or the running one's)."""
    running = building()
    if running is not None:
        return running
    BUILD.mkdir(parents=True, exist_ok=True)
    with LOG.open("wb") as log, open(os.devnull, "rb") as nothing:
        # spawned, not a Popen: nobody waits for it, it outlives the command that started it
        pid = os.posix_spawnp(
            command[0],
            list(command),
            env,
            setsid=True,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, nothing.fileno(), 0),
                (os.POSIX_SPAWN_DUP2, log.fileno(), 1),
                (os.POSIX_SPAWN_DUP2, log.fileno(), 2),
            ],
        )
    PID.write_text(f"{pid}\n")
    return pid


def building() -> int | None:
    """The process id of a background build still running, else None."""
    try:
        pid = int(PID.read_text().strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    try:  # a finished child not yet reaped by its parent is a zombie: not building
        with open(f"/proc/{pid}/stat") as stat:
            if stat.read().rsplit(")", 1)[-1].split()[0] == "Z":
                return None
    except OSError:
        pass
    return pid


@contextlib.contextmanager
def exclusive() -> Iterator[bool]:
    """Hold ``LOCK`` for a build; yields True when another build held it first (waited for)."""
    BUILD.mkdir(parents=True, exist_ok=True)
    with LOCK.open("a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            waited = False
        except BlockingIOError:
            fcntl.flock(lock, fcntl.LOCK_EX)
            waited = True
        try:
            yield waited
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def describe() -> str:
    """Which rules this process runs, in one line for the server's start."""
    status = native.status
    if status == "compiled":
        return f"the rules run compiled (mypyc, {BUILD})"
    if building() is not None:
        return (
            f"the rules run as pure Python for now: compiling them in the background ({LOG}); "
            "the next start uses them"
        )
    if native.asked_pure:
        return f"the rules run as pure Python ({native.PURE_VARIABLE}=1)"
    if status == "stale":
        return "the rules run as pure Python (the compiled ones are out of date: make native)"
    return "the rules run as pure Python (make native compiles them)"
