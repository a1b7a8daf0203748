"""The ASGI app: lobby over HTTP (documented in the OpenAPI schema), play over one websocket per
client, the web table as static files."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import text

from ludoteca import __version__
from ludoteca.bots import LEVELS
from ludoteca.core import LANGUAGES, Receipt, verify
from ludoteca.games import all_games, get

from .bots import BotRunner
from .config import Settings
from .connection import Connection, LobbyFeed
from .keys import KeyRing
from .lobby import Lobby, SeatRequest
from .logs import log
from .replay import replay_router
from .site import mount_web
from .storage import Storage
from .table import Rejected, Services

STATUS_CODES = {
    "no_table": 404,
    "no_game": 404,
    "bad_request": 422,
    "bad_token": 403,
    "not_open": 409,
    "seat_taken": 409,
    "table_full": 409,
    "not_started": 409,
    "bad_contribution": 422,
    "already_dealt": 409,
}

Level = Literal["random", "easy", "medium", "hard"]
assert set(LEVELS) == {"random", "easy", "medium", "hard"}


# ------------------------------------------------------------------------------ request bodies
class SeatSpec(BaseModel):
    bot: bool = Field(False, description="true: a bot takes this seat; false: a seat for a person")
    level: Level | None = Field(None, description="the bot's level (default: medium)")


class CreateTable(BaseModel):
    game: str = Field(description="game id, e.g. 'heroes'")
    players: int | None = Field(None, description="number of seats (default: the game's minimum)")
    seats: list[SeatSpec] | None = Field(
        None, description="each seat: a bot or a person (default: you, then bots)"
    )
    turn_seconds: int | None = Field(None, description="seconds per turn (default 60)")
    name: str | None = Field(None, description="your name: you sit at the first seat for a person")
    start: bool = Field(False, description="start at once; empty seats are taken by bots")


class PlayNow(BaseModel):
    game: str
    players: int | None = None
    level: Level = "medium"
    name: str = "Player"
    turn_seconds: int | None = None


class Contribution(BaseModel):
    seed: str = Field(
        min_length=1,
        max_length=64,
        description="your own seed for the deal: 1 to 64 printable ASCII characters, no spaces",
    )


class JoinTable(BaseModel):
    name: str | None = Field(None, description="your name at the table")
    seat: int | None = Field(
        None, description="a particular seat (0-based); default: the first free"
    )


def bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(settings.db_url)
        bots = BotRunner(processes=settings.bot_processes)
        keys = KeyRing.load(Path(settings.keys_dir)) if settings.keys_dir else KeyRing.ephemeral()
        lobby = Lobby(Services(storage, bots, settings, keys=keys))
        await lobby.load()
        state.update(storage=storage, lobby=lobby, bots=bots, connections=set())
        log("server_started", db=storage.engine.dialect.name, version=__version__)
        try:
            yield
        finally:
            log("server_stopping", connections=len(state["connections"]))
            lobby.shutdown()
            for websocket in list(state["connections"]):
                await _close_quietly(websocket)
            # let actions already being stored finish before the database goes away
            for table in list(lobby.tables.values()):
                async with table.lock:
                    pass
            bots.close()
            storage.close()
            log("server_stopped")

    app = FastAPI(
        title="ludoteca",
        version=__version__,
        description="Lobby API of the ludoteca table server. Play happens over the websocket "
        "`/ws/tables/{table_id}` (see docs/protocol.md).",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,  # served from the package by site.mount_web: no CDN
    )

    def lobby() -> Lobby:
        found: Lobby = state["lobby"]
        return found

    @app.exception_handler(Rejected)
    async def rejected(_request: Request, exc: Rejected) -> JSONResponse:
        return JSONResponse(
            {"error": exc.code, "message": exc.message}, status_code=STATUS_CODES.get(exc.code, 400)
        )

    # ---------------------------------------------------------------------------- games
    @app.get("/api/games", tags=["games"], summary="Every game, with its catalogue entry")
    async def list_games() -> list[dict[str, Any]]:
        return [game_json(g.spec.id) for g in all_games().values()]

    @app.get("/api/games/{game_id}", tags=["games"], summary="One game: catalogue and rules pages")
    async def one_game(game_id: str) -> dict[str, Any]:
        if game_id not in all_games():
            raise Rejected("no_game", f"there is no game '{game_id}'")
        return game_json(game_id, with_rules=True)

    # --------------------------------------------------------------------------- tables
    @app.get("/api/tables", tags=["tables"], summary="Tables by status (default: open ones)")
    async def list_tables(
        status: Literal["open", "starting", "playing", "over"] = Query("open"),
    ) -> list[dict[str, Any]]:
        return lobby().listing(status)

    @app.post("/api/tables", tags=["tables"], status_code=201, summary="Create a table")
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        seats = [SeatRequest(s.bot, s.level) for s in body.seats] if body.seats else None
        table, seat, token = await lobby().create(
            body.game,
            players=body.players,
            seats=seats,
            turn_seconds=body.turn_seconds,
            name=body.name,
            start=body.start,
        )
        return {"table": table.summary(), "seat": seat, "token": token, **links(request, table.id)}

    @app.post("/api/play-now", tags=["tables"], status_code=201, summary="Play against bots now")
    async def play_now(body: PlayNow, request: Request) -> dict[str, Any]:
        game = all_games().get(body.game)
        count = body.players or (game.spec.min_players if game else 2)
        seats = [SeatRequest()] + [SeatRequest(True, body.level) for _ in range(count - 1)]
        table, seat, token = await lobby().create(
            body.game,
            players=count,
            seats=seats,
            turn_seconds=body.turn_seconds,
            name=body.name,
            start=True,
        )
        return {"table": table.summary(), "seat": seat, "token": token, **links(request, table.id)}

    @app.get("/api/tables/{table_id}", tags=["tables"], summary="A table's public summary")
    async def one_table(table_id: str, request: Request) -> dict[str, Any]:
        table = await lobby().get(table_id)
        return {"table": table.summary(), **links(request, table_id)}

    @app.post("/api/tables/{table_id}/join", tags=["tables"], summary="Take a free seat")
    async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        seat, token = await lobby().join(table_id, body.name, body.seat)
        table = await lobby().get(table_id)
        return {"table": table.summary(), "seat": seat, "token": token, **links(request, table_id)}

    @app.post("/api/tables/{table_id}/leave", tags=["tables"], summary="Leave your seat")
    async def leave(
        table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        await lobby().leave(table_id, bearer(authorization))
        return {"table": (await lobby().get(table_id)).summary()}

    @app.post(
        "/api/tables/{table_id}/contribute",
        tags=["tables"],
        summary="Add your own seed to the deal (after the commitment is out, before the deal)",
    )
    async def contribute(
        table_id: str, body: Contribution, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = await lobby().get(table_id)
        seat = table.seat_for_token(bearer(authorization))
        if seat is None:
            raise Rejected("bad_token", "this token holds no seat at this table")
        await table.contribute(seat, body.seed)
        return {"table": table.summary()}

    @app.post("/api/tables/{table_id}/start", tags=["tables"], summary="Start (bots fill seats)")
    async def start(
        table_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        table = await lobby().start(table_id, bearer(authorization))
        return {"table": table.summary()}

    @app.get(
        "/api/tables/{table_id}/record",
        tags=["tables"],
        summary="The match record (seed and outcome once the match is over)",
    )
    async def record(table_id: str) -> dict[str, Any]:
        found: dict[str, Any] = (await lobby().record(table_id)).to_json()
        return found

    @app.get(
        "/api/keys",
        tags=["records"],
        summary="The server's record-signing keys (Ed25519), current first",
    )
    async def signing_keys() -> dict[str, Any]:
        return {"keys": [k.to_json() for k in lobby().services.keys.published()]}

    @app.post(
        "/api/verify",
        tags=["records"],
        summary="Check a match record: signature, commitment, seed, re-deal, every action, "
        "chain, outcome, and the receipts given",
        description='The body is a match record, or `{"record": RECORD, "receipts": '
        '[{"table", "version", "chain"}, ...]}` to check it also against the chain '
        "heads a player was shown.",
    )
    async def verify_record(body: dict[str, Any]) -> dict[str, Any]:
        record, receipts = verify_body(body)
        verdict = await asyncio.to_thread(verify, record, get, receipts=receipts)
        result: dict[str, Any] = verdict.to_json()
        return result

    @app.get("/healthz", tags=["operations"], summary="Health: database reachable, tables served")
    async def health() -> JSONResponse:
        storage: Storage = state["storage"]

        def ping() -> None:
            with storage.engine.connect() as conn:
                conn.execute(text("SELECT 1"))

        try:
            await asyncio.wait_for(storage.run(ping), 5)
        except Exception as exc:
            return JSONResponse({"status": "failing", "db": repr(exc)}, status_code=503)
        tables = lobby().tables.values()
        return JSONResponse(
            {
                "status": "ok",
                "db": storage.engine.dialect.name,
                "tables": sum(t.row.status == "playing" for t in tables),
                "connections": len(state["connections"]),
                "version": __version__,
            }
        )

    # -------------------------------------------------------------------------- websocket
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        state["connections"].add(websocket)
        try:
            await Connection(websocket, lobby(), settings).serve(table_id)
        finally:
            state["connections"].discard(websocket)

    @app.websocket("/ws/lobby")
    async def follow_lobby(websocket: WebSocket) -> None:
        await websocket.accept()
        state["connections"].add(websocket)
        try:
            await LobbyFeed(websocket, lobby(), settings).serve()
        finally:
            state["connections"].discard(websocket)

    app.include_router(replay_router(lobby))
    mount_web(app)
    return app


def verify_body(body: dict[str, Any]) -> tuple[Any, list[Receipt]]:
    """The record and the receipts of a ``POST /api/verify`` body: a bare record (no receipts),
    or ``{"record": ..., "receipts": [...]}``. Malformed receipts are refused (422)."""
    if "record" not in body:
        return body, []
    extra = set(body) - {"record", "receipts"}
    if extra:
        raise Rejected("bad_request", f"unknown fields next to 'record': {sorted(extra)}")
    given = body.get("receipts", [])
    if not isinstance(given, list):
        raise Rejected("bad_request", "'receipts' is a list of {table, version, chain}")
    try:
        receipts = [Receipt.from_json(item) for item in given]
    except ValueError as exc:
        raise Rejected("bad_request", str(exc)) from None
    return body["record"], receipts


def links(request: Request, table_id: str) -> dict[str, str]:
    base = str(request.base_url).rstrip("/")
    return {
        "invite": f"{base}/table/{table_id}",
        "websocket": f"{base.replace('http', 'ws', 1)}/ws/tables/{table_id}",
    }


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
        data["rules"] = rules_pages(game_id)
    return data


def rules_pages(game_id: str) -> dict[str, str]:
    game = get(game_id)
    pages = {lang: game.rules_page(lang) for lang in LANGUAGES}
    return {lang: page for lang, page in pages.items() if page is not None}


async def _close_quietly(websocket: WebSocket) -> None:
    try:
        await websocket.close(code=1001, reason="server restarting")
    except Exception:
        return
