"""A rated match's rematch on a live server: it is rated too, and each signed-in person's account
holds their new seat (``GET /api/me/tables`` hands its token to their other devices), with the
token their own answer gave them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from kit.client import Client, stand_to_the_end
from kit.env import seconds
from kit.servers import ThreadServer, server_settings
from ludoteca.games import register, unregister
from toygame import GAME

PASSWORD = "correct horse battery"


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ThreadServer]:
    register(GAME)
    srv = ThreadServer(server_settings(sqlite_url, limit_signup="1000/minute")).start()
    try:
        yield srv
    finally:
        srv.stop()
        unregister(GAME.spec.id)


def person(srv: ThreadServer, name: str) -> httpx.Client:
    """A signed-in browser: it keeps its cookies and sends the site's Origin."""
    client = httpx.Client(base_url=srv.base, timeout=seconds(30), headers={"Origin": srv.base})
    made = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return client


@pytest.mark.slow
def test_a_rated_rematch_is_rated_its_chat_as_the_host_chose_and_the_accounts_hold_the_seats(
    server: ThreadServer,
) -> None:
    ana, bruno = person(server, "Ana"), person(server, "Bruno")
    try:
        body = {"game": GAME.spec.id, "seats": [{"bot": False}] * 2, "rated": True, "chat": "text"}
        created = ana.post("/api/tables", json=body).json()
        table, ana_token = created["table"]["id"], created["token"]
        guest = httpx.post(f"{server.base}/api/tables/{table}/join", json={"name": "Eve"})
        assert guest.status_code == 401, "a rated table takes signed-in people only"
        bruno_token = bruno.post(f"/api/tables/{table}/join", json={}).json()["token"]

        async def match() -> None:
            clients = [
                await Client.connect(server.ws_base, table, token)
                for token in (ana_token, bruno_token)
            ]
            try:
                for c in clients:
                    await c.until(lambda m: m["type"] == "state" and m["view"] is not None)
                await stand_to_the_end(clients)
            finally:
                for c in clients:
                    await c.close()

        asyncio.run(match())
        auth = {"Authorization": f"Bearer {ana_token}"}
        offered = ana.post(f"/api/tables/{table}/rematch", headers=auth).json()
        assert offered["rematch"]["rated"] is True
        auth = {"Authorization": f"Bearer {bruno_token}"}
        accepted = bruno.post(f"/api/tables/{table}/rematch", headers=auth).json()
        assert accepted["rematch"]["state"] == "accepted"
        new = accepted["table"]
        rating = httpx.get(f"{server.base}/api/tables/{new}/rating").json()
        assert rating["rated"] is True
        for who, answer, seat in ((ana, offered, 1), (bruno, accepted, 0)):
            mine = [t for t in who.get("/api/me/tables").json() if t["table"] == new]
            assert [(t["seat"], t["token"], t["rated"]) for t in mine] == [
                (seat, answer["token"], True)
            ]
        auth = {"Authorization": f"Bearer {accepted['token']}"}
        chat = httpx.get(f"{server.base}/api/tables/{new}/chat", headers=auth).json()
        assert chat["text"] is True, "the rematch's chat allows free text as the host's did"
    finally:
        ana.close()
        bruno.close()
