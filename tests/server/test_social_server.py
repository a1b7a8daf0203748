"""Friends, blocking and the operator's desk against a real server: a blocked person cannot sit
at the blocker's table; every /api/admin route answers 403 to all but operators, and refuses a
cross-site request; a suspension ends the account's sessions at once and refuses its sign-in;
the personal feed (/ws/me) makes a person online and brings an invitation; ``ludoteca admin``
grants an operator and reads the audit log."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi.routing import APIRoute

from kit.env import seconds
from kit.servers import ThreadServer, server_settings
from kit.wait import eventually
from ludoteca.cli import main
from ludoteca.server.api import admin

PASSWORD = "correct horse battery"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    url = f"sqlite:///{tmp_path / 'social.sqlite3'}"
    srv = ThreadServer(server_settings(url, limit_signup="1000/minute")).start()
    yield srv
    srv.stop()


_opened: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while _opened:
        _opened.pop().close()


def client(srv: ThreadServer, **options: Any) -> httpx.Client:
    made = httpx.Client(base_url=srv.base, timeout=seconds(30), **options)
    _opened.append(made)
    return made


def sign_up(srv: ThreadServer, name: str) -> httpx.Client:
    person = client(srv, headers={"Origin": srv.base})
    made = person.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return person


def grant(srv: ThreadServer, name: str) -> None:
    db = srv.settings.db_url
    assert main(["admin", "grant", name, "--db", db]) == 0


def test_a_blocked_person_cannot_sit_at_the_blockers_table(server: ThreadServer) -> None:
    ana, bia, cai = sign_up(server, "Ana"), sign_up(server, "Bia"), sign_up(server, "Cai")
    assert ana.post("/api/blocks", json={"name": "Bia"}).status_code == 204
    made = ana.post("/api/tables", json={"game": "dwarves", "seats": [{"bot": False}] * 3})
    table = made.json()["table"]["id"]
    joined = bia.post(f"/api/tables/{table}/join", json={})
    assert joined.status_code == 403 and joined.json()["error"] == "blocked"
    summary = ana.get(f"/api/tables/{table}").json()["table"]
    assert [s["kind"] for s in summary["seats"]].count("human") == 1  # nothing changed
    assert cai.post(f"/api/tables/{table}/join", json={}).status_code == 200
    refused = bia.post("/api/friends", json={"name": "Ana"})
    assert refused.status_code == 403 and refused.json()["error"] == "blocked"
    invited = bia.post("/api/invites", json={"name": "Ana", "table": table})
    assert invited.status_code == 403 and invited.json()["error"] == "blocked"
    assert ana.get("/api/friends").json()["blocked"] == ["Bia"]
    reported = ana.post("/api/reports", json={"kind": "table", "table": table, "reason": "other"})
    assert reported.status_code == 201
    exported = ana.get("/api/me/export").json()["friends"]
    assert exported["blocked"] == ["Bia"] and exported["following"] == []
    assert [r["reason"] for r in exported["reports_made"]] == ["other"]


def test_people_who_blocked_each_other_are_never_paired(server: ThreadServer) -> None:
    ana, bia, caio = (sign_up(server, name) for name in ("Ana", "Bia", "Caio"))
    assert bia.post("/api/blocks", json={"name": "Ana"}).status_code == 204
    body = {"game": "heroes", "players": 2}
    a, b = (who.post("/api/pairing", json=body).json()["id"] for who in (ana, bia))
    assert ana.get(f"/api/pairing/{a}").json()["state"] == "waiting"
    assert bia.get(f"/api/pairing/{b}").json()["state"] == "waiting"
    c = caio.post("/api/pairing", json=body).json()["id"]  # the next one sits with Ana, first

    def seated() -> dict[str, Any] | None:
        found: dict[str, Any] = caio.get(f"/api/pairing/{c}").json()
        return found if found["state"] == "seated" else None

    at_c = eventually(seated, 10, what="Caio seated")
    at_a = ana.get(f"/api/pairing/{a}").json()
    assert at_a["state"] == "seated" and at_a["table"] == at_c["table"]
    assert bia.get(f"/api/pairing/{b}").json()["state"] == "waiting"


def test_every_admin_route_refuses_all_but_operators(server: ThreadServer) -> None:
    routes = [
        (
            method,
            route.path.replace("{report_id}", "1")
            .replace("{table_id}", "t")
            .replace("{name}", "Ana"),
        )
        for route in admin.router.routes
        if isinstance(route, APIRoute)
        for method in route.methods
    ]
    assert len(routes) >= 8
    guest = client(server)
    person = sign_up(server, "Ana")
    olga = sign_up(server, "Olga")
    grant(server, "Olga")
    body = {"why": "because", "name": "Ana", "kind": "mute", "table": "t", "message": "m"}
    for method, path in routes:
        for who in (guest, person):
            answer = who.request(method, path, json=body if method == "POST" else None)
            assert answer.status_code == 403, (method, path, answer.text)
            assert answer.json()["error"] == "not_operator"
        answer = olga.request(method, path, json=body if method == "POST" else None)
        assert answer.status_code != 403, (method, path, answer.text)
    # a cookie request from another site is refused before the desk looks at it
    olga.headers["Origin"] = "https://evil.example"
    forged = olga.post("/api/admin/sanctions", json=body | {"kind": "suspend"})
    assert forged.status_code == 403 and forged.json()["error"] == "bad_origin"


def test_a_suspension_ends_every_session_at_once_and_refuses_sign_in(server: ThreadServer) -> None:
    bia, bia_phone = sign_up(server, "Bia"), client(server)
    signed = bia_phone.post("/api/session", json={"name": "Bia", "password": PASSWORD})
    assert signed.status_code == 200
    olga = sign_up(server, "Olga")
    grant(server, "Olga")
    why = {"name": "Bia", "kind": "suspend", "seconds": 86400, "why": "threats"}
    assert olga.post("/api/admin/sanctions", json=why).status_code == 204
    assert bia.get("/api/me").status_code == 401
    assert bia_phone.get("/api/me").status_code == 401
    again = bia.post("/api/session", json={"name": "Bia", "password": PASSWORD})
    assert again.status_code == 403 and again.json()["error"] == "suspended"
    assert "suspended until" in again.json()["message"]
    wrong = bia.post("/api/session", json={"name": "Bia", "password": "not the password"})
    assert wrong.status_code == 401  # a suspension is told only to who knows the password
    audit = olga.get("/api/admin/audit").json()["audit"]
    assert audit[0] | {"at": 0} == {
        "operator": "Olga",
        "action": "suspend",
        "target": "Bia for 86400 s",
        "reason": "threats",
        "at": 0,
    }
    lift = {"name": "Bia", "kind": "suspend", "why": "appeal"}
    assert olga.post("/api/admin/sanctions/lift", json=lift).status_code == 204
    assert bia.post("/api/session", json={"name": "Bia", "password": PASSWORD}).status_code == 200


def test_the_feed_makes_a_friend_online_and_brings_an_invitation(server: ThreadServer) -> None:
    ana, bia = sign_up(server, "Ana"), sign_up(server, "Bia")
    assert ana.post("/api/friends", json={"name": "Bia"}).status_code == 204
    assert ana.get("/api/friends").json()["following"] == [
        {"name": "Bia", "online": False, "tables": []}
    ]
    table = ana.post("/api/tables", json={"game": "dwarves", "seats": [{"bot": False}] * 3}).json()[
        "table"
    ]["id"]
    cookie = f"ludoteca_session={bia.cookies['ludoteca_session']}"

    async def feed() -> None:
        async with websockets.connect(
            f"{server.ws_base}/ws/me", additional_headers={"Cookie": cookie}
        ) as ws:
            assert json.loads(await ws.recv()) == {"type": "welcome", "name": "Bia"}
            eventually(
                lambda: ana.get("/api/friends").json()["following"][0]["online"],
                seconds(5),
                what="Bia online",
            )
            await asyncio.sleep(1.5)  # the feed's cursor is set on its first round
            sent = ana.post("/api/invites", json={"name": "Bia", "table": table})
            assert sent.status_code == 204, sent.text
            notice = json.loads(await asyncio.wait_for(ws.recv(), seconds(10)))
            assert notice == {"type": "invite", "from": "Ana", "table": table}
            with pytest.raises(TimeoutError):  # told once, though the feed's round looks too
                await asyncio.wait_for(ws.recv(), 1.5)

    asyncio.run(feed())
    assert bia.put("/api/me/privacy", json={"hide_online": True}).status_code == 204

    async def hidden() -> None:
        async with websockets.connect(
            f"{server.ws_base}/ws/me", additional_headers={"Cookie": cookie}
        ) as ws:
            await ws.recv()
            await asyncio.sleep(0.2)
            assert ana.get("/api/friends").json()["following"][0]["online"] is False

    asyncio.run(hidden())

    async def guest() -> None:
        async with websockets.connect(f"{server.ws_base}/ws/me") as ws:
            assert json.loads(await ws.recv()) == {"type": "signed_out"}

    asyncio.run(guest())

    async def other_site() -> None:  # the cookie counts only from the site's own pages
        async with websockets.connect(
            f"{server.ws_base}/ws/me",
            additional_headers={"Cookie": cookie},
            origin="https://evil.example",  # type: ignore[arg-type]
        ) as ws:
            assert json.loads(await ws.recv()) == {"type": "signed_out"}

    asyncio.run(other_site())


def test_the_command_grants_operators_and_shows_the_audit_log(
    server: ThreadServer, capsys: pytest.CaptureFixture[str]
) -> None:
    db = server.settings.db_url
    sign_up(server, "Olga")
    assert main(["admin", "grant", "Nobody", "--db", db]) == 1
    assert "there is no player 'Nobody'" in capsys.readouterr().err
    assert main(["admin", "grant", "olga", "--db", db, "--why", "new on the team"]) == 0
    assert capsys.readouterr().out == "olga: now an operator\n"
    with pytest.raises(SystemExit) as usage:  # --why is required
        main(["admin", "suspend", "Olga", "--db", db])
    assert usage.value.code == 2 and "--why" in capsys.readouterr().err
    assert main(["admin", "mute", "Olga", "--for", "2d", "--why", "test", "--db", db]) == 0
    assert main(["admin", "audit", "--db", db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].endswith("mute Olga for 172800 s: test")
    assert lines[-1].endswith("grant Olga: new on the team") and " cli:" in lines[-1]
    assert main(["admin", "reports", "--db", db]) == 0
    assert capsys.readouterr().out == "0 open report(s)\n"


def test_a_chat_message_is_reported_by_its_table_and_id_and_its_author_is_the_chats(
    server: ThreadServer,
) -> None:
    ana, bia = sign_up(server, "Ana"), sign_up(server, "Bia")
    created = ana.post("/api/tables", json={"game": "heroes", "seats": [{"bot": False}] * 2})
    table, ana_token = created.json()["table"]["id"], created.json()["token"]
    bia_token = bia.post(f"/api/tables/{table}/join", json={}).json()["token"]

    async def say(token: str, cookie: str) -> int:
        headers = {"Cookie": f"ludoteca_session={cookie}", "Origin": server.base}
        async with websockets.connect(
            f"{server.ws_base}/ws/tables/{table}", additional_headers=headers
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            await ws.send(json.dumps({"type": "chat", "ref": 1, "phrase": "oops"}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), seconds(20)))
                if message["type"] == "chat_ack":
                    return int(message["id"])

    said = asyncio.run(say(bia_token, bia.cookies["ludoteca_session"]))
    own = asyncio.run(say(ana_token, ana.cookies["ludoteca_session"]))
    body = {"kind": "message", "table": table, "reason": "abuse", "name": "Ana"}
    made = ana.post("/api/reports", json=body | {"message": str(said)})
    assert made.status_code == 201, made.text
    mine = ana.post("/api/reports", json=body | {"message": str(own)})
    assert mine.status_code == 422 and mine.json()["error"] == "not_yourself"
    for wrong in ({"message": str(said), "table": "nope"}, {"message": "x"}):
        answer = ana.post("/api/reports", json=body | wrong)
        assert answer.status_code == 404 and answer.json()["error"] in ("no_message", "no_table")
    olga = sign_up(server, "Olga")
    grant(server, "Olga")
    (found,) = olga.get("/api/admin/reports").json()["reports"]
    # the author is the chat's (Bia), not the name the reporter typed; the desk shows the context
    assert found["account"] == "Bia" and found["message"] == str(said)
    assert [(m["author"], m["text"]) for m in found["context"]] == [
        ("Bia", "[oops]"),
        ("Ana", "[oops]"),
    ]
    hide = {"table": table, "message": str(said), "why": "rude"}
    assert olga.post("/api/admin/messages/hide", json=hide).status_code == 204
    (again,) = olga.get("/api/admin/reports").json()["reports"]
    assert [m["hidden"] for m in again["context"]] == [True, False]
