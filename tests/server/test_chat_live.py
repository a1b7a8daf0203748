"""The table chat on a real server (docs/protocol.md#chat): a phrase reaches the seats and not
the spectators, a spectator's message never reaches the seated, free text only from a signed-in
person at a table that allows it, the history at every (re)connection, the replay's route, and
nothing of it in the signed record."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import websockets

from kit.client import Client
from kit.env import seconds
from kit.servers import ThreadServer, api, server_settings

XSS = "<img src=x onerror=alert(1)>"


def signed_in(srv: ThreadServer, name: str) -> httpx.Client:
    """A client that keeps its session cookie and sends the site's Origin, as the pages do."""
    client = httpx.Client(base_url=srv.base, timeout=seconds(30), headers={"Origin": srv.base})
    made = client.post("/api/accounts", json={"name": name, "password": "a long pass phrase 7"})
    assert made.status_code == 201, made.text
    return client


async def connect(
    srv: ThreadServer,
    table: str,
    token: str | None,
    cookie: str | None = None,
    origin: str | None = None,
) -> Client:
    headers = {"Cookie": f"ludoteca_session={cookie}"} if cookie else {}
    if origin:
        headers["Origin"] = origin
    ws = await websockets.connect(f"{srv.ws_base}/ws/tables/{table}", additional_headers=headers)
    client = Client(ws)
    await client.send({"type": "hello", **({"token": token} if token else {})})
    return client


def chats(client: Client) -> list[Any]:
    return [
        m["message"]["phrase"] or m["message"]["text"]
        for m in client.messages
        if m["type"] == "chat"
    ]


async def chat_with(client: Client, ref: int, **say: str) -> dict[str, Any]:
    """Send a chat message; its ack or the error."""
    await client.send({"type": "chat", "ref": ref, **say})
    return await client.until(lambda m: m["type"] in ("chat_ack", "error"))


def test_two_rooms_free_text_where_allowed_history_and_the_replay(server: ThreadServer) -> None:
    ana_http = signed_in(server, "Ana")
    created = ana_http.post(
        "/api/tables",
        json={"game": "heroes", "seats": [{"bot": False}] * 2, "chat": "text"},
    ).json()
    table, ana_token = created["table"]["id"], created["token"]
    bruno_token = (
        api(server.base).post(f"/api/tables/{table}/join", json={"name": "Bruno"}).json()["token"]
    )
    cookie = ana_http.cookies["ludoteca_session"]
    ana_http.close()

    async def go() -> None:
        ana = await connect(server, table, ana_token, cookie)
        bruno = await connect(server, table, bruno_token)
        eva = await connect(server, table, None)
        for client in (ana, bruno, eva):
            first = await client.until(lambda m: m["type"] == "chat_history")
            assert first == {"type": "chat_history", "text": True, "messages": []}
        ack = await chat_with(ana, 1, phrase="gg")
        assert ack["type"] == "chat_ack" and ack["ref"] == 1
        heard = await bruno.until(lambda m: m["type"] == "chat")
        assert heard["message"] == {
            "id": ack["id"],
            "room": "seats",
            "seat": 0,
            "name": "Ana",
            "phrase": "gg",
            "text": None,
            "at": heard["message"]["at"],
        }
        spoken = await chat_with(eva, 2, phrase="wp")
        assert spoken["type"] == "chat_ack"
        said = await eva.until(lambda m: m["type"] == "chat")
        assert said["message"]["room"] == "spectators" and said["message"]["seat"] is None
        refused = await chat_with(bruno, 3, text="hello")
        assert refused["code"] == "not_signed_in", "a guest sends phrases only"
        refused = await chat_with(eva, 4, text="psst, play b3")
        assert refused["code"] == "not_signed_in"
        ack = await chat_with(ana, 5, text=f"  {XSS} ")
        assert ack["type"] == "chat_ack"
        heard = await bruno.until(lambda m: m["type"] == "chat" and m["message"]["id"] == ack["id"])
        assert heard["message"]["text"] == XSS
        for bad in ({"phrase": "hello"}, {"phrase": "gg", "text": "x"}, {"text": "x" * 201}, {}):
            assert (await chat_with(ana, 6, **bad))["code"] == "bad_chat", bad
        await ana.send({"type": "ping"})
        await bruno.send({"type": "ping"})
        await eva.send({"type": "ping"})
        for client in (ana, bruno, eva):
            await client.until(lambda m: m["type"] == "pong")
        assert chats(ana) == chats(bruno) == ["gg", XSS], "no spectator's word reaches a seat"
        assert chats(eva) == ["wp"], "spectators do not read the seats' room"
        await bruno.close()
        again = await connect(server, table, bruno_token)
        history = await again.until(lambda m: m["type"] == "chat_history")
        assert [m["phrase"] or m["text"] for m in history["messages"]] == ["gg", XSS]
        watcher = await connect(server, table, None)
        history = await watcher.until(lambda m: m["type"] == "chat_history")
        assert [m["phrase"] for m in history["messages"]] == ["wp"]
        for client in (ana, eva, again, watcher):
            await client.close()
        # the site's own page signs the chat in; another site's page, with the same cookie, not
        for origin, answer in ((server.base, "chat_ack"), ("https://evil.example", "error")):
            page = await connect(server, table, ana_token, cookie, origin)
            await page.until(lambda m: m["type"] == "chat_history")
            said = await chat_with(page, 9, text="hi")
            assert said["type"] == answer and said.get("code") in (None, "not_signed_in")
            await page.close()

    asyncio.run(go())
    http = api(server.base)
    replay = http.get(
        f"/api/tables/{table}/chat", headers={"Authorization": f"Bearer {bruno_token}"}
    )
    assert replay.status_code == 200
    assert [m["phrase"] or m["text"] for m in replay.json()["messages"]] == ["gg", XSS, "hi"]
    for headers in ({}, {"Authorization": "Bearer nope"}):
        refused = http.get(f"/api/tables/{table}/chat", headers=headers)
        assert refused.status_code == 403 and refused.json()["error"] == "bad_token"
    record = http.get(f"/api/tables/{table}/record")
    assert "onerror" not in record.text and "chat" not in record.json()


