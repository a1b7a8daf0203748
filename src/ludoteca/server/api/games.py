"""``/api/games``: the catalogue and the rules pages; ``/boards/{game}/…``: the web board of a game
that keeps it in its own package (``GameSpec.board`` with a ``folder``)."""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from ludoteca.core import LANGUAGES
from ludoteca.games import all_games, get
from ludoteca.server.messages import ErrorCode, Rejected

router = APIRouter(tags=["games"])

BOARD_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
"""What a board folder serves, by suffix: its modules, style sheets and pictures."""


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
async def board_file(game_id: str, name: str) -> Response:
    """A file of a game's board folder; 404 ``not_found`` for anything else (no way out of the
    folder), as for a missing static file."""
    path = board_path(game_id, name)
    if path is None:
        raise Rejected(ErrorCode.NOT_FOUND, "there is nothing at this address")
    return FileResponse(
        path, media_type=BOARD_TYPES[path.suffix], headers={"Cache-Control": "no-cache"}
    )


def board_path(game_id: str, name: str) -> Path | None:
    """The file ``name`` of the board folder of ``game_id``, if there is one."""
    game = all_games().get(game_id)
    board = game.spec.board if game else None
    parts = PurePosixPath(name).parts
    if (
        game is None
        or board is None
        or board.folder is None
        or not parts
        or any(part in ("..", ".") or part.startswith("/") for part in parts)
        or PurePosixPath(name).suffix not in BOARD_TYPES
    ):
        return None
    folder = Path(str(game.resource(board.folder))).resolve()
    path = folder.joinpath(*parts).resolve()
    if not path.is_relative_to(folder) or not path.is_file():
        return None
    return path


def game_json(game_id: str, with_rules: bool = False) -> dict[str, Any]:
    game = get(game_id)
    board = game.spec.board
    data: dict[str, Any] = {
        "id": game.spec.id,
        "names": dict(game.spec.names),
        "min_players": game.spec.min_players,
        "max_players": game.spec.max_players,
        "catalogue": game.catalogue(),
        "board": board.urls(game.spec.id) if board else None,
    }
    if with_rules:
        pages = {lang: game.rules_page(lang) for lang in LANGUAGES}
        data["rules"] = {lang: page for lang, page in pages.items() if page is not None}
    return data
