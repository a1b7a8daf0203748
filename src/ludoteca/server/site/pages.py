"""The web table as served: static files, the page for every client-side route, the API docs from
the package (no CDN); what every HTTP response gets on its way out is ``delivery``.

Static files are addressed under the version of the whole static tree (``/static/<version>/…``,
the first hex digits of a hash of every file's path and content) and cached for a year as
``immutable``: a returning browser asks for none of them. The page (``index.html``) names that
version, is revalidated on every visit (a 304 when nothing changed), carries the catalogue of
games inline and preloads the modules of the route it serves, so a repeat visit costs the page,
the API call and the websocket the route needs, and nothing else. Modules import each other by
relative paths, so they stay within their version."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Scope

from ludoteca.core import LANGUAGES

from .delivery import POLICY, has_tag, install_delivery

ROUTES = (
    "/",
    "/games/{game_id}",
    "/table/{table_id}",
    "/verify",
    "/replay",
    "/replay/{table_id}",
    "/account",
    "/reset",
    "/players/{name}",
    "/leaderboard",
    "/leaderboard/{game_id}",
    "/friends",
    "/admin",
)

DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>ludoteca API</title>
  <link rel="stylesheet" href="/static/vendor/swagger-ui/swagger-ui.css">
</head>
<body>
  <main id="swagger-ui"></main>
  <script src="/static/vendor/swagger-ui/swagger-ui-bundle.js"></script>
  <script src="/static/js/api-docs.js"></script>
</body>
</html>
"""


def web_root() -> Path:
    return Path(str(resources.files("ludoteca").joinpath("web")))


# ------------------------------------------------------------------ versions and the page
IMMUTABLE = "public, max-age=31536000, immutable"
VERSION_LENGTH = 12
VERSIONED = re.compile(rf"[0-9a-f]{{{VERSION_LENGTH}}}")


def static_version(static: Path) -> str:
    """The version of the static tree: a hash of every file's path and bytes."""
    digest = hashlib.sha256()
    for path in sorted(p for p in static.rglob("*") if p.is_file()):
        digest.update(path.relative_to(static).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:VERSION_LENGTH]


# ``import … from "./x.js"``, ``export … from "./x.js"`` and ``import "./x.js"`` (not import())
STATIC_IMPORT = re.compile(
    r'^\s*(?:import|export)\b[^;"\']*?from\s+"(\.{1,2}/[^"]+)"|^\s*import\s+"(\.{1,2}/[^"]+)"',
    re.M,
)


def module_graph(static: Path, entries: list[str]) -> list[str]:
    """Every module the ``entries`` (paths under static/) import statically, themselves
    included, in the order first met: what a page preloads so that a slow link pays one round
    trip for them instead of one per level of imports."""
    found: list[str] = []
    todo = list(entries)
    while todo:
        module = todo.pop(0)
        if module in found or not (static / module).is_file():
            continue
        found.append(module)
        text = (static / module).read_text(encoding="utf-8")
        for match in STATIC_IMPORT.finditer(text):
            target = match.group(1) or match.group(2)
            todo.append(os.path.normpath((Path(module).parent / target).as_posix()))
    return found


# the modules each route's page needs at once (main.js imports the page's module on its own; a
# table's page runs EARLY_SOCKET at once, the others keep it for when a table opens)
ROUTE_MODULES = {
    "home": ["js/main.js", "js/pages/home.js", "js/table/early.js"],
    "rules": ["js/main.js", "js/pages/rules.js", "js/table/early.js"],
    "table": ["js/main.js", "js/pages/table.js", "js/boards/kit.js"],  # every board imports the kit
    "verify": ["js/main.js", "js/pages/verify.js", "js/table/early.js"],
    "replay": ["js/main.js", "js/pages/replay.js", "js/table/early.js"],
}
EARLY_SOCKET = '  <script type="module" async src="/static/{}/js/table/early.js"></script>\n'

# index.html's style sheets, served as one file (``/static/<version>/css/page.css``) in their order:
# on a slow link each file is a round trip, and every page needs them all
STYLESHEET = re.compile(r'^ *<link rel="stylesheet" href="/static/(css/[^"]+)">\n', re.M)
BUNDLE = "css/page.css"


def accepted_language(header: str) -> str:
    """The first of the page's languages the browser accepts (``Accept-Language``, by weight),
    else English: the message catalogue the page will ask for, unless the reader chose another."""
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        weighted.append((-weight, index, tag.strip().lower().split("-")[0]))
    for _, _, lang in sorted(weighted):
        if lang in LANGUAGES:
            return lang
    return "en"