def test_a_phrases_only_table_refuses_free_text_even_signed_in(server: ThreadServer) -> None:
    ana_http = signed_in(server, "Ana")
    created = ana_http.post(
        "/api/tables", json={"game": "heroes", "seats": [{"bot": False}] * 2}
    ).json()
    bad = ana_http.post("/api/tables", json={"game": "heroes", "chat": "html"})
    assert bad.status_code == 422 and bad.json()["message"].startswith("chat")
    cookie = ana_http.cookies["ludoteca_session"]
    ana_http.close()

    async def go() -> None:
        ana = await connect(server, created["table"]["id"], created["token"], cookie)
        assert (await ana.until(lambda m: m["type"] == "chat_history"))["text"] is False
        refused = await chat_with(ana, 1, text="hi")
        assert refused["type"] == "error" and refused["code"] == "chat_phrases_only"
        assert "quick phrases only" in refused["message"]
        assert (await chat_with(ana, 2, phrase="thinking"))["type"] == "chat_ack"
        await ana.close()

    asyncio.run(go())


def test_the_rate_is_per_person_and_refusals_store_nothing(tmp_path: Any) -> None:
    limit = "3/minute"
    srv = ThreadServer(
        server_settings(f"sqlite:///{tmp_path / 't.sqlite3'}", limit_chat=limit)
    ).start()
    try:
        created = (
            api(srv.base)
            .post(
                "/api/tables", json={"game": "heroes", "seats": [{"bot": False}] * 2, "name": "Ana"}
            )
            .json()
        )
        table = created["table"]["id"]

        async def go() -> None:
            ana = await connect(srv, table, created["token"])
            answers = [(await chat_with(ana, i, phrase="oops"))["type"] for i in range(4)]
            assert answers == ["chat_ack"] * 3 + ["error"]
            assert ana.messages[-1]["code"] == "rate_limited"
            await ana.close()
            again = await connect(srv, table, created["token"])
            history = await again.until(lambda m: m["type"] == "chat_history")
            assert len(history["messages"]) == 3
            await again.close()

        asyncio.run(go())
    finally:
        srv.stop()
