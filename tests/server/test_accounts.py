"""Accounts against a real server: the JSON routes, the attacks they must stand (enumeration by
timing, brute force, cross-site requests, session fixation), seats that follow the person, and a
rated match played to the end against bots that moves the rating and enters the history."""

from __future__ import annotations

import asyncio
import random
import re
import statistics
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, insert

from kit.client import Client
from kit.env import seconds
from kit.servers import ThreadServer, server_settings
from ludoteca.games import get
from ludoteca.server.accounts.service import Accounts
from ludoteca.server.storage.schema import rated_tables

PASSWORD = "correct horse battery"


def loose(url: str, **changes: Any) -> Any:
    return server_settings(
        url,
        limit_login="10000/minute",
        limit_login_pair="10000/minute",
        limit_login_account="10000/minute",
        limit_signup="10000/minute",
        rating_poll_seconds=0.1,
        **changes,
    )


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ThreadServer]:
    srv = ThreadServer(loose(sqlite_url)).start()
    yield srv
    srv.stop()


_opened: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while _opened:
        _opened.pop().close()


def browser(srv: ThreadServer) -> httpx.Client:
    """A client that behaves as the site's own pages: it keeps cookies and sends its Origin."""
    client = httpx.Client(base_url=srv.base, timeout=seconds(30), headers={"Origin": srv.base})
    _opened.append(client)
    return client


def sign_up(srv: ThreadServer, name: str, password: str = PASSWORD) -> httpx.Client:
    client = browser(srv)
    made = client.post("/api/accounts", json={"name": name, "password": password})
    assert made.status_code == 201, made.text
    return client


# ------------------------------------------------------------------------------- routes
@pytest.mark.slow
def test_sign_up_in_me_and_delete(server: ThreadServer) -> None:
    ana = browser(server)
    made = ana.post("/api/accounts", json={"name": "Ana Maria", "password": PASSWORD})
    assert made.status_code == 201 and made.json() == {"name": "Ana Maria"}
    cookie = made.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    assert "secure" not in cookie, "Secure only when served over https"
    assert ana.get("/api/me").json()["name"] == "Ana Maria"
    assert browser(server).get("/api/me").status_code == 401

    stranger = browser(server)
    wrong = stranger.post("/api/session", json={"name": "ana maria", "password": "not it at all"})
    unknown = stranger.post("/api/session", json={"name": "nobody here", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.content == unknown.content
    assert wrong.json()["error"] == "bad_login"
    assert "set-cookie" not in wrong.headers
    # the name is matched after NFKC and case folding: full-width capitals are the same name
    again = browser(server)
    signed = again.post("/api/session", json={"name": "ＡＮＡ MARIA", "password": PASSWORD})
    assert signed.status_code == 200 and signed.json() == {"name": "Ana Maria"}
    assert again.get("/api/me").json()["name"] == "Ana Maria"

    profile = ana.get("/api/players/ana%20maria")
    assert profile.status_code == 200
    assert profile.json() == {
        "name": "Ana Maria",
        "since": profile.json()["since"],
        "ratings": {},
        "matches": [],
    }
    exported = ana.get("/api/me/export")
    assert exported.status_code == 200 and exported.json()["account"]["name"] == "Ana Maria"
    assert len(exported.json()["sessions"]) == 2
    assert "attachment" in exported.headers["content-disposition"]

    assert ana.delete("/api/me").status_code == 204
    assert ana.get("/api/me").status_code == 401
    assert again.get("/api/me").status_code == 401, "deleting ends every session"
    gone = browser(server).post("/api/session", json={"name": "Ana Maria", "password": PASSWORD})
    assert gone.status_code == 401 and gone.content == unknown.content
    assert browser(server).get("/api/players/Ana Maria").status_code == 404


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "password", "error"),
    [
        ("A", PASSWORD, "bad_name"),
        ("x" * 25, PASSWORD, "bad_name"),
        ("two  spaces", PASSWORD, "bad_name"),
        ("<script>", PASSWORD, "bad_name"),
        ("trailing-", PASSWORD, "bad_name"),
        ("zero\u200bwidth", PASSWORD, "bad_name"),
        ("Bruno", "short", "bad_password"),
        ("Bruno", "password123", "bad_password"),
        ("Bruno", "Passwort1", "bad_password"),
        ("Bruno", "bruno-is-me", "bad_password"),
        ("Bruno", "aaaaaaaaaaaa", "bad_password"),
    ],
)
def test_names_and_passwords_are_refused_with_a_reason(
    server: ThreadServer, name: str, password: str, error: str
) -> None:
    answer = browser(server).post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == error and answer.json()["message"]
    assert "set-cookie" not in answer.headers