class Page:
    """``index.html`` as served: static addresses under the version, its style sheets as one file,
    the catalogue inline, the route's modules and the likely message catalogue preloaded (and for
    a table, its game's board); a strong ETag per body, and 304 when the browser has it."""

    def __init__(
        self,
        index: Path,
        static: Path,
        catalogue: Callable[[], list[dict[str, Any]]],
        offer: dict[str, object] | None = None,
        board_words: Callable[[str], dict[str, dict[str, Any]]] | None = None,
    ) -> None:
        self.version = static_version(static)
        source = index.read_text(encoding="utf-8")
        sheets = STYLESHEET.findall(source)
        self.stylesheet = "\n".join(
            (static / sheet).read_text(encoding="utf-8") for sheet in sheets
        )
        source = STYLESHEET.sub("", source).replace(
            "</title>\n", f'</title>\n  <link rel="stylesheet" href="/static/{BUNDLE}">\n', 1
        )
        html = source.replace('"/static/', f'"/static/{self.version}/')
        self.catalogues = {
            lang: json.loads((static / "i18n" / f"{lang}.json").read_bytes()) for lang in LANGUAGES
        }
        games = catalogue()
        inline = _inline(games)
        # a board kept in a game's own package imports the table's helpers by their plain
        # addresses (/static/js/…): the import map names this version, so it shares the page's
        # modules instead of loading second copies of them
        imports = json.dumps({"imports": {"/static/js/": f"/static/{self.version}/js/"}})
        allowed = base64.b64encode(hashlib.sha256(imports.encode()).digest()).decode()
        self.policy = f"{POLICY}; script-src 'self' 'sha256-{allowed}'"  # that one inline script
        # what notifications this server sends (docs/turn-based.md), so the page need not ask
        notify = _inline(offer or {})
        html = html.replace(
            "<head>\n", f'<head>\n  <script type="importmap">{imports}</script>\n', 1
        ).replace(
            "</head>",
            f'  <script type="application/json" id="games-data">{inline}</script>\n'
            f'  <script type="application/json" id="notify-data">{notify}</script>\n</head>',
        )
        self.bodies: dict[tuple[str, str], tuple[bytes, str]] = {}
        for route, entries in ROUTE_MODULES.items():
            links = "".join(
                f'  <link rel="modulepreload" href="/static/{self.version}/{module}">\n'
                for module in module_graph(static, entries)
            )
            if route == "table":  # its websocket opens while the modules load (early.js)
                links = EARLY_SOCKET.format(self.version) + links
            self._add(route, html.replace("</head>", links + "</head>"))
            if route == "table":
                table = html.replace("</head>", links + "</head>")
        self.boards: set[str] = set()
        for game in games:
            # a table's page names its game and fetches the board with the table's modules (a
            # game without a board of its own plays on the generic one: the page as for any table)
            board = game.get("board")
            if not board:
                continue
            hint = f'  <meta name="ludoteca-table" content="" data-game="{game["id"]}">\n'
            hint += "".join(
                f'  <link rel="modulepreload" href="{url}">\n'
                for url in [board["module"], *board["parts"]]
            )
            hint += "".join(f'  <link rel="stylesheet" href="{url}">\n' for url in board["styles"])
            words = board_words(game["id"]) if board_words else {}
            self._add(f"table:{game['id']}", table.replace("</head>", hint + "</head>"), words)
            self.boards.add(game["id"])

    def _add(self, route: str, html: str, board: dict[str, dict[str, Any]] | None = None) -> None:
        for lang in LANGUAGES:
            # the message catalogue of the browser's language, inline: on a slow link the largest
            # file of the page would be a round trip of its own (i18n.js reads it from here); a
            # table's page has its board's words in it too, under the board's namespace
            extra = (board or {}).get(lang, {})
            clash = sorted(set(extra) & set(self.catalogues[lang]))
            if clash:
                raise ValueError(f"{route}: the board's words may not be named {clash[0]!r}")
            words = f'  <script type="application/json" id="words" data-lang="{lang}">'
            words += _inline({**self.catalogues[lang], **extra}) + "</script>\n"
            body = html.replace("</head>", words + "</head>").encode()
            tag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            self.bodies[route, lang] = (body, tag)

    def answer(self, route: str, request: Request, game: str | None = None) -> Response:
        """The page of ``route``; for a table of a known ``game``, the page naming it."""
        lang = accepted_language(request.headers.get("accept-language", ""))
        table_id = request.path_params.get("table_id", "")
        if route == "table" and game in self.boards:
            route = f"table:{game}"
        body, tag = self.bodies[route, lang]
        if route.startswith("table:"):  # the table this page is for (the tag stays the game's)
            body = body.replace(b'content=""', b'content="' + _attribute(table_id) + b'"', 1)
        headers = {
            "Cache-Control": "no-cache",
            "ETag": tag,
            "Vary": "Accept-Language",
            "Content-Security-Policy": self.policy,
        }
        if has_tag(request.headers.get("if-none-match", ""), tag):
            return Response(status_code=304, headers=headers)
        return HTMLResponse(body, headers=headers)


