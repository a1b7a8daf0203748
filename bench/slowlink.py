"""Calibrating the slow link (``tests/kit/slowlink.py``): does a known-size file take through the
proxy the time the link's figures say it must?

    .venv/bin/python bench/slowlink.py [--delay 0.150] [--rate 200000]

Serves files of known sizes from a plain HTTP server on loopback, fetches each through the proxy
on a new connection (as a cold browser does), and prints the time expected from the link (a
round trip for the handshake, the request's bytes up, the delay down, the response's bytes at the
rate) against the time measured. A proxy that did not really delay or limit would show it here.
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from kit.slowlink import SlowLink

SIZES = (1_000, 50_000, 200_000, 800_000)


class Files(BaseHTTPRequestHandler):
    """``GET /<n>``: n bytes."""

    def do_GET(self) -> None:
        size = int(self.path.strip("/"))
        self.send_response(200)
        self.send_header("Content-Length", str(size))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(b"x" * size)

    def log_message(self, *args: object) -> None:
        pass


def fetch(port: int, size: int) -> tuple[float, int, int]:
    """Seconds from connecting to the last byte of ``GET /size``; bytes sent and received."""
    request = f"GET /{size} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    began = time.perf_counter()
    received = 0
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(request)
        while chunk := connection.recv(65536):
            received += len(chunk)
    return time.perf_counter() - began, len(request), received


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay", type=float, default=0.150, help="one way, seconds")
    parser.add_argument("--rate", type=float, default=200_000, help="bytes a second each way")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Files)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    mbit = args.rate * 8 / 1e6
    print(f"link: {args.delay * 1000:.0f} ms each way, {mbit:.2f} Mbit/s each way")
    worst = 0.0
    with SlowLink(server.server_address[1], delay=args.delay, rate=args.rate) as link:
        for size in SIZES:
            took, sent, received = fetch(link.port, size)
            # handshake (2 delays), the request up (its bytes, a delay), the answer down
            expected = 2 * args.delay + sent / args.rate + args.delay
            expected += args.delay + received / args.rate
            off = (took - expected) / expected
            worst = max(worst, abs(off))
            print(
                f"{received:>8} bytes: expected {expected * 1000:7.0f} ms, "
                f"measured {took * 1000:7.0f} ms ({off:+.1%})"
            )
    server.shutdown()
    server.server_close()
    print(f"largest difference: {worst:.1%}")


if __name__ == "__main__":
    main()
