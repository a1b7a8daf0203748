"""How the server delivers the site: compressed text, the same security headers on every
response, a catalogue the browser revalidates with its ETag, the API docs from the server's own
files (no other origin), and the replay endpoints' answers to what they cannot replay."""

from __future__ import annotations

import gzip
import json
import re
import urllib.error
import urllib.request
from typing import Any

import pytest

from kit.browser import Pages, bots_only_match
from kit.env import WEB, milliseconds, seconds
from kit.servers import ServerProcess
from ludoteca.core.fairness import seat_commitment

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
        with urllib.request.urlopen(request, timeout=seconds(10)) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as error:
        found = {k.lower(): v for k, v in error.headers.items()}
        return error.code, found, error.read()


@pytest.mark.slow
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


@pytest.mark.slow
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
    page.wait_for_selector(".opblock-tag", timeout=milliseconds(15_000))
    assert page.locator(".opblock").count() > 10
    assert page.get_by_text("/api/tables/{table_id}/replay").count() >= 1
    assert origins
    assert all(url.startswith(web_server.base + "/") for url in origins), origins


# ------------------------------------------------------------------ caching and preloading
STATIC_REF = re.compile(r'(?:href|src)="(/static/[^"]+)"')


def test_static_files_are_versioned_and_immutable_and_the_page_revalidated(
    web_server: ServerProcess,
) -> None:
    status, headers, body = raw(web_server, "/")
    assert status == 200
    assert headers["cache-control"] == "no-cache"
    page = body.decode()
    refs = STATIC_REF.findall(page)
    assert len(refs) >= 3  # the style sheets as one file, the modules joined (one file), an icon
    versions = {ref.split("/")[2] for ref in refs}
    assert len(versions) == 1, versions
    (version,) = versions
    assert re.fullmatch(r"[0-9a-f]{12}", version)
    for ref in refs:
        got, found, content = raw(web_server, ref)
        assert got == 200, ref
        assert found["cache-control"] == "public, max-age=31536000, immutable", ref
        plain = ref.replace(f"/static/{version}/", "/static/")
        if "/joined/" in plain:  # built by the server (test_each_page_joins_its_modules…)
            assert b'M.need("/static/' in content, ref
            continue
        if plain == "/static/css/page.css":  # index.html's style sheets as one file, in order
            sheets = re.findall(r'href="/static/(css/[^"]+)"', (WEB / "index.html").read_text())
            files = [(WEB / "static" / sheet).read_text() for sheet in sheets]
            assert len(files) > 1 and content.decode() == "\n".join(files)
            continue
        assert raw(web_server, plain)[2] == content  # the same file, unversioned
    # unchanged: 304, with the same tag
    again, again_headers, empty = raw(web_server, "/", {"If-None-Match": headers["etag"]})
    assert (again, empty) == (304, b"")
    assert again_headers["etag"] == headers["etag"]
    # a page from before an upgrade asks under its old version: the file, revalidated
    old, old_headers, old_content = raw(web_server, "/static/000000000000/js/main.js")
    assert old == 200 and old_headers["cache-control"] == "no-cache"
    assert old_content == raw(web_server, f"/static/{version}/js/main.js")[2]
    unversioned = raw(web_server, "/static/js/main.js")[1]
    assert unversioned["cache-control"] == "no-cache"


