"""Real servers for the tests: uvicorn in a thread of the test process (``ThreadServer``), or
``ludoteca serve`` as a process of its own (``ServerProcess``: killable with SIGKILL, restartable
on the same database and port), and the one factory of test settings."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import uvicorn

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
    with contextlib.suppress(httpx.HTTPError):
        return httpx.get(f"{base}/healthz", timeout=1).status_code == 200
    return False


def health(base: str) -> dict[str, Any]:
    """The server's /healthz answer: its status, the websockets it holds, the tables it drives..."""
    found: dict[str, Any] = httpx.get(f"{base}/healthz", timeout=10).json()
    return found


def wait_healthy(base: str, seconds: float = 20) -> None:
    eventually(lambda: healthy(base), seconds, what=f"the server at {base} answering /healthz")


_clients: dict[str, httpx.Client] = {}


def api(base: str) -> httpx.Client:
    """An HTTP client for a server (one per server, closed by ``close_api``)."""
    if base not in _clients:
        _clients[base] = httpx.Client(base_url=base, timeout=30)
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
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        wait_healthy(self.base)
        return self

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        close_api(self.base)
        self.server.should_exit = True
        self.thread.join(timeout=20)
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

    def start(self, seconds: float = 30) -> ServerProcess:
        env = {**os.environ, **PROCESS_ENV, **self.env}
        command = [sys.executable, "-m", "ludoteca.cli", "serve", "--port", str(self.port)]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [*command, "--db", self.db_url],
                cwd=self.workdir,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

        def up() -> bool:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log_tail()}")
            return healthy(self.base)

        eventually(up, seconds, what=f"the server at {self.base} answering /healthz")
        return self

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def terminate(self) -> int:
        """SIGTERM, a graceful shutdown; its exit code."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=20)

    def stop(self) -> None:
        """Gone, whatever it takes (for a fixture's teardown)."""
        close_api(self.base)
        if not self.running():
            return
        assert self.process is not None
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as answer:
            return json.load(answer)


def skewed_env(tmp_path: Path, seconds: float) -> dict[str, str]:
    """The environment of a server process whose clock (``time.time``) is ``seconds`` off."""
    shim = tmp_path / f"skewed{seconds:+g}"
    shim.mkdir(exist_ok=True)
    (shim / "sitecustomize.py").write_text(
        f"import time\n_real = time.time\ntime.time = lambda: _real() + {seconds!r}\n"
    )
    return {"PYTHONPATH": os.pathsep.join([str(shim), os.environ.get("PYTHONPATH", "")])}
