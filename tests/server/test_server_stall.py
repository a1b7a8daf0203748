"""One client cannot stall a process: a websocket that floods without reading, thousands of idle
or half-sent HTTP connections from one address, a hello trickled a byte at a time. Each runs
against a real ``ludoteca serve`` process while another client measures ``/healthz``."""

from __future__ import annotations

import base64
import contextlib
import os
import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kit.client import two_people_table
from kit.env import seconds
from kit.servers import ServerProcess, close_api
from kit.wait import eventually

HEALTH_LIMIT = 0.5  # seconds another client's health check may take while one client attacks


def upgrade(port: int, path: str) -> tuple[socket.socket, bytes]:
    """A raw websocket handshake to ``path``: the socket and the server's answer (its head)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=seconds(10))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        assert chunk, "the server closed during the handshake"
        answer += chunk
    return sock, answer


def handshake(port: int, path: str) -> socket.socket:
    """A raw websocket connection to ``path``, upgraded, nothing sent after it."""
    sock, answer = upgrade(port, path)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:200]
    return sock


def frame(payload: bytes, opcode: int = 0x1, fin: bool = True) -> bytes:
    """One masked client frame (payload under 126 bytes)."""
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return struct.pack("!BB", (0x80 if fin else 0) | opcode, 0x80 | len(payload)) + mask + masked


class HealthProbe:
    """Another client asking ``/healthz`` in a loop, keeping the slowest answer."""

    def __init__(self, base: str, source: str | None = None) -> None:
        self.base = base
        self.source = source  # the address it connects from (127.0.0.2: another client)
        self.times: list[float] = []
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        transport = httpx.HTTPTransport(local_address=self.source)
        with httpx.Client(base_url=self.base, timeout=seconds(30), transport=transport) as http:
            while not self._stop.is_set():
                began = time.monotonic()
                try:
                    answer = http.get("/healthz")
                    if answer.status_code != 200:
                        self.failures.append(f"{answer.status_code} {answer.text[:80]}")
                except httpx.HTTPError as exc:
                    self.failures.append(repr(exc))
                self.times.append(time.monotonic() - began)
                self._stop.wait(0.05)

    def __enter__(self) -> HealthProbe:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=seconds(60))

    @property
    def slowest(self) -> float:
        return max(self.times, default=float("inf"))


@pytest.fixture
def lone_server(tmp_path: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path, f"sqlite:///{tmp_path}/tables.sqlite3").start()
    yield srv
    close_api(srv.base)
    if srv.process is not None and srv.process.poll() is None:
        srv.terminate()


def flood(sock: socket.socket, seconds: float) -> tuple[int, float | None]:
    """Send tiny frames as fast as the socket takes them, never reading, for ``seconds`` or until
    the server closes: (frames sent, seconds until the server cut the connection or None)."""
    burst = b"".join(frame(b"x") for _ in range(2000))
    sent = 0
    began = time.monotonic()
    sock.settimeout(1.0)
    while time.monotonic() - began < seconds:
        try:
            sock.sendall(burst)
        except TimeoutError:
            continue  # the server is not reading: keep pushing
        except OSError:
            return sent, time.monotonic() - began
        sent += 2000
    return sent, None


@pytest.mark.slow
@pytest.mark.parametrize("greeted", [False, True], ids=["no-hello", "after-hello"])
def test_a_flooding_websocket_is_cut_off_and_stalls_nobody(
    lone_server: ServerProcess, greeted: bool
) -> None:
    """It used to freeze every table of the process for ~15 s (health checks 14-18 s) and be
    closed only after 1.4 million frames; now other clients are answered within 0.5 s and the
    flooder is cut off within a second or two."""
    table_id, tokens = two_people_table(lone_server.base)
    sock = handshake(lone_server.port, f"/ws/tables/{table_id}")
    if greeted:
        sock.sendall(frame(b'{"type": "hello", "token": "%s"}' % tokens[0].encode()))
    with HealthProbe(lone_server.base) as probe, contextlib.closing(sock):
        # measured from its first answer: on a busy machine the probe's thread may start late
        eventually(lambda: probe.times, 10, what="the probe's first answer")
        sent, cut_after = flood(sock, 12.0)
        time.sleep(0.5)
    assert not probe.failures, probe.failures[:3]
    assert probe.slowest <= HEALTH_LIMIT, f"a health check took {probe.slowest:.2f} s"
    assert cut_after is not None and cut_after < 3.0, f"still open after {sent} frames"
    # and it may not come straight back (it could reconnect 240 times a minute)
    again, answer = upgrade(lone_server.port, f"/ws/tables/{table_id}")
    again.close()
    assert answer.startswith(b"HTTP/1.1 429") and b"retry-after" in answer.lower(), answer[:300]


def open_idle(port: int, count: int, half_sent: bytes) -> list[socket.socket]:
    """``count`` connections from 127.0.0.1, every other one having sent ``half_sent``."""
    held = []
    for n in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            sock.connect(("127.0.0.1", port))
        held.append(sock)
        if n % 2:
            with contextlib.suppress(OSError):
                sock.sendall(half_sent)
    return held


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed this connection (an answer, then EOF, or a reset)."""
    sock.setblocking(True)
    sock.settimeout(0.01)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