@pytest.mark.slow
def test_names_are_unique_after_normalisation(server: ThreadServer) -> None:
    sign_up(server, "Zoë")
    for same in ("ZOË", "zoë", "Zoe\u0308", "ＺＯË"):
        taken = browser(server).post("/api/accounts", json={"name": same, "password": PASSWORD})
        assert taken.status_code == 409 and taken.json()["error"] == "name_taken", same
    assert (
        browser(server)
        .post("/api/accounts", json={"name": "Zoe", "password": PASSWORD})
        .status_code
        == 201
    )


def test_sign_out_and_sign_out_everywhere(server: ThreadServer) -> None:
    first = sign_up(server, "Carla")
    second, third = browser(server), browser(server)
    for client in (second, third):
        assert client.post("/api/session", json={"name": "Carla", "password": PASSWORD}).is_success
    assert first.delete("/api/session").status_code == 204
    assert first.get("/api/me").status_code == 401
    assert second.get("/api/me").status_code == 200, "signing out ends this session only"
    assert second.delete("/api/sessions").status_code == 204
    assert second.get("/api/me").status_code == 401
    assert third.get("/api/me").status_code == 401, "everywhere: every session"


# ------------------------------------------------------------------------------ attacks
@pytest.mark.slow
def test_unknown_name_and_wrong_password_take_the_same_time(server: ThreadServer) -> None:
    """Median of 50 each, interleaved: both verify one argon2id hash. The server runs in this
    process, so its CPU time per request is measured as well as the time the caller waits;
    the CPU time is what the check holds to (the wall clock also carries the load of a shared
    machine), and both are printed."""
    sign_up(server, "Dora")
    client = browser(server)
    wall: dict[str, list[float]] = {"unknown": [], "wrong": []}
    cpu: dict[str, list[float]] = {"unknown": [], "wrong": []}
    bodies = set()
    order = ["unknown", "wrong"] * 50
    random.Random(7).shuffle(order)
    for i, kind in enumerate(order):
        name = f"nobody{i}" if kind == "unknown" else "Dora"
        started, used = time.perf_counter(), time.process_time()
        answer = client.post("/api/session", json={"name": name, "password": f"guess {i}!"})
        cpu[kind].append(time.process_time() - used)
        wall[kind].append(time.perf_counter() - started)
        assert answer.status_code == 401
        bodies.add(answer.content)
    assert len(bodies) == 1
    medians = {k: (statistics.median(wall[k]), statistics.median(cpu[k])) for k in wall}
    print(
        "\nsign-in, median of 50: "
        + ", ".join(
            f"{k} {w * 1000:.1f} ms waited, {c * 1000:.1f} ms CPU" for k, (w, c) in medians.items()
        )
    )
    ratio = medians["unknown"][1] / medians["wrong"][1]
    assert 0.8 < ratio < 1.25, medians
    assert 0.5 < medians["unknown"][0] / medians["wrong"][0] < 2, medians


