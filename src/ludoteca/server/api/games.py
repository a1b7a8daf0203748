"""``/api/games``: the catalogue and the rules pages; ``/boards/{game}/{version}/…``: the web board
of a game, kept in its own package (``GameSpec.board``): modules, style sheets, pictures and words.

A board's files are addressed under the version of its folder (a hash of every file's path and
bytes), cached for good as the static tree's are; under another version or none, the current file,
revalidated."""

from __future__ import annotations

from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from ludoteca.core import LANGUAGES
from ludoteca.core.game import Game
from ludoteca.games import all_games, get
from ludoteca.server.messages import ErrorCode, Rejected
from ludoteca.server.site.delivery import has_tag
from ludoteca.server.site.pages import IMMUTABLE, static_version

router = APIRouter(tags=["games"])

BOARD_TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".webp": "image/webp",
    ".json": "application/json",
}
"""What a board folder serves, by suffix: its modules, style sheets, pictures and words."""


@router.get("/api/games", summary="Every game, with its catalogue entry")
async def list_games() -> list[dict[str, Any]]:
    return catalogue()


def catalogue() -> list[dict[str, Any]]:
    """Every game with its catalogue entry (also inlined in the web page)."""
    return [game_json(g.spec.id) for g in all_games().values()]


@router.get("/api/games/{game_id}", summary="One game: catalogue and rules pages")
async def one_game(game_id: str) -> dict[str, Any]:
    if game_id not in all_games():
        raise Rejected(ErrorCode.NO_GAME, f"there is no game '{game_id[:64]}'")
    return game_json(game_id, with_rules=True)


@router.get("/boards/{game_id}/{name:path}", include_in_schema=False)
async def board_file(game_id: str, name: str, request: Request) -> Response:
    """A file of a game's board folder, under the folder's version (cached for good) or another
    (revalidated: 304 when the browser has it); 404 for anything else (no way out of the folder),
    as for a missing static file."""
    version, _, rest = name.partition("/")
    path = board_path(game_id, rest) if rest else None
    if path is None:
        raise Rejected(ErrorCode.NOT_FOUND, "there is nothing at this address")
    current = version == board_version(game_id)
    headers = {"Cache-Control": IMMUTABLE if current else "no-cache"}
    answer = FileResponse(path, media_type=BOARD_TYPES[path.suffix], stat_result=path.stat())
    answer.headers.update(headers)
    if has_tag(request.headers.get("if-none-match", ""), answer.headers["etag"]):
        return Response(status_code=304, headers={**headers, "ETag": answer.headers["etag"]})
    return answer


def board_folder(game: Game[Any, Any]) -> Path | None:
    """The folder of ``game``'s board, if it has one."""
    board = game.spec.board
    return None if board is None else Path(str(game.resource(board.folder))).resolve()


def board_path(game_id: str, name: str) -> Path | None:
    """The file ``name`` of the board folder of ``game_id``, if there is one."""
    game = all_games().get(game_id)
    folder = board_folder(game) if game else None
    parts = PurePosixPath(name).parts
    if (
        folder is None
        or not parts
        or any(part in ("..", ".") or part.startswith("/") for part in parts)
        or PurePosixPath(name).suffix not in BOARD_TYPES
    ):
        return None
    path = folder.joinpath(*parts).resolve()
    if not path.is_relative_to(folder) or not path.is_file():
        return None
    return path


def board_files(game: Game[Any, Any]) -> list[str]:
    """The files a board folder serves, as paths inside it, sorted."""
    folder = board_folder(game)
    if folder is None:
        return []
    found = (p for p in folder.rglob("*") if p.is_file() and p.suffix in BOARD_TYPES)
    return sorted(p.relative_to(folder).as_posix() for p in found)


@cache
def board_version(game_id: str) -> str:
    """The version of a game's board: a hash of its folder's files, paths and bytes."""
    folder = board_folder(get(game_id))
    return static_version(folder) if folder else ""


def board_addresses() -> list[str]:
    """Every board file of every game under its version: what the app's worker keeps."""
    return [
        f"/boards/{game_id}/{board_version(game_id)}/{name}"
        for game_id, game in sorted(all_games().items())
        for name in board_files(game)
    ]


def board_words(game_id: str) -> dict[str, dict[str, Any]]:
    """A game's board words per language, under the board's namespace (the page inlines them)."""
    game = get(game_id)
    return {lang: game.board_words(lang) for lang in LANGUAGES}


def game_json(game_id: str, with_rules: bool = False) -> dict[str, Any]:
    game = get(game_id)
    board = game.spec.board
    data: dict[str, Any] = {
        "id": game.spec.id,
        "names": dict(game.spec.names),
        "min_players": game.spec.min_players,
        "max_players": game.spec.max_players,
        "catalogue": game.catalogue(),
        "board": board.urls(game.spec.id, board_version(game.spec.id)) if board else None,
        "options": game.options_json(),
    }
    if with_rules:
        pages = {lang: game.rules_page(lang) for lang in LANGUAGES}
        data["rules"] = {lang: page for lang, page in pages.items() if page is not None}
    return data