@pytest.fixture
def guarded_server(tmp_path: Path) -> Iterator[ServerProcess]:
    env = {"LUDOTECA_HEADER_TIMEOUT": "3", "LUDOTECA_BODY_TIMEOUT": "3"}
    srv = ServerProcess(tmp_path, f"sqlite:///{tmp_path}/tables.sqlite3", env=env).start()
    yield srv
    close_api(srv.base)
    if srv.process is not None and srv.process.poll() is None:
        srv.terminate()


@pytest.mark.slow
def test_idle_and_half_sent_connections_from_one_address_stall_nobody(
    guarded_server: ServerProcess,
) -> None:
    """4,010 idle or half-sent HTTP connections from one address used to fill uvicorn's 4,000
    places, and every request, /healthz included, was answered 503 for as long as they stayed.
    Now the address holds at most 256 at once (the others are answered 429 and closed), and
    those whose headers do not arrive in time are closed."""
    probe_from = HealthProbe(guarded_server.base, source="127.0.0.2")  # another client
    with probe_from as probe:
        eventually(lambda: probe.times, 10, what="the probe's first answer")
        held = open_idle(guarded_server.port, 4010, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        try:
            time.sleep(1.0)
            still_open = sum(not closed_by_server(sock) for sock in held)
            assert still_open <= 256, f"{still_open} connections of one address held"
            time.sleep(3.0)  # the header deadline (3 s here) passes
            still_open = sum(not closed_by_server(sock) for sock in held)
            assert still_open == 0, f"{still_open} connections outlived the header deadline"
        finally:
            for sock in held:
                sock.close()
    assert not probe.failures, probe.failures[:3]
    assert probe.slowest <= HEALTH_LIMIT, f"a health check took {probe.slowest:.2f} s"


@pytest.mark.slow
def test_a_body_that_does_not_arrive_in_time_closes_the_connection(
    guarded_server: ServerProcess,
) -> None:
    sock = socket.create_connection(("127.0.0.1", guarded_server.port), timeout=seconds(10))
    with contextlib.closing(sock):
        began = time.monotonic()
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"game": '
        )
        sock.settimeout(10)
        with contextlib.suppress(ConnectionResetError):
            while sock.recv(4096):
                pass
        assert 2.5 < time.monotonic() - began < 5


@pytest.mark.slow
def test_a_trickled_hello_is_closed_at_the_hello_deadline(lone_server: ServerProcess) -> None:
    """A hello sent one byte at a time used to keep its connection 20 s (the 10 s hello deadline,
    then 10 s waiting for the client to answer the close); now it is closed 4408 at the deadline
    and the connection is gone a second later at most."""
    table_id, _ = two_people_table(lone_server.base)
    sock = handshake(lone_server.port, f"/ws/tables/{table_id}")
    hello = frame(b'{"type": "hello"}')
    began = time.monotonic()
    gone = None
    sock.settimeout(0.5)
    with contextlib.closing(sock):
        for byte in hello * 40:
            try:
                sock.sendall(bytes([byte]))
                if sock.recv(4096) == b"":
                    gone = time.monotonic() - began
                    break
            except TimeoutError:
                continue
            except OSError:
                gone = time.monotonic() - began
                break
    assert gone is not None and 9.5 < gone < 11.5, gone