def test_one_address_cannot_lock_the_owner_out_nor_guess_on(sqlite_url: str) -> None:
    """The lock-out attack of issue 34: wrong passwords for a name from one address used to
    fill the name's window and lock its owner out everywhere. Now they lock that address out
    of that name only; the name's slower global limit, filled from several addresses, stops new
    devices but never a browser that signed in before; and an unknown name answers exactly as
    a known one throughout."""
    srv = ThreadServer(
        server_settings(
            sqlite_url,
            limit_login="100/minute",
            limit_login_pair="4/hour",
            limit_login_account="10/hour",
            forwarded_allow_ips="127.0.0.1",
        )
    ).start()

    def at(address: str) -> httpx.Client:
        client = browser(srv)
        client.headers["X-Forwarded-For"] = address
        return client

    def tries(client: httpx.Client, name: str, n: int) -> list[tuple[int, str]]:
        said = []
        for i in range(n):
            answer = client.post("/api/session", json={"name": name, "password": f"guess {i}"})
            said.append((answer.status_code, re.sub(r"[0-9]+", "N", answer.text)))
        return said

    try:
        owner = at("198.51.100.1")
        assert owner.post("/api/accounts", json={"name": "Emil", "password": PASSWORD}).is_success
        assert owner.cookies.get("ludoteca_device"), "a browser that signed up is known"
        assert owner.delete("/api/session").status_code == 204  # and stays known
        attacker = at("203.0.113.66")
        against_emil = tries(attacker, "Emil", 6)
        assert [status for status, _ in against_emil] == [401] * 4 + [429] * 2
        right = attacker.post("/api/session", json={"name": "Emil", "password": PASSWORD})
        assert right.status_code == 429, "brute force from one address stays limited"
        assert "Retry-After" in right.headers
        assert tries(attacker, "Nobody", 6) == against_emil, "unknown name: the same answers"
        # the owner: the browser it signed in with, and a new one at another address
        again = owner.post("/api/session", json={"name": "Emil", "password": PASSWORD})
        assert again.status_code == 200, again.text
        phone = at("192.0.2.20")
        assert phone.post("/api/session", json={"name": "emil", "password": PASSWORD}).is_success
        # many addresses fill the name's global window (10: the new phone's sign-in was one):
        # new devices wait, known ones do not
        assert [s for s, _ in tries(at("203.0.113.67"), "Emil", 4)] == [401] * 4
        assert [s for s, _ in tries(at("203.0.113.68"), "Emil", 2)] == [401, 429]
        tablet = at("192.0.2.30")
        waited = tablet.post("/api/session", json={"name": "Emil", "password": PASSWORD})
        assert waited.status_code == 429 and "passkey" in waited.json()["message"]
        for known in (owner, phone):
            answer = known.post("/api/session", json={"name": "Emil", "password": PASSWORD})
            assert answer.status_code == 200, answer.text
    finally:
        srv.stop()


