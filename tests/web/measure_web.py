"""Delivery and accessibility figures for the web table (not a test: it prints numbers).

    .venv/bin/python tests/web/measure_web.py [--src DIR]

Starts ``ludoteca serve`` from ``--src`` (default: this checkout's src; give an exported older
tree to compare), then prints, for a Heroes table page opened by a seated player in Chromium:
bytes over the wire (as sent, and as the files' own sizes), the time until the board and the hand
are usable on a slow link (a loopback proxy, ``tests/kit/slowlink.py``, that really delays each
byte 150 ms each way and carries 1.6 Mbit/s each way, shared by all connections, a handshake's
round trip per new connection — calibrated by ``bench/slowlink.py``; Chromium's own
``Network.emulateNetworkConditions`` did not delay the first byte in the Debian build; cold
cache, and a repeat visit; median of three), the requests of one cold load through the link in
the order they started (the waterfall: start and end in ms, bytes on the wire), the requests a
repeat visit makes (the catalogue, and a table page; websockets counted), and the
serious/critical axe-core violations on the catalogue, a rules page, the verify page and the three
boards in three languages (``--no-axe`` to skip them).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the kit
from kit.browser import CHROMIUM, CHROMIUM_ARGS
from kit.servers import free_port, wait_healthy
from kit.slowlink import SlowLink

DELAY = 0.150  # seconds, each way
RATE = 200_000  # bytes a second each way: 1.6 Mbit/s
USABLE = "() => document.querySelector('.hr-hero') !== null && document.querySelector('.hr-room')"


def serve(src: Path, workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    # as in the browser tests: the page sends the player's seed, a table nobody seeds waits 3 s
    env = {**os.environ, "PYTHONPATH": str(src), "LUDOTECA_BOT_DELAY": "0.05"}
    env["LUDOTECA_CONTRIBUTION_SECONDS"] = "3"
    db = f"sqlite:///{workdir / 'db.sqlite3'}"
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from ludoteca.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--db",
            db,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    wait_healthy(base, 30)
    return process, base


def seated(base: str) -> tuple[str, dict[str, Any]]:
    request = urllib.request.Request(
        base + "/api/play-now",
        data=json.dumps({"game": "heroes", "turn_seconds": 600}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        found = json.load(answer)
    table = found["table"]["id"]
    return table, {table: {"seat": found["seat"], "token": found["token"]}}


def load_table(
    browser: Any, api: str, base: str, waterfall: list[str] | None = None
) -> tuple[float, int, int]:
    """Open a fresh seated table page at ``base`` (the server, or the slow link in front of it;
    the seat is taken through ``api``); (ms until usable, bytes on the wire, bytes of bodies).
    ``waterfall`` receives one line per request: start and end (ms), bytes, address."""
    table, seats = seated(api)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(
        f"localStorage.setItem('ludoteca.seats', {json.dumps(json.dumps(seats))})"
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    wire: dict[str, int] = {}
    bodies: dict[str, int] = {}
    began: dict[str, tuple[float, str]] = {}
    ended: dict[str, float] = {}

    def finished(e: dict[str, Any]) -> None:
        wire[e["requestId"]] = e["encodedDataLength"]
        ended[e["requestId"]] = e["timestamp"]

    cdp.on(
        "Network.requestWillBeSent",
        lambda e: began.setdefault(e["requestId"], (e["timestamp"], e["request"]["url"])),
    )
    cdp.on("Network.loadingFinished", finished)
    frames: list[tuple[float, str]] = []  # the table's websocket: (when, what), for the waterfall

    def frame(way: str) -> Any:
        def heard(e: dict[str, Any]) -> None:
            try:
                kind = json.loads(e["response"]["payloadData"]).get("type", "?")
            except (ValueError, AttributeError):
                kind = "?"
            frames.append((e["timestamp"], f"ws {way} {kind}"))

        return heard

    cdp.on(
        "Network.webSocketWillSendHandshakeRequest",
        lambda e: frames.append((e["timestamp"], "ws upgrade asked")),
    )
    cdp.on(
        "Network.webSocketHandshakeResponseReceived",
        lambda e: frames.append((e["timestamp"], "ws upgraded")),
    )
    cdp.on("Network.webSocketFrameSent", frame("sent"))
    cdp.on("Network.webSocketFrameReceived", frame("heard"))
    cdp.on(
        "Network.dataReceived",
        lambda e: bodies.__setitem__(
            e["requestId"], bodies.get(e["requestId"], 0) + e["dataLength"]
        ),
    )
    page.goto(f"{base}/table/{table}", wait_until="commit")
    page.wait_for_function(USABLE, timeout=60_000)
    usable = page.evaluate("() => performance.now()")
    page.wait_for_load_state("networkidle")
    if waterfall is not None and began:
        zero = min(t for t, _ in began.values())
        lines = []
        for key, (at, url) in began.items():
            end = f"{(ended[key] - zero) * 1000:6.0f}" if key in ended else "     -"
            size = wire.get(key, 0)
            lines.append((at, f"{(at - zero) * 1000:6.0f} {end} {size:>7} {url.replace(base, '')}"))
        lines += [(at, f"{(at - zero) * 1000:6.0f}      -       - {what}") for at, what in frames]
        waterfall += [line for _, line in sorted(lines)]
        waterfall.append(f"{usable:6.0f}      -       - usable (the page's own clock)")
    context.close()
    return usable, sum(wire.values()), sum(bodies.values())


def repeat_visit(browser: Any, api: str, base: str) -> tuple[float, dict[str, list[str]]]:
    """A person comes back: the catalogue and a table page visited once, then again in the same
    browser (its cache warm). (ms until the table is usable the second time, every request of
    each second visit with its status: "ws" for a websocket). Pages at ``base``, the seat
    taken through ``api``."""
    table, seats = seated(api)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(
        f"localStorage.setItem('ludoteca.seats', {json.dumps(json.dumps(seats))})"
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    for path, ready in (("/", "article[data-game]"), (f"/table/{table}", None)):
        page.goto(base + path)
        page.wait_for_function(USABLE) if ready is None else page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
    page.goto(base + "/")  # leave, so that the table page is a new visit, not a reload
    page.wait_for_load_state("networkidle")
    seen: dict[str, list[str]] = {}
    usable = 0.0
    # what reached the network (CDP: a file the cache answered is no request)
    current: list[str] = []  # the visit being counted
    cached: set[str] = set()

    def answered(e: dict[str, Any]) -> None:
        r = e["response"]
        if e["requestId"] in cached or r.get("fromDiskCache") or r.get("fromPrefetchCache"):
            return
        current.append(f"{r['status']} {r['url']}")

    cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
    cdp.on("Network.responseReceived", answered)
    cdp.on("Network.webSocketCreated", lambda e: current.append(f"ws {e['url']}"))
    for name, path in (("catalogue", "/"), ("table", f"/table/{table}")):
        current = seen[name] = []
        page.goto(base + path, wait_until="commit")
        if name == "table":
            page.wait_for_function(USABLE, timeout=60_000)
            usable = page.evaluate("() => performance.now()")
        else:
            page.wait_for_selector("article[data-game]")
        page.wait_for_load_state("networkidle")
        current = []
        page.goto(base + "/verify")  # in between: another page, so the next one is a new visit
        page.wait_for_load_state("networkidle")
    context.close()
    return usable, seen


def axe_counts(browser: Any, base: str) -> dict[str, int]:
    options = {
        "resultTypes": ["violations"],
        "rules": {"label-content-name-mismatch": {"enabled": True}},
    }
    counts: dict[str, int] = {}
    for lang, locale in (("en", "en-US"), ("pt", "pt-BR"), ("de", "de-DE")):
        states: list[tuple[str, str, str]] = [
            ("home", "/", "article[data-game]"),
            ("rules", "/games/heroes", "h1"),
            ("verify", "/verify", "#record-text"),
        ]
        for game in ("heroes", "dice-heroes", "dwarves"):
            states.append((game, "", ""))
        for name, path, wait in states:
            context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
            page = context.new_page()
            if path:
                page.goto(base + path)
                page.wait_for_selector(wait)
            else:
                page.goto(base + "/")
                page.click(f"article[data-game='{name}'] .play-now")
                page.wait_for_url("**/table/*")
                page.wait_for_selector(".board-root > *")
                page.wait_for_timeout(500)
            found = Axe().run(page, options=options).response["violations"]
            serious = [v for v in found if v["impact"] in ("serious", "critical")]
            counts[f"{lang}/{name}"] = sum(len(v["nodes"]) for v in serious)
            context.close()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[2] / "src")
    parser.add_argument("--no-axe", action="store_true", help="skip the accessibility audit")
    parser.add_argument(
        "--delay", type=float, default=DELAY, help="the slow link's delay each way, in seconds"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        process, base = serve(args.src.resolve(), Path(workdir))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
                )
                _, wire, body = load_table(browser, base, base)
                kib = f"{wire / 1024:.1f} KiB over the wire, {body / 1024:.1f} KiB of content"
                print(f"table page, cold: {kib}")
                _, seen = repeat_visit(browser, base, base)
                for name, made in seen.items():
                    answered = sum(line.startswith("304") for line in made)
                    print(f"repeat visit, {name}: {len(made)} requests ({answered} answered 304)")
                    for line in made:
                        print(f"  {line.replace(base, '')}")
                with SlowLink(int(base.rsplit(":", 1)[1]), delay=args.delay, rate=RATE) as link:
                    slow = f"http://127.0.0.1:{link.port}"
                    link_name = f"{args.delay * 1000:.0f} ms each way, {RATE * 8 / 1e6:.1f} Mbit/s"
                    waterfall: list[str] = []
                    load_table(browser, base, slow, waterfall)
                    print(f"one cold load on {link_name}: requests and the table's websocket")
                    print("  start    end   bytes address")
                    for line in waterfall:
                        print(f"  {line}")
                    times = [load_table(browser, base, slow)[0] for _ in range(3)]
                    each = ", ".join(f"{t:.0f}" for t in times)
                    median = statistics.median(times)
                    print(f"usable on {link_name}, cold: median {median:.0f} ms ({each})")
                    warm = [repeat_visit(browser, base, slow)[0] for _ in range(3)]
                    each = ", ".join(f"{t:.0f}" for t in warm)
                    median = statistics.median(warm)
                    print(f"usable on {link_name}, repeat visit: median {median:.0f} ms ({each})")
                if args.no_axe:
                    browser.close()
                    return
                counts = axe_counts(browser, base)
                total = sum(counts.values())
                print(f"axe serious+critical nodes: {total} in {len(counts)} page states")
                for name, count in counts.items():
                    if count:
                        print(f"  {name}: {count}")
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
