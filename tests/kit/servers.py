"""Real servers for the tests: uvicorn in a thread of the test process (``ThreadServer``), or
``ludoteca serve`` as a process of its own (``ServerProcess``: killable with SIGKILL, restartable
on the same database and port; started in a process group of its own by ``kit.processes``, so
it is stopped whatever happens), and the one factory of test settings. Waiting for a server to
answer ends as soon as it has exited (or its thread has), and fails with its log's last lines."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from kit import processes
from kit.env import seconds
from kit.wait import eventually
from ludoteca.server.app import create_app
from ludoteca.server.config import Settings
from ludoteca.server.main import uvicorn_options


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# Search iterations per decision of the analyses the test servers make (docs/analysis.md): enough
# to run every part of them, little enough not to slow the other tests.
TEST_ANALYSIS = 20
# Waits for a live server: short, so a test waits little and still sees every step.
LIVE_CLOCK = {"bot_delay": 0.0, "away_grace": 0.3, "contribution_seconds": 2.0}
# Waits for a lobby on a fake clock: round figures the tests advance the clock by.
FAKE_CLOCK = {"bot_delay": 0.5, "away_grace": 5.0, "contribution_seconds": 10.0}


def server_settings(db_url: str, *, fake_clock: bool = False, **changes: Any) -> Settings:
    """The server's settings for a test: turns of a second at least, analyses on a small budget,
    and the waits of a live server (or, with ``fake_clock``, of a lobby whose clock the test
    moves); ``changes`` on top."""
    waits = FAKE_CLOCK if fake_clock else LIVE_CLOCK
    base = Settings(db_url=db_url, min_turn_seconds=1, analysis_iterations=TEST_ANALYSIS, **waits)  # type: ignore[arg-type]
    return replace(base, **changes)


def healthy(base: str) -> bool:
    """The server answers /healthz with 200. Polled every 50 ms while a server starts: urllib,
    2 ms a call, not ``httpx.get``, whose new client (and TLS context) costs 35 ms of CPU a call,
    taken from the starting server on a two-core machine."""
    # refused, reset, timed out, or an HTTP error status (urllib's HTTPError is an OSError)
    with (
        contextlib.suppress(OSError),
        urllib.request.urlopen(f"{base}/healthz", timeout=1) as answer,
    ):
        return bool(answer.status == 200)
    return False


def health(base: str) -> dict[str, Any]:
    """The server's /healthz answer: its status, the websockets it holds, the tables it drives..."""
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=seconds(10)) as answer:
            body = answer.read()
    except urllib.error.HTTPError as answer:  # degraded: 503, with the same body
        body = answer.read()
    found: dict[str, Any] = json.loads(body)
    return found


def wait_healthy(base: str, timeout: float = 20) -> None:
    """Wait for a server that is not ours to hold (one a test started itself) to answer."""
    eventually(lambda: healthy(base), timeout, what=f"the server at {base} answering /healthz")


_clients: dict[str, httpx.Client] = {}


def api(base: str) -> httpx.Client:
    """An HTTP client for a server (one per server, closed by ``close_api``)."""
    if base not in _clients:
        _clients[base] = httpx.Client(base_url=base, timeout=seconds(30))
    return _clients[base]


def close_api(base: str) -> None:
    client = _clients.pop(base, None)
    if client is not None:
        client.close()


@dataclass
class ThreadServer:
    """uvicorn serving the app on a real port, in a thread of the test process."""

    settings: Settings
    port: int = field(default_factory=free_port)
    server: uvicorn.Server | None = None
    thread: threading.Thread | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ThreadServer:
        config = uvicorn.Config(
            create_app(self.settings),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            **uvicorn_options(self.settings),  # type: ignore[arg-type]
        )
        server = self.server = uvicorn.Server(config)
        gave_up: list[SystemExit] = []

        def run() -> None:
            try:
                server.run()
            except SystemExit as exit_:  # uvicorn's way of giving up (its reason is logged)
                gave_up.append(exit_)

        thread = self.thread = threading.Thread(target=run, daemon=True)
        thread.start()

        def up() -> bool:
            if not thread.is_alive():  # the port taken, the app's startup failed...
                code = gave_up[0].code if gave_up else None
                raise processes.Exited(
                    f"the server thread at {self.base} stopped before answering (exit {code})"
                )
            return healthy(self.base)

        try:
            eventually(up, 20, what=f"the server thread at {self.base} answering /healthz")
        except AssertionError:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        close_api(self.base)
        self.server.should_exit = True
        self.thread.join(timeout=seconds(20))
        assert not self.thread.is_alive(), "server thread did not stop"

    @property
    def app_state(self) -> Any:
        """The running app's state (the lobby, the storage), for a test that breaks something
        on purpose."""
        assert self.server is not None
        return self.server.config.app.state.ludoteca  # type: ignore[attr-defined]