@pytest.mark.slow
def test_cross_site_requests_with_the_cookie_are_refused(server: ThreadServer) -> None:
    ana = sign_up(server, "Fabio")
    cookie = {"Cookie": f"ludoteca_session={ana.cookies['ludoteca_session']}"}
    body = {"game": "heroes"}
    before = httpx.get(f"{server.base}/api/tables?status=playing").headers["X-Total-Count"]
    for headers in (
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Referer": "https://evil.example/page"},
        {},  # neither: a cookie alone does not do
    ):
        refused = httpx.post(f"{server.base}/api/play-now", json=body, headers=cookie | headers)
        assert refused.status_code == 403, headers
        assert refused.json()["error"] == "bad_origin"
        gone = httpx.delete(f"{server.base}/api/me", headers=cookie | headers)
        assert gone.status_code == 403
    after = httpx.get(f"{server.base}/api/tables?status=playing").headers["X-Total-Count"]
    assert after == before, "nothing was made"
    assert ana.get("/api/me").status_code == 200, "nothing was deleted"
    own = httpx.post(
        f"{server.base}/api/play-now",
        json=body,
        headers=cookie | {"Referer": f"{server.base}/games/heroes"},
    )
    assert own.status_code == 201
    # another site cannot sign a visitor in either (login CSRF); without a cookie and without
    # an Origin (a script), the lobby works as before
    login = httpx.post(
        f"{server.base}/api/session",
        json={"name": "Fabio", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    assert login.status_code == 403
    for path in ("/api/accounts", "/api/passkeys/login", "/api/passkeys/options"):
        across = httpx.post(
            f"{server.base}{path}", json={}, headers={"Origin": "https://evil.example"}
        )
        assert across.status_code == 403 and across.json()["error"] == "bad_origin", path
    assert httpx.post(f"{server.base}/api/play-now", json=body).status_code == 201


def test_signing_in_gives_a_new_session_id(server: ThreadServer) -> None:
    """Session fixation: a cookie planted before sign-in is never the session after it."""
    sign_up(server, "Gil")
    victim = browser(server)
    planted = "attacker-chosen-value-0123456789"
    victim.cookies.set("ludoteca_session", planted, domain="127.0.0.1")
    signed = victim.post("/api/session", json={"name": "Gil", "password": PASSWORD})
    assert signed.status_code == 200
    fresh = victim.cookies["ludoteca_session"]
    assert fresh != planted and len(fresh) >= 40
    attacker = browser(server)
    attacker.cookies.set("ludoteca_session", planted, domain="127.0.0.1")
    assert attacker.get("/api/me").status_code == 401
    # and a session one had is replaced, not kept, when signing in again
    victim.post("/api/session", json={"name": "Gil", "password": PASSWORD})
    assert victim.cookies["ludoteca_session"] != fresh
    old = browser(server)
    old.cookies.set("ludoteca_session", fresh, domain="127.0.0.1")
    assert old.get("/api/me").status_code == 401


# ------------------------------------------------------------------- seats that follow
def test_a_guest_who_signs_up_keeps_the_seat_and_finds_it_on_another_device(
    server: ThreadServer,
) -> None:
    guest = browser(server)
    played = guest.post("/api/play-now", json={"game": "heroes", "name": "Hana"}).json()
    table, token = played["table"]["id"], played["token"]
    assert guest.post("/api/accounts", json={"name": "Hana", "password": PASSWORD}).is_success
    kept = guest.post(
        "/api/me/seats",
        json={"seats": [{"table": table, "token": token}, {"table": table, "token": "forged"}]},
    )
    assert kept.json() == {"kept": [{"table": table, "seat": 0}]}
    phone = browser(server)
    assert phone.post("/api/session", json={"name": "hana", "password": PASSWORD}).is_success
    mine = phone.get("/api/me/tables").json()
    assert [(t["table"], t["seat"], t["token"]) for t in mine] == [(table, 0, token)]
    assert mine[0]["status"] in {"starting", "playing"} and mine[0]["result"] is None
    # a signed-in person sits under the account's name, whatever name they type
    again = phone.post("/api/play-now", json={"game": "heroes", "name": "someone else"}).json()
    assert again["table"]["seats"][0]["name"] == "Hana"
    assert [t["table"] for t in phone.get("/api/me/tables").json()] == [
        again["table"]["id"],
        table,
    ]


def test_rated_tables_need_a_signed_in_person(server: ThreadServer) -> None:
    guest = browser(server)
    refused = guest.post("/api/play-now", json={"game": "heroes", "rated": True})
    assert refused.status_code == 401 and refused.json()["error"] == "not_signed_in"
    ivo = sign_up(server, "Ivo")
    made = ivo.post(
        "/api/tables", json={"game": "heroes", "seats": [{"bot": False}] * 2, "rated": True}
    )
    assert made.status_code == 201 and made.json()["table"]["rated"] is True
    assert made.json()["seat"] == 0, "the signed-in creator of a rated table sits"
    table = made.json()["table"]["id"]
    joined = guest.post(f"/api/tables/{table}/join", json={"name": "guest"})
    assert joined.status_code == 401
    assert sign_up(server, "Joana").post(f"/api/tables/{table}/join", json={}).status_code == 200


# --------------------------------------------------------------------- a rated match
async def play_to_the_end(ws_base: str, table: str, token: str) -> dict[str, Any]:
    client = await Client.connect(ws_base, table, token)
    pick = random.Random(3)
    try:
        while True:
            state = client.state
            if state and state["table"]["status"] == "over":
                return state
            if state and state["legal"]:
                await client.act(pick.choice(state["legal"]), state["version"])
            else:
                await client.recv(timeout=30)
    finally:
        await client.close()


@pytest.mark.slow
def test_a_rated_match_against_bots_moves_the_rating_and_enters_the_history(
    server: ThreadServer,
) -> None:
    kim = sign_up(server, "Kim")
    made = kim.post(
        "/api/play-now",
        json={"game": "heroes", "level": "random", "rated": True, "turn_seconds": 60},
    ).json()
    table, token = made["table"]["id"], made["token"]
    waiting = kim.get(f"/api/tables/{table}/rating").json()
    assert waiting == {"table": table, "rated": True, "state": "waiting", "changes": []}
    final = asyncio.run(play_to_the_end(server.ws_base, table, token))
    outcome = final["table"]["outcome"]
    won = outcome["winners"] == [0]
    result = "draw" if outcome["draw"] else "won" if won else "lost"
    deadline = time.monotonic() + seconds(20)
    while (ended := kim.get(f"/api/tables/{table}/rating").json())["state"] == "waiting":
        assert time.monotonic() < deadline, "the match was never rated"
        time.sleep(0.1)
    profile = kim.get("/api/players/kim").json()
    rating = profile["ratings"]["heroes"]
    assert rating["matches"] == 1 and rating["provisional"] is True
    # the shown rating: 1500 + about 29.5 points per unit of mu, a whole number
    assert rating["rating"] == round(1500 + 29.4809 * (rating["mu"] - 25))
    assert rating["conservative"] == pytest.approx(rating["mu"] - 3 * rating["sigma"], abs=0.1)
    assert (rating["mu"] > 25) == won, "a win against the random anchor raises mu"
    assert (rating["rating"] > 1500) == won
    [moved] = ended["changes"]
    assert ended["state"] == "rated"
    assert moved == {
        "seat": 0,
        "name": "Kim",
        "before": 1500,
        "after": rating["rating"],
        "change": rating["rating"] - 1500,
        "provisional": True,
    }
    assert rating["sigma"] < 25 / 3
    assert [h["table"] for h in rating["history"]] == [table]
    [match] = profile["matches"]
    assert match["table"] == table and match["rated"] is True
    assert match["result"] == result
    assert match["change"] == rating["rating"] - 1500
    assert [p["bot"] for p in match["players"]] == [False, True]
    board = kim.get("/api/leaderboard/heroes").json()
    assert [p["name"] for p in board["players"]] == ["Kim"]
    exported = kim.get("/api/me/export").json()
    assert [c["table_id"] for c in exported["rating_changes"]] == [table]
    anchors = get("heroes").anchors()
    assert anchors["random"] < anchors["hard"]
    # rated once, however often the rater looks again
    time.sleep(0.3)
    assert kim.get("/api/players/kim").json()["ratings"]["heroes"]["matches"] == 1


@pytest.mark.slow
def test_a_rated_match_the_table_played_for_the_person_still_counts(server: ThreadServer) -> None:
    """Timeouts count like moves: a person who leaves (the table plays every turn for them,
    as when their clock runs out) is rated on the result all the same."""
    leo = sign_up(server, "Leo")
    made = leo.post(
        "/api/play-now",
        json={"game": "heroes", "level": "random", "rated": True, "turn_seconds": 5},
    ).json()
    table, token = made["table"]["id"], made["token"]
    left = leo.post(f"/api/tables/{table}/leave", headers={"Authorization": f"Bearer {token}"})
    assert left.status_code == 200
    deadline = time.monotonic() + seconds(120)
    while not (profile := leo.get("/api/players/leo").json())["ratings"]:
        assert time.monotonic() < deadline, "the match was never rated"
        time.sleep(0.2)
    record = leo.get(f"/api/tables/{table}/record").json()
    assert {a["by"] for a in record["actions"] if a["seat"] == 0} == {"table"}
    assert profile["ratings"]["heroes"]["matches"] == 1
    assert [m["table"] for m in profile["matches"]] == [table]


# ------------------------------------------------------------------------ integrity
def test_an_account_takes_one_seat_of_a_table(server: ThreadServer) -> None:
    ivo = sign_up(server, "Ivo")
    made = ivo.post(
        "/api/tables", json={"game": "dwarves", "seats": [{"bot": False}] * 3, "rated": True}
    ).json()
    table = made["table"]["id"]
    for body in ({}, {"seat": 2}):
        again = ivo.post(f"/api/tables/{table}/join", json=body)
        assert again.status_code == 422, again.text
        assert again.json() == {
            "error": "already_seated",
            "message": "you already sit at seat 1 of this table: an account holds one seat at "
            "a table",
        }
    seats = ivo.get(f"/api/tables/{table}").json()["table"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "open", "open"], "nothing changed"
    # a guest at two seats who signs up keeps one of them
    guest = browser(server)
    casual = guest.post(
        "/api/tables", json={"game": "dwarves", "name": "Gil", "seats": [{"bot": False}] * 3}
    ).json()
    other = guest.post(f"/api/tables/{casual['table']['id']}/join", json={"name": "Gil"}).json()
    assert guest.post("/api/accounts", json={"name": "Gil", "password": PASSWORD}).is_success
    held = [{"table": casual["table"]["id"], "token": t} for t in (casual["token"], other["token"])]
    kept = guest.post("/api/me/seats", json={"seats": held})
    assert kept.json() == {"kept": [{"table": casual["table"]["id"], "seat": 0}]}


def test_two_joins_at_once_by_one_account_leave_it_one_seat(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the check before joining misses the account's seat (another join of the same
    account is under way, here at another device), the database's key refuses the second link
    and the seat just taken is given back."""

    async def sees_nothing(*_: Any) -> None:
        return None

    lia = sign_up(server, "Lia")
    made = lia.post(
        "/api/tables", json={"game": "dwarves", "seats": [{"bot": False}] * 3, "rated": True}
    ).json()
    table = made["table"]["id"]
    monkeypatch.setattr(Accounts, "seat_at", sees_nothing)
    again = lia.post(f"/api/tables/{table}/join", json={})
    assert again.status_code == 422 and again.json()["error"] == "already_seated"
    seats = lia.get(f"/api/tables/{table}").json()["table"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "open", "open"], "the seat was given back"
    assert [t["seat"] for t in lia.get("/api/me/tables").json()] == [0]


def test_a_seat_left_before_the_start_is_no_longer_the_accounts(server: ThreadServer) -> None:
    host = browser(server)
    made = host.post(
        "/api/tables", json={"game": "dwarves", "name": "Host", "seats": [{"bot": False}] * 3}
    ).json()
    table = made["table"]["id"]
    joana = sign_up(server, "Joana")
    joined = joana.post(f"/api/tables/{table}/join", json={}).json()
    assert [t["table"] for t in joana.get("/api/me/tables").json()] == [table]
    auth = {"Authorization": f"Bearer {joined['token']}"}
    assert joana.post(f"/api/tables/{table}/leave", headers=auth).status_code == 200
    assert joana.get("/api/me/tables").json() == []
    back = joana.post(f"/api/tables/{table}/join", json={})  # having left, she may sit again
    assert back.status_code == 200
    auth = {"Authorization": f"Bearer {back.json()['token']}"}
    assert joana.post(f"/api/tables/{table}/leave", headers=auth).status_code == 200
    guest = browser(server).post(f"/api/tables/{table}/join", json={"name": "guest"})
    assert guest.json()["seat"] == joined["seat"], "a guest sits where Joana sat"
    assert joana.get("/api/me/tables").json() == []
    assert host.post(
        f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {made['token']}"}
    ).is_success
    assert joana.get("/api/players/joana").json()["matches"] == []


def test_one_browser_is_remembered_for_every_account_signed_in_on_it(
    server: ThreadServer,
) -> None:
    one = browser(server)
    made = one.post("/api/accounts", json={"name": "Dina", "password": PASSWORD})
    [set_device] = [c for c in made.headers.get_list("set-cookie") if "ludoteca_device=" in c]
    attributes = {a.strip().lower() for a in set_device.split(";")[1:]}
    # read by sign-up, sign-in and the passkeys' routes, all under /api; a year; Strict
    assert {"path=/api", "samesite=strict", "httponly", "max-age=31536000"} <= attributes
    device = one.cookies["ludoteca_device"]
    assert one.delete("/api/session").status_code == 204, "signing out keeps the device cookie"
    assert one.post("/api/accounts", json={"name": "Dina2", "password": PASSWORD}).is_success
    assert one.cookies["ludoteca_device"] == device, "the same browser keeps its device cookie"
    assert sign_up(server, "Elsa").cookies["ludoteca_device"] != device
    second = one.get("/api/me/export").json()["account_devices"]
    phone = browser(server)
    assert phone.post("/api/session", json={"name": "dina", "password": PASSWORD}).is_success
    first = phone.get("/api/me/export").json()["account_devices"]
    digests = [{d["device"] for d in found} for found in (second, first)]
    assert len(digests[0]) == 1 and digests[0] < digests[1] and len(digests[1]) == 2
    assert device not in str([first, second]), "the cookie itself is not kept, only its digest"


def test_a_deleted_name_cannot_be_taken_at_once(server: ThreadServer) -> None:
    kai = sign_up(server, "Kai")
    assert kai.delete("/api/me").status_code == 204
    again = browser(server).post("/api/accounts", json={"name": "kai", "password": PASSWORD})
    assert again.status_code == 409 and again.json()["error"] == "name_taken"
    assert "free again on" in again.json()["message"]


def test_healthz_counts_the_ratings_that_failed(sqlite_url: str) -> None:
    srv = ThreadServer(loose(sqlite_url)).start()
    try:
        assert httpx.get(f"{srv.base}/healthz").json()["ratings_failed"] == 0
        engine = create_engine(sqlite_url)
        with engine.begin() as conn:
            conn.execute(
                insert(rated_tables).values(
                    table_id="broken",
                    game="heroes",
                    created_at=1.0,
                    failed_at=2.0,
                    not_rated="IntegrityError: ...",
                )
            )
        engine.dispose()
        assert httpx.get(f"{srv.base}/healthz").json()["ratings_failed"] == 1
    finally:
        srv.stop()
