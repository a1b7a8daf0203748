"""How the server delivers the site: compressed text, the same security headers on every
response, a catalogue the browser revalidates with its ETag, the API docs from the server's own
files (no other origin), and the replay endpoints' answers to what they cannot replay."""

from __future__ import annotations

import gzip
import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from kit.browser import Pages, bots_only_match
from kit.servers import ServerProcess

HEADERS = {
    "content-security-policy",
    "x-content-type-options",
    "referrer-policy",
    "x-frame-options",
}


def raw(
    web_server: ServerProcess, path: str, headers: dict[str, str] | None = None, body: Any = None
) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(
        web_server.base + path,
        headers={"Content-Type": "application/json", **(headers or {})},
        data=None if body is None else json.dumps(body).encode(),
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as error:
        found = {k.lower(): v for k, v in error.headers.items()}
        return error.code, found, error.read()


@pytest.mark.parametrize(
    "path",
    [
        "/static/js/pages/table.js",
        "/static/css/table.css",
        "/static/i18n/pt.json",
        "/static/vendor/swagger-ui/swagger-ui-bundle.js",
        "/api/games",
        "/openapi.json",
    ],
)
def test_text_is_compressed(web_server: ServerProcess, path: str) -> None:
    status, headers, body = raw(web_server, path, {"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    plain = gzip.decompress(body)
    _, _, uncompressed = raw(web_server, path)
    assert plain == uncompressed
    assert len(body) < 0.6 * len(plain), (len(body), len(plain))


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/static/js/main.js",
        "/api/games",
        "/api/tables/no-such-table",
        "/docs",
        "/openapi.json",
        "/healthz",
    ],
)
def test_every_response_carries_the_security_headers(web_server: ServerProcess, path: str) -> None:
    _, headers, _ = raw(web_server, path)
    assert set(headers) >= HEADERS, path
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"


def test_the_catalogue_comes_back_as_304_with_its_etag(web_server: ServerProcess) -> None:
    status, headers, body = raw(web_server, "/api/games")
    assert status == 200
    tag = headers["etag"]
    assert json.loads(body)[0]["id"]
    again, headers_again, empty = raw(web_server, "/api/games", {"If-None-Match": tag})
    assert (again, empty) == (304, b"")
    assert headers_again["etag"] == tag
    assert set(headers_again) >= HEADERS
    other, _, _ = raw(web_server, "/api/games", {"If-None-Match": '"stale"'})
    assert other == 200
    one, one_headers, _ = raw(web_server, "/api/games/heroes")
    assert one == 200
    assert one_headers["etag"] != tag


def test_replays_refuse_what_they_cannot_replay(web_server: ServerProcess) -> None:
    status, _, body = raw(web_server, "/api/tables/no-such-table/replay")
    assert (status, json.loads(body)["error"]) == (404, "no_table")
    table = web_server.post("/api/tables", {"game": "heroes", "name": "Ana"})["table"]["id"]
    status, _, body = raw(web_server, f"/api/tables/{table}/replay")
    assert (status, json.loads(body)["error"]) == (409, "not_started")
    finished = bots_only_match(web_server)
    status, _, body = raw(web_server, f"/api/tables/{finished}/replay?seat=7")
    assert (status, json.loads(body)["error"]) == (422, "bad_request")
    record = web_server.get(f"/api/tables/{finished}/record")
    spectator = web_server.get(f"/api/tables/{finished}/replay")
    assert spectator["seat"] is None
    assert spectator["steps"][-1]["view"]["over"]
    assert all(frame["legal"] == [] for frame in spectator["steps"])
    tampered = dict(record, seed="0" * 64)
    status, _, body = raw(web_server, "/api/replay", body=tampered)
    answer = json.loads(body)
    assert (status, answer["error"]) == (422, "bad_request")
    assert answer["problems"][0]["check"] in {"signature", "commitment"}
    status, _, body = raw(web_server, "/api/replay", body=[1, 2])
    assert status == 422


@pytest.mark.browser
def test_the_api_docs_render_from_this_server_only(pages: Pages, web_server: ServerProcess) -> None:
    origins: list[str] = []
    context = pages.browser.new_context()
    pages.contexts.append(context)
    page = context.new_page()
    page.on("request", lambda request: origins.append(request.url))
    page.on("pageerror", lambda error: pages.errors.append(f"pageerror: {error}"))
    page.goto(web_server.base + "/docs")
    page.wait_for_selector(".opblock-tag", timeout=15_000)
    assert page.locator(".opblock").count() > 10
    assert page.get_by_text("/api/tables/{table_id}/replay").count() >= 1
    assert origins
    assert all(url.startswith(web_server.base + "/") for url in origins), origins
