"""The slow link the web measurement uses (``tests/kit/slowlink.py``) really delays and limits:
a file's time through it is the handshake, the delay each way and its bytes at the rate."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from kit.slowlink import Pipe, SlowLink


class Files(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        size = int(self.path.strip("/"))
        self.send_response(200)
        self.send_header("Content-Length", str(size))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(b"x" * size)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def files() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Files)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def fetch(port: int, size: int) -> tuple[float, bytes]:
    began = time.perf_counter()
    answer = b""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(f"GET /{size} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        while chunk := connection.recv(65536):
            answer += chunk
    return time.perf_counter() - began, answer


def test_a_pipe_sends_one_segment_after_another_then_delays_each() -> None:
    pipe = Pipe(rate=1000, delay=0.5)
    assert pipe.arrival(0.0, 100) == pytest.approx(0.6)
    assert pipe.arrival(0.0, 100) == pytest.approx(0.7)  # queued behind the first
    assert pipe.arrival(5.0, 100) == pytest.approx(5.6)  # the pipe was idle meanwhile
    assert pipe.carried == 300


def test_a_file_takes_the_links_time_and_arrives_whole(files: int) -> None:
    delay, rate, size = 0.05, 100_000, 40_000
    with SlowLink(files, delay=delay, rate=rate) as link:
        took, answer = fetch(link.port, size)
        direct, _ = fetch(files, size)
    assert answer.endswith(b"x" * size) and answer.count(b"x") == size
    # handshake (2 delays), the request up (1), the answer down (1) and its bytes at the rate
    expected = 4 * delay + len(answer) / rate
    assert expected * 0.97 < took < expected + 0.25, (took, expected)
    assert direct < 0.1
    assert link.connections == 1
    assert link.down.carried == len(answer)


def test_connections_share_the_links_bytes(files: int) -> None:
    """Two downloads at once take as long as one of both sizes: one pipe, not one each."""
    delay, rate, size = 0.02, 100_000, 30_000
    times: list[float] = []
    with SlowLink(files, delay=delay, rate=rate) as link:
        threads = [
            threading.Thread(target=lambda: times.append(fetch(link.port, size)[0]))
            for _ in range(2)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
    assert max(times) > 2 * size / rate
