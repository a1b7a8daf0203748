"""The web table as served: static files and the page for every client-side route."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Scope


def web_root() -> Path:
    return Path(str(resources.files("ludoteca").joinpath("web")))


def mount_web(app: FastAPI) -> None:
    """The web table: static files, and the page for every client-side route."""
    root = web_root()
    index = root / "index.html"

    class Revalidated(StaticFiles):
        """Static files the browser revalidates (a 304 when unchanged), so an upgrade of the
        server never leaves a player with old modules next to new ones."""

        def file_response(
            self,
            full_path: str | os.PathLike[str],
            stat_result: os.stat_result,
            scope: Scope,
            status_code: int = 200,
        ) -> Response:
            response = super().file_response(full_path, stat_result, scope, status_code)
            response.headers["Cache-Control"] = "no-cache"
            return response

    if (root / "static").is_dir():
        app.mount("/static", Revalidated(directory=root / "static"), name="static")
    headers = {
        "Cache-Control": "no-cache",
        # the client is plain files from this server: no inline script, no other origin
        "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
        "base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
    }

    async def page() -> Response:
        if index.is_file():
            return FileResponse(index, headers=headers)
        return JSONResponse(
            {"message": "the web table is not built yet; the API is at /docs"}, status_code=503
        )

    for path in ("/", "/games/{game_id}", "/table/{table_id}", "/verify"):
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)
