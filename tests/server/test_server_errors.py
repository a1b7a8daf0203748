"""Every error of the lobby API and of the files it serves is the documented JSON shape
``{"error", "message"}`` (docs/protocol.md); a JSON body is strict JSON, for every route at once;
the larger body limit is exactly where the document says. In process: the app behind httpx's
ASGI transport, its start-up and shut-down run around the requests."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from kit.servers import server_settings
from ludoteca.server.app import create_app

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
NOWHERE = {"error": "not_found", "message": "there is nothing at this address"}
NOT_ALLOWED = {"error": "not_allowed", "message": "this address does not answer that method"}
JSON_BODY = {"Content-Type": "application/json"}

Call = tuple[str, str, dict[str, Any]]


def exchange(calls: list[Call], app: FastAPI | None = None) -> list[httpx.Response]:
    """The answers of a fresh in-memory server (or ``app``) to ``calls`` (method, path, httpx
    arguments), in order."""
    app = app or create_app(server_settings("memory://"))

    async def run() -> list[httpx.Response]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                return [await client.request(m, path, **kw) for m, path, kw in calls]

    return asyncio.run(run())


ERRORS = [  # (method, path, answer)
    ("GET", "/boards/dice-heroes/board.js", NOWHERE),  # a game whose board is in /static/
    ("GET", "/boards/no-such-game/board.js", NOWHERE),
    ("GET", "/boards/heroes/..%2F..%2Fgame.py", NOWHERE),
    ("POST", "/boards/heroes/board.js", NOT_ALLOWED),
    ("GET", "/static/js/no-such-module.js", NOWHERE),
    ("GET", "/static/0123456789ab/js/no-such-module.js", NOWHERE),
    ("POST", "/static/js/main.js", NOT_ALLOWED),
    ("GET", "/api/no-such-thing", NOWHERE),
    ("GET", "/api/tables/abc/no-such-thing", NOWHERE),
    ("DELETE", "/api/games", NOT_ALLOWED),
    ("PUT", "/api/replay", NOT_ALLOWED),
]


def test_errors_of_api_and_files_are_the_documented_json() -> None:
    """A board file that is not there used to be answered ``Not Found`` as plain text."""
    answers = exchange([(method, path, {}) for method, path, _ in ERRORS])
    for (method, path, body), answer in zip(ERRORS, answers, strict=True):
        status = {NOWHERE["error"]: 404, NOT_ALLOWED["error"]: 405}[body["error"]]
        assert answer.status_code == status, (method, path)
        assert answer.headers["content-type"] == "application/json", (method, path)
        assert answer.json() == body, (method, path)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("content_type", ["application/json", "application/merge-patch+json"])
def test_nan_and_infinity_are_not_json_and_change_nothing(constant: str, content_type: str) -> None:
    """Python's parser, the one the routes read with, takes them as numbers: they reached the
    routes (a record's fields, a table's), which then answered whatever they made of them."""
    table = f'{{"game": "heroes", "name": "A", "turn_seconds": {constant}}}'
    headers = {"Content-Type": content_type}
    answers = exchange(
        [
            ("POST", "/api/tables", {"content": table, "headers": headers}),
            (
                "POST",
                "/api/play-now",
                {"content": f'{{"game": "heroes", "x": {constant}}}', "headers": headers},
            ),
            ("POST", "/api/replay", {"content": f'{{"format": {constant}}}', "headers": headers}),
            ("POST", "/api/verify", {"content": f"[{constant}]", "headers": headers}),
            ("GET", "/api/tables", {}),
        ]
    )
    for refused in answers[:4]:
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"] == "bad_json"
        assert refused.json()["message"].startswith("the body is not valid JSON: ")
    assert answers[4].json() == []


def test_a_body_that_is_json_still_reaches_its_route() -> None:
    """The check hands the whole body on: JSON as it should be, empty, or not sent as JSON."""
    fine = {
        "game": "heroes",
        "seats": [{"bot": False}, {"bot": True, "level": "easy"}],
        "name": "A",
    }
    answers = exchange(
        [
            ("POST", "/api/tables", {"json": fine}),
            ("POST", "/api/tables", {"content": b"", "headers": JSON_BODY}),
            ("POST", "/api/tables", {"content": b"NaN", "headers": {"Content-Type": "text/plain"}}),
            ("GET", "/api/tables", {}),
        ]
    )
    assert answers[0].status_code == 201, answers[0].text
    assert answers[1].status_code == 422 and answers[1].json()["error"] == "bad_request"
    assert answers[2].status_code == 422 and answers[2].json()["error"] == "bad_request"
    assert [t["id"] for t in answers[3].json()] == [answers[0].json()["table"]["id"]]


def documented_limits() -> tuple[int, int, set[str]]:
    """docs/protocol.md's body limits: the default, the larger one, the paths that have it."""
    found = re.search(r"a body is at most (\d+) KiB \((\d+) MiB for ([^)]*)\)", DOC)
    assert found, "the body limits are not where they were"
    paths = set(re.findall(r"`(/api/[a-z/]+)`", found.group(3)))
    return int(found.group(1)) * 1024, int(found.group(2)) * 1024 * 1024, paths


def json_of(size: int) -> bytes:
    """A JSON array of exactly ``size`` bytes."""
    body = json.dumps(["x" * (size - 4)]).encode()
    assert len(body) == size
    return body


async def _chunks(size: int) -> AsyncIterator[bytes]:
    """``json_of(size)`` in 64 KiB pieces, sent without a Content-Length."""
    body = json_of(size)
    for start in range(0, size, 65536):
        yield body[start : start + 65536]


def test_the_larger_body_limit_is_where_the_document_says() -> None:
    """Every POST route is sent a body one byte over the default limit: those that take it are
    exactly the documented ones (``/api/replay``'s 1 MiB was undocumented), and one byte over
    their own limit is 413 ``too_large`` naming it, with or without a Content-Length."""
    default, larger, paths = documented_limits()
    settings = server_settings("memory://")
    assert (default, larger) == (settings.max_body_bytes, settings.max_record_bytes)
    app = create_app(settings)
    posts = sorted(  # every POST route (the schema lists them all: none is left out of it)
        re.sub(r"\{[^}]+\}", "x", path)
        for path, operations in app.openapi()["paths"].items()
        if "post" in operations
    )
    assert "/api/replay" in posts and "/api/tables" in posts
    over_default = json_of(default + 1)
    calls: list[Call] = [
        ("POST", p, {"content": over_default, "headers": JSON_BODY}) for p in posts
    ]
    over = json_of(larger + 1)
    calls += [("POST", p, {"content": over, "headers": JSON_BODY}) for p in sorted(paths)]
    calls += [
        ("POST", p, {"content": _chunks(larger + 1), "headers": JSON_BODY}) for p in sorted(paths)
    ]
    answers = exchange(calls, app)
    first = answers[: len(posts)]
    took = {p for p, a in zip(posts, first, strict=True) if a.status_code != 413}
    assert took == paths
    for answer in answers[len(posts) :]:
        assert answer.status_code == 413
        assert answer.json() == {
            "error": "too_large",
            "message": f"a request body may be at most {larger} bytes",
        }