def test_each_page_joins_its_modules_and_carries_the_catalogue(
    web_server: ServerProcess,
) -> None:
    def joined(path: str) -> tuple[set[str], str]:
        """The modules of the page's one joined file (under their paths in static/ or their
        board's address), and the page."""
        page = raw(web_server, path)[2].decode()
        files = re.findall(r'<script type="module" src="(/static/[^"]+/joined/[^"]+)">', page)
        assert not re.search(r'rel="modulepreload"', page)  # all of them in these files
        assert 1 <= len(files) <= 2  # the route's, and a table's board's
        keys: list[str] = []
        for src in files:
            keys += re.findall(r'^M\.define\("([^"]+)"', raw(web_server, src)[2].decode(), re.M)
        return {re.sub(r"^/static/[0-9a-f]{12}/", "", key) for key in keys}, page

    table, _ = joined("/table/anything")
    assert {"js/main.js", "js/pages/table.js", "js/receipts.js", "js/boards/generic.js"} <= table
    # the end of a match is fetched once the board is up, not before it
    assert not {"js/pages/lobby.js", "js/table/proof.js", "js/table/end.js"} & table
    assert 'name="ludoteca-table"' not in raw(web_server, "/table/anything")[2].decode()
    home, _ = joined("/")
    assert {"js/main.js", "js/pages/home.js", "js/pages/lobby.js"} <= home
    assert "js/pages/table.js" not in home
    # a real table's page names its game and brings that game's board in a file beside it
    made = web_server.post("/api/tables", {"game": "dwarves", "players": 3, "name": "Ana"})
    table_id = made["table"]["id"]
    dwarves, its_page = joined(f"/table/{table_id}")
    assert table <= dwarves and "js/boards/kit.js" in table
    board = web_server.get("/api/games/dwarves")["board"]
    assert {board["module"], *board["parts"]} <= dwarves
    assert not [key for key in dwarves if key.startswith("/boards/heroes/")]
    assert f'<link rel="stylesheet" href="{board["styles"][0]}">' in its_page
    hint = f'<meta name="ludoteca-table" content="{table_id}" data-game="dwarves">'
    assert hint in its_page
    # its board's words are inline too, under the board's namespace; other pages lack them
    words = r'<script type="application/json" id="words" data-lang="(\w+)">(.*?)</script>'
    inline = json.loads(re.findall(words, its_page)[0][1])
    assert inline["dwarves"] == web_server.get(board["words"]["en"])
    assert inline["table"] == web_server.get("/static/i18n/en.json")["table"]
    assert "dwarves" not in json.loads(re.findall(words, raw(web_server, "/")[2].decode())[0][1])
    # the message catalogue of the browser's language, inline
    found = re.findall(words, raw(web_server, "/")[2].decode())
    assert [lang for lang, _ in found] == ["en"]
    assert json.loads(found[0][1]) == web_server.get("/static/i18n/en.json")
    german = raw(web_server, "/", {"Accept-Language": "fr-FR, de;q=0.8, en;q=0.5"})
    assert [lang for lang, _ in re.findall(words, german[2].decode())] == ["de"]
    assert "Accept-Language" in german[1]["vary"]
    page = raw(web_server, "/")[2].decode()
    inline = re.search(r'<script type="application/json" id="games-data">(.*?)</script>', page)
    assert inline is not None
    assert json.loads(inline.group(1)) == web_server.get("/api/games")


def mine(urls: list[str]) -> list[str]:
    return [url for url in urls if url.endswith("/api/seats")]


def network_requests(page: Any, cdp: Any, path: str, ready: str) -> list[str]:
    """What a visit to ``path`` asks the network for (a file the cache answers is no request)."""
    made: list[str] = []
    cached: set[str] = set()

    def answered(event: dict[str, Any]) -> None:
        response = event["response"]
        if event["requestId"] not in cached and not response.get("fromDiskCache"):
            made.append(response["url"])

    cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
    cdp.on("Network.responseReceived", answered)
    cdp.on("Network.webSocketCreated", lambda e: made.append(e["url"]))
    page.goto(path)
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    seen = list(made)  # what comes after belongs to the next visit
    cdp.remove_listener("Network.responseReceived", answered)
    return seen


@pytest.mark.browser
def test_a_repeat_visit_makes_at_most_three_requests(
    pages: Pages, web_server: ServerProcess
) -> None:
    page = pages.open("/")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    page.click("article[data-game='heroes'] .play-now")
    page.wait_for_url("**/table/*")
    page.wait_for_selector(".hr-room")
    table = page.url
    page.goto(web_server.base + "/verify")
    page.wait_for_load_state("networkidle")
    home = network_requests(page, cdp, web_server.base + "/", "article[data-game]")
    # whose turn it is at the seats this browser holds (my tables, the count in the title) was
    # asked on an earlier page of this tab, moments ago: not again
    assert not mine(home), home
    # the page, the lobby's feed (which brings the counts of people looking too: no polling)
    # and the finished tables
    assert not [url for url in home if url.endswith("/api/looking")], home
    assert len(home) <= 3, home
    page.goto(web_server.base + "/verify")
    page.wait_for_load_state("networkidle")
    again = network_requests(page, cdp, table, ".hr-room")
    assert len(again) <= 3, again
    assert not [url for url in home + again if "/static/" in url]