def _inline(data: object) -> str:
    """JSON for a ``<script type="application/json">`` element (nothing in it can end the
    element early)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _attribute(text: str) -> bytes:
    """Text safe inside a double-quoted HTML attribute."""
    return re.sub(r"[^A-Za-z0-9_-]", "", text)[:40].encode()


def route_of(path: str) -> str:
    parts = path.strip("/").split("/")
    return {"": "home", "games": "rules", "table": "table", "verify": "verify"}.get(
        parts[0], "replay"
    )


def mount_web(
    app: FastAPI,
    catalogue: Callable[[], list[dict[str, Any]]],
    offer: dict[str, object] | None = None,
    board_words: Callable[[str], dict[str, dict[str, Any]]] | None = None,
) -> str | None:
    """The web table: static files, the page for every client-side route, the offline API docs.
    ``catalogue`` gives what ``/api/games`` answers, inlined in the page, as is ``offer`` (what
    ``/api/notify`` answers) and, in a table's page, ``board_words`` (a game's board's words per
    language). Returns the static tree's version (None without the web files)."""
    root = web_root()
    index = root / "index.html"
    static = root / "static"
    install_delivery(app)
    found = index.is_file() and static.is_dir()
    page = Page(index, static, catalogue, offer, board_words) if found else None
    version = page.version if page else None

    class Versioned(StaticFiles):
        """``/static/<version>/…``: the file, cached for good when the version is this tree's;
        under another version (a page from before an upgrade) the current file, revalidated;
        without a version (the API docs' page), revalidated too."""

        def get_path(self, scope: Scope) -> str:
            path = super().get_path(scope)
            head, _, rest = path.partition("/")
            if rest and VERSIONED.fullmatch(head):
                scope["ludoteca.version"] = head
                return rest
            return path

        def file_response(
            self,
            full_path: str | os.PathLike[str],
            stat_result: os.stat_result,
            scope: Scope,
            status_code: int = 200,
        ) -> Response:
            response = super().file_response(full_path, stat_result, scope, status_code)
            current = version is not None and scope.get("ludoteca.version") == version
            response.headers["Cache-Control"] = IMMUTABLE if current else "no-cache"
            return response

    async def stylesheet(request: Request) -> Response:
        """The page's style sheets as one file, cached for good under this version."""
        assert page is not None
        current = request.path_params["version"] == page.version
        cache = IMMUTABLE if current else "no-cache"
        return Response(page.stylesheet, media_type="text/css", headers={"Cache-Control": cache})

    if page is not None:
        app.add_api_route(
            "/static/{version}/" + BUNDLE, stylesheet, methods=["GET"], include_in_schema=False
        )
    if static.is_dir():
        app.mount("/static", Versioned(directory=static), name="static")
    headers = {"Cache-Control": "no-cache"}

    async def serve_page(request: Request) -> Response:
        if page is not None:
            route = route_of(request.url.path)
            state = getattr(request.app.state, "ludoteca", None)
            game = None
            if route == "table" and state is not None:
                game = await state.lobby.residency.game_of(request.path_params["table_id"])
            return page.answer(route, request, game)
        return JSONResponse(
            {"message": "the web files are missing from this installation; the API is at /docs"},
            status_code=503,
        )

    for path in ROUTES:
        app.add_api_route(path, serve_page, methods=["GET"], include_in_schema=False)

    async def docs() -> Response:
        return HTMLResponse(DOCS_PAGE, headers=headers)

    app.add_api_route("/docs", docs, methods=["GET"], include_in_schema=False)
    return version
