"""The catalogue's picture of each game's board (not a test: it writes files).

    .venv/bin/python tests/web/board_pictures.py [--only GAME]

Starts ``ludoteca serve`` from this checkout, opens a table of every game whose board declares a
``picture`` (``Board.picture``) against bots in Chromium at 900×800 (narrower than the widest
layout: less empty room), lets the bots move for a moment, photographs the board and writes it,
640 pixels wide (JPEG), into the board's own folder in the game's package, where the server
serves it from. Run it again after a board's look changes.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the kit
from kit.browser import CHROMIUM, CHROMIUM_ARGS
from kit.servers import free_port, wait_healthy
from ludoteca.games import get
from ludoteca.server.api.games import board_folder

WIDTH = 640


def shrink(browser: Any, png: bytes) -> bytes:
    """``png`` drawn ``WIDTH`` pixels wide, as a JPEG."""
    page = browser.new_page(viewport={"width": WIDTH, "height": 100})
    data = base64.b64encode(png).decode()
    page.set_content(
        f'<body style="margin:0"><img style="display:block;width:{WIDTH}px" '
        f'src="data:image/png;base64,{data}"></body>'
    )
    page.wait_for_function("document.images[0].complete")
    jpeg = page.locator("img").screenshot(type="jpeg", quality=72)
    page.close()
    return jpeg


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", help="one game's id")
    parser.add_argument("--viewport", type=int, default=900, help="the page's width (pixels)")
    args = parser.parse_args()
    src = Path(__file__).resolve().parents[2] / "src"
    port = free_port()
    with tempfile.TemporaryDirectory() as workdir:
        env = {**os.environ, "PYTHONPATH": str(src), "LUDOTECA_BOT_DELAY": "0.3"}
        env["LUDOTECA_CONTRIBUTION_SECONDS"] = "3"
        process = subprocess.Popen(
            [sys.executable, "-c", "from ludoteca.cli import main; main()", "serve",
             "--port", str(port), "--db", f"sqlite:///{Path(workdir) / 'db.sqlite3'}"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(base, 30)
            with urllib.request.urlopen(base + "/api/games") as answer:
                games = [g for g in json.load(answer) if g["board"] and g["board"]["picture"]]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
                )
                for game in games:
                    if args.only and game["id"] != args.only:
                        continue
                    context = browser.new_context(viewport={"width": args.viewport, "height": 800})
                    page = context.new_page()
                    page.goto(base + "/")
                    page.click(f"article[data-game='{game['id']}'] .play-now")
                    page.wait_for_url("**/table/*")
                    page.wait_for_selector(".board-root > *")
                    page.wait_for_timeout(4000)
                    png = page.locator(".board-root").screenshot(animations="disabled")
                    spec = get(game["id"]).spec.board
                    assert spec is not None and spec.picture is not None
                    folder = board_folder(get(game["id"]))
                    assert folder is not None
                    target = folder / spec.picture
                    target.write_bytes(shrink(browser, png))
                    print(f"{target}: {target.stat().st_size} bytes")
                    context.close()
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