@pytest.mark.browser
def test_a_seated_table_page_opens_its_websocket_beside_its_modules(
    pages: Pages, web_server: ServerProcess
) -> None:
    """On a slow link the websocket's connection, upgrade, hello and first state would follow the
    modules' download: ``table/early.js`` opens it at once and the table adopts it (one
    connection, nothing it heard meanwhile lost); without a seat here it opens nothing."""
    page = pages.open("/")
    said: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda text: said.append(json.loads(text))))
    page.click("article[data-game='heroes'] .play-now")
    page.wait_for_url("**/table/*")
    page.wait_for_selector(".hr-room")
    table = page.url
    table_id = table.rstrip("/").rsplit("/", 1)[1]
    # come by the catalogue, the page's own socket (no early one) says the seat's commitment with
    # its hello too, and no commit follows
    page.wait_for_function("() => window.__ludoteca.state.table.status === 'playing'")
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('ludoteca.seeds'))")[table_id]
    hello = next(m for m in said if m["type"] == "hello" and "token" in m)
    assert hello["commitment"] == seat_commitment(kept["seed"], kept["salt"])
    assert "commit" not in [m["type"] for m in said]
    early = (WEB / "static" / "js" / "table" / "early.js").read_text()
    assert (
        f'<script type="module" async>{early}</script>'
        in raw(web_server, f"/table/{table_id}")[2].decode()
    )
    page.goto(web_server.base + "/verify")
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(table)
    page.wait_for_selector(".hr-room")
    page.wait_for_function("() => window.__ludoteca && window.__ludoteca.status === 'open'")
    page.wait_for_load_state("networkidle")
    assert [url for url in sockets if "/ws/tables/" in url] == [
        f"{web_server.ws_base}/ws/tables/{table_id}"
    ]
    assert page.evaluate("window.__ludotecaEarlySocket") is None  # adopted, not left aside
    # the seat's view came through the adopted connection: the player's, not a spectator's
    page.wait_for_function("() => window.__ludoteca.seat !== null && window.__ludoteca.state")
    page.wait_for_selector(".hr-hand")
    assert not pages.errors
    stranger = pages.open("/verify")
    theirs: list[str] = []
    stranger.on("websocket", lambda ws: theirs.append(ws.url))
    stranger.goto(table)
    stranger.wait_for_selector(".hr-room")
    stranger.wait_for_function("() => window.__ludoteca && window.__ludoteca.status === 'open'")
    assert [url for url in theirs if "/ws/tables/" in url] == sockets
    assert stranger.evaluate("window.__ludoteca.seat") is None


@pytest.mark.browser
@pytest.mark.parametrize("stored", [True, False], ids=["stored-seed", "made-seed"])
def test_a_fresh_table_page_commits_with_its_hello(
    pages: Pages, web_server: ServerProcess, stored: bool
) -> None:
    """The early connection's hello carries the seat's commitment to its own seed (the one
    table/deal.js keeps for this table, or one made and kept as it would make it): the first state
    already shows it, the page sends no ``commit`` of its own, reveals that seed, and the board is
    dealt; the seed store then holds the seed the deal used."""
    played = web_server.post("/api/play-now", {"game": "heroes", "turn_seconds": 600})
    table_id, seat = played["table"]["id"], played["seat"]
    page = pages.open("/verify")  # this server's storage, for the seat and the seed
    seats = {table_id: {"seat": seat, "token": played["token"]}}
    seeds = {table_id: {"seed": "kept-on:this-device", "salt": "5a" * 16, "at": 1}}
    page.evaluate(
        """([seats, seeds]) => {
          localStorage.setItem('ludoteca.seats', JSON.stringify(seats));
          if (seeds) localStorage.setItem('ludoteca.seeds', JSON.stringify(seeds));
        }""",
        [seats, seeds if stored else None],
    )
    sent: list[dict[str, Any]] = []
    sockets: list[str] = []

    def watch(ws: Any) -> None:
        if "/ws/tables/" in ws.url:
            sockets.append(ws.url)
            ws.on("framesent", lambda payload: sent.append(json.loads(payload)))

    page.on("websocket", watch)
    page.goto(f"{web_server.base}/table/{table_id}")
    page.wait_for_selector(".hr-hand")
    page.wait_for_function("() => window.__ludoteca.state.table.status === 'playing'")
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('ludoteca.seeds'))")[table_id]
    if stored:
        assert (kept["seed"], kept["salt"]) == (seeds[table_id]["seed"], seeds[table_id]["salt"])
    else:
        assert re.fullmatch(r"[0-9a-f]{32}", kept["seed"]) and isinstance(kept["at"], int)
        assert re.fullmatch(r"[0-9a-f]{32}", kept["salt"])
    mine = seat_commitment(kept["seed"], kept["salt"])
    assert len(sockets) == 1, sockets
    kinds = [m["type"] for m in sent]
    assert sent[0] == {"type": "hello", "token": played["token"], "commitment": mine}
    assert "commit" not in kinds, kinds
    assert {"type": "reveal", "seed": kept["seed"], "salt": kept["salt"]} in sent
    final = page.evaluate("() => window.__ludoteca.state")
    assert final["view"]["commitments"][seat] == mine
    assert final["view"]["contributions"][seat] == kept["seed"]
    assert page.evaluate("() => window.__ludoteca.errors") == []
    if not stored:
        # the seat's seed is not on this device (another browser, or an old table's seed gone
        # from the store): the early hello commits to a new one, the dealt table refuses it,
        # and the page says nothing of a commitment it would not have sent had it known
        page.evaluate("() => localStorage.removeItem('ludoteca.seeds')")
        page.reload()
        page.wait_for_selector(".hr-hand")
        page.wait_for_function("() => window.__ludoteca.errors.length > 0")
        codes = page.evaluate("() => window.__ludoteca.errors.map((e) => e.code)")
        assert codes == ["already_dealt"]
        assert sent[-1]["type"] == "hello" and sent[-1]["commitment"] != mine
        page.wait_for_timeout(300)
        assert page.locator("#toast").is_hidden()
    assert not pages.errors
