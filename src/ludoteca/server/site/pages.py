"""The web table as served: static files, the page for every client-side route, the API docs from
the package (no CDN); what every HTTP response gets on its way out is ``delivery``.

Static files are addressed under the version of the whole static tree (``/static/<version>/…``,
the first hex digits of a hash of every file's path and content) and cached for a year as
``immutable``: a returning browser asks for none of them. The page (``index.html``) names that
version, is revalidated on every visit (a 304 when nothing changed), carries the catalogue of
games inline and preloads the modules of the route it serves, so a repeat visit costs the page,
the API call and the websocket the route needs, and nothing else. The page's modules come joined
in one file (``joined``: a table's with its game's board), so a slow link pays one round trip
for them, not one per six; they import each other by relative paths, so they stay within their
version."""

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
from .joined import Joiner, JoinError, digest

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


# the modules each route's page needs at once, joined in one file (main.js imports the page's
# module on its own)
ROUTE_MODULES = {
    "home": ["js/main.js", "js/pages/home.js"],
    "rules": ["js/main.js", "js/pages/rules.js"],
    "table": ["js/main.js", "js/pages/table.js", "js/boards/kit.js"],  # every board imports the kit
    "verify": ["js/main.js", "js/pages/verify.js"],
    "replay": ["js/main.js", "js/pages/replay.js"],
}
# a table's page opens its websocket as soon as its head is read: this module, inline (it imports
# nothing; a file of its own would share the slow link with the page's modules and wait for them)
EARLY = "js/table/early.js"
MAIN = "js/main.js"
GENERIC_BOARD = "js/boards/generic.js"  # a table of a game without a board of its own

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
        *,
        board_file: Callable[[str, str], Path | None] | None = None,
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
        self._joining(static, games, board_file)
        # a board kept in a game's own package imports the table's helpers by their plain
        # addresses (/static/js/…): the import map names this version, so it shares the page's
        # modules instead of loading second copies of them
        imports = json.dumps({"imports": {"/static/js/": f"/static/{self.version}/js/"}})
        early = (static / EARLY).read_text(encoding="utf-8")
        if "</script" in early or re.search(r"^\s*(import|export)\b", early, re.M):
            raise ValueError(f"{EARLY} is inlined: no imports, and no end of script in it")
        allowed = " ".join(
            "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
            for text in (imports, early)
        )
        self.policy = f"{POLICY}; script-src 'self' {allowed}"  # those two inline scripts
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
        main = f'<script type="module" src="/static/{self.version}/{MAIN}">'
        for route, entries in ROUTE_MODULES.items():
            # the page's file is its module's file, which another page loads when it moves to
            # this route (one cached file for both ways of coming)
            joined = self.joined_root + self.page_files[self.address(entries[1])]
            page = html.replace(main, f'<script type="module" src="{joined}">')
            if route == "table":  # its websocket opens while the modules load (early.js)
                socket = f'  <script type="module" async>{early}</script>\n'
                page = table = page.replace("</script>\n", "</script>\n" + socket, 1)
            self._add(route, page)
        self.boards: set[str] = set()
        for game in games:
            # a table's page names its game and fetches its board's file beside the table's (a
            # game without a board of its own plays on the generic one: the page as for any table)
            board = game.get("board")
            if not board:
                continue
            hint = f'  <meta name="ludoteca-table" content="" data-game="{game["id"]}">\n'
            joined = f"{self.joined_root}{self.chunk(board['module'])}"
            hint += f'  <script type="module" src="{joined}"></script>\n'
            hint += "".join(f'  <link rel="stylesheet" href="{url}">\n' for url in board["styles"])
            words = board_words(game["id"]) if board_words else {}
            self._add(f"table:{game['id']}", table.replace("</head>", hint + "</head>"), words)
            self.boards.add(game["id"])

    def address(self, module: str) -> str:
        """A module's address under this version (``module``: its path under static/)."""
        return f"/static/{self.version}/{module}"

    def _joining(
        self,
        static: Path,
        games: list[dict[str, Any]],
        board_file: Callable[[str, str], Path | None] | None,
    ) -> None:
        """The joined files of this tree's modules and the games' boards (see ``joined``): each
        route's module with the others of its route (running main.js), every module a page may
        load later (kept by the app's worker for offline use) with its graph."""
        mine = f"/static/{self.version}/"

        def read(address: str) -> str | None:
            path: Path | None = None
            if address.startswith(mine):
                path = (static / address[len(mine) :]).resolve()
                path = path if path.is_relative_to(static.resolve()) else None
            elif address.startswith("/boards/") and board_file is not None:
                _, _, game, _, name = address.split("/", 4)
                path = board_file(game, name)
            if path is None or path.suffix != ".js" or not path.is_file():
                return None
            return path.read_text(encoding="utf-8")

        boards = [g["board"] for g in games if g.get("board")]
        # the boards' versions are their own: the joined files' address names them too
        self.joined_root = f"{mine}joined/{digest(b['module'] for b in boards)}/"
        self.joiner = Joiner(read, {"/static/js/": f"{mine}js/"}, self.joined_root[:-1])
        self.joined: dict[str, str] = {}
        self.page_files: dict[str, str] = {}
        for entries in ROUTE_MODULES.values():
            roots = [self.address(e) for e in entries[1:]] + [self.address(MAIN)]
            if entries[1] == "js/pages/table.js":
                roots.append(self.address(GENERIC_BOARD))
            self.page_files[roots[0]] = name = roots[0].lstrip("/")
            self.joined[name] = self.joiner.joined(roots, self.address(MAIN))
        later = [b["module"] for b in boards]
        js = sorted(p.relative_to(static).as_posix() for p in (static / "js").rglob("*.js"))
        later += self.joiner.dynamic_targets(self.address(path) for path in js)
        # every page's file runs main.js: a chunk leaves out what that brings (the shell's
        # modules), so it holds little but its own, and its address is the same from any page
        self.shell = self.joiner.graph([self.address(MAIN)])
        for key in later:
            self.chunk(key)

    def chunk(self, key: str) -> str | None:
        """The name of the joined file of the module at address ``key`` (a route's module: its
        page's file; else the module's graph but the shell's modules), None when there is no
        such module."""
        name = key.lstrip("/")
        if name not in self.joined:
            try:
                self.joined[name] = self.joiner.joined([key], without=self.shell)
            except JoinError:
                if self.joiner.read(key) is not None:
                    raise  # a module of the tree that cannot be joined: refused at start-up
                return None
        return name

    def joined_files(self) -> list[str]:
        """The addresses of every joined file built so far (the pages' and the chunks')."""
        return [self.joined_root + name for name in self.joined]

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
    board_file: Callable[[str, str], Path | None] | None = None,
) -> Page | None:
    """The web table: static files, the page for every client-side route, the offline API docs.
    ``catalogue`` gives what ``/api/games`` answers, inlined in the page, as is ``offer`` (what
    ``/api/notify`` answers) and, in a table's page, ``board_words`` (a game's board's words per
    language); ``board_file(game, name)`` a file of a game's board folder (its modules are joined
    into its table's page). Returns the page (None without the web files)."""
    root = web_root()
    index = root / "index.html"
    static = root / "static"
    install_delivery(app)
    found = index.is_file() and static.is_dir()
    page = None
    if found:
        page = Page(index, static, catalogue, offer, board_words, board_file=board_file)
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

    async def joined(request: Request) -> Response:
        """A page's modules joined, or a module's chunk (``joined``): cached for good when this
        server built it; 404 for any other address."""
        assert page is not None
        name = request.url.path.removeprefix(page.joined_root)
        text = None
        if request.url.path.startswith(page.joined_root):
            found = page.chunk("/" + name)
            text = page.joined[found] if found else None
        if text is None:
            return JSONResponse({"message": "there is nothing at this address"}, 404)
        headers = {"Cache-Control": IMMUTABLE}
        return Response(text, media_type="text/javascript", headers=headers)

    if page is not None:
        app.add_api_route(
            "/static/{version}/" + BUNDLE, stylesheet, methods=["GET"], include_in_schema=False
        )
        app.add_api_route(
            "/static/{version}/joined/{path:path}", joined, methods=["GET"], include_in_schema=False
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
    return page