# bots answer at once, turns may be a second long and finished matches are analysed on a small
# search budget, unless a test says otherwise
PROCESS_ENV = {
    "LUDOTECA_BOT_DELAY": "0.01",
    "LUDOTECA_MIN_TURN_SECONDS": "1",
    "LUDOTECA_ANALYSIS_ITERATIONS": str(TEST_ANALYSIS),
}


@dataclass
class ServerProcess:
    """``ludoteca serve`` in a process of its own, working in ``workdir`` (its signing keys, its
    log), on ``db_url`` (a fresh SQLite file in ``workdir`` if none is given). ``start`` again
    after ``kill`` restarts it on the same database and port."""

    workdir: Path
    db_url: str = ""
    env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    def __post_init__(self) -> None:
        if not self.db_url:
            self.db_url = f"sqlite:///{self.workdir / 'db.sqlite3'}"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.workdir / f"server-{self.port}.log"

    def start(self, timeout: float = 30) -> ServerProcess:
        """Start the process and wait until it answers /healthz (``timeout`` stretched by
        ``kit.env.seconds``); if it exits first, or the time runs out, it is stopped and the
        failure shows its log's last lines."""
        return self.spawn().ready(timeout)

    def spawn(self) -> ServerProcess:
        """Start the process without waiting for it (``ready`` waits)."""
        env = {**os.environ, **PROCESS_ENV, **self.env}
        command = [sys.executable, "-m", "ludoteca.cli", "serve", "--port", str(self.port)]
        with self.log_path.open("ab") as log:
            self.process = processes.spawn(
                [*command, "--db", self.db_url],
                f"ludoteca serve on {self.base}",
                cwd=self.workdir,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        return self

    def ready(self, timeout: float = 30) -> ServerProcess:
        """Wait until the spawned process answers /healthz (as ``start``)."""
        assert self.process is not None, "spawn the process first"
        processes.wait_ready(
            self.process,
            lambda: healthy(self.base),
            f"the server at {self.base} answering /healthz",
            timeout,
            self.log_tail,
        )
        return self

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL to the server (not its group: its helpers live on, as after a crash, until
        ``stop`` or the test's end)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=seconds(10))

    def terminate(self) -> int:
        """SIGTERM, a graceful shutdown; its exit code."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=seconds(20))

    def stop(self) -> None:
        """Gone with its whole process group, whatever it takes (for a fixture's teardown)."""
        close_api(self.base)
        if self.process is not None:
            processes.stop(self.process)

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = processes.TAIL_LINES) -> str:
        return processes.tail(self.log_path, lines)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=seconds(10)) as answer:
            return json.load(answer)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=seconds(10)) as answer:
            return json.load(answer)


def skewed_env(tmp_path: Path, seconds: float) -> dict[str, str]:
    """The environment of a server process whose clock (``time.time``) is ``seconds`` off."""
    shim = tmp_path / f"skewed{seconds:+g}"
    shim.mkdir(exist_ok=True)
    (shim / "sitecustomize.py").write_text(
        f"import time\n_real = time.time\ntime.time = lambda: _real() + {seconds!r}\n"
    )
    return {"PYTHONPATH": os.pathsep.join([str(shim), os.environ.get("PYTHONPATH", "")])}


def start_together(
    started: list[ServerProcess], workdir: Path, db_url: str, envs: list[dict[str, str]]
) -> list[ServerProcess]:
    """Processes of one deployment (one database, one signing-key folder ``workdir``), one per
    entry of ``envs``, started at once and each waited for: the first key and the migrations
    have their own locks (``KeyRing.load``, ``storage.migrate``), so the starts need not queue.
    Each is added to ``started`` (a test's ``process_servers``) before any wait, so a start that
    fails leaves none running. Returns them in the order of ``envs``."""
    servers = [ServerProcess(workdir, db_url, env=dict(env)) for env in envs]
    for srv in servers:
        started.append(srv.spawn())
    for srv in servers:
        srv.ready()
    return servers
