"""``/api/games``: the catalogue and the rules pages."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ludoteca.core import LANGUAGES
from ludoteca.games import all_games, get
from ludoteca.server.protocol import ErrorCode, Rejected

router = APIRouter(tags=["games"])


@router.get("/api/games", summary="Every game, with its catalogue entry")
async def list_games() -> list[dict[str, Any]]:
    return [game_json(g.spec.id) for g in all_games().values()]


@router.get("/api/games/{game_id}", summary="One game: catalogue and rules pages")
async def one_game(game_id: str) -> dict[str, Any]:
    if game_id not in all_games():
        raise Rejected(ErrorCode.NO_GAME, f"there is no game '{game_id[:64]}'")
    return game_json(game_id, with_rules=True)


def game_json(game_id: str, with_rules: bool = False) -> dict[str, Any]:
    game = get(game_id)
    data: dict[str, Any] = {
        "id": game.spec.id,
        "names": dict(game.spec.names),
        "min_players": game.spec.min_players,
        "max_players": game.spec.max_players,
        "catalogue": game.catalogue(),
    }
    if with_rules:
        pages = {lang: game.rules_page(lang) for lang in LANGUAGES}
        data["rules"] = {lang: page for lang, page in pages.items() if page is not None}
    return data
