"""The table as an app a phone installs: the web app manifest (name, icons, standalone) and the
service worker, served at the root (``/sw.js``) so that its scope covers every page.

The worker names the static tree's version and the files of the shell (the page, every module,
style, message catalogue and icon under ``/static/<version>/``, the joined modules, and every
game's board under ``/boards/<game>/<its version>/``): a new version of the site or of a board is
a byte-different worker, which the browser installs in place of the old one. The worker itself is
revalidated on every visit (``no-cache``), never kept a year as the versioned files are; those
keep their immutable caching, and the worker serves them from its own copy."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from .pages import BUNDLE, accepted_language

SHELL_FOLDERS = ("js", "css", "i18n", "icons")
NAMES = {
    "en": "ludoteca — board games with friends",
    "pt": "ludoteca — jogos de tabuleiro com amigos",
    "de": "ludoteca — Brettspiele mit Freunden",
}


def shell_files(static: Path, version: str, more: list[str]) -> list[str]:
    """Every address the worker keeps: the page, its style sheets as one file, the shell's
    static files, then ``more``: the addresses of the games' boards' files and of the joined
    modules (``joined``: each page's file and the chunks a page loads later)."""
    found = ["/", f"/static/{version}/{BUNDLE}"]
    for folder in SHELL_FOLDERS:
        for path in sorted((static / folder).rglob("*")):
            if path.is_file():
                found.append(f"/static/{version}/{path.relative_to(static).as_posix()}")
    return found + more


def manifest(version: str, lang: str) -> dict[str, object]:
    icons = f"/static/{version}/icons"
    return {
        "name": NAMES[lang],
        "short_name": "ludoteca",
        "lang": lang,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#faf7f2",
        "theme_color": "#b5462f",
        "icons": [
            {"src": f"{icons}/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": f"{icons}/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {
                "src": f"{icons}/icon-512.png",
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": f"{icons}/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
    }


def mount_app_shell(app: FastAPI, root: Path, version: str, more: list[str]) -> None:
    """``/sw.js`` and ``/manifest.webmanifest`` for the static tree of ``version`` and the files
    at the addresses ``more`` (the boards' files, the joined modules)."""
    if not (root / "sw.js").is_file():
        return
    static = root / "static"
    source = (root / "sw.js").read_text(encoding="utf-8")
    worker = source.replace("__VERSION__", version).replace(
        "__SHELL__", json.dumps(shell_files(static, version, more))
    )
    revalidated = {"Cache-Control": "no-cache"}

    async def service_worker() -> Response:
        return Response(worker, media_type="text/javascript", headers=revalidated)

    async def web_manifest(request: Request) -> Response:
        lang = accepted_language(request.headers.get("accept-language", ""))
        headers = {**revalidated, "Vary": "Accept-Language"}
        return JSONResponse(
            manifest(version, lang), media_type="application/manifest+json", headers=headers
        )

    app.add_api_route("/sw.js", service_worker, methods=["GET"], include_in_schema=False)
    app.add_api_route(
        "/manifest.webmanifest", web_manifest, methods=["GET"], include_in_schema=False
    )
