"""Fuzzing the server: schemathesis against every lobby endpoint of the OpenAPI schema, and a
hypothesis-driven websocket fuzzer sending random and mutated protocol messages to seats and
spectators. The server stays up, every answer is a documented error or close code, no refused
message changes a table, and every finished match verifies.

The suite runs a small share; the big run is a knob:

    LUDOTECA_FUZZ_WS_MESSAGES=100000 LUDOTECA_FUZZ_API_CASES=100 \\
        .venv/bin/python -m pytest tests/server/test_server_fuzz.py -q -s
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import schemathesis
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error

from kit.client import Client
from kit.env import seconds
from kit.servers import ThreadServer, api, server_settings
from kit.wait import eventually
from ludoteca.core import verify
from ludoteca.games import get
from ludoteca.server.accounts.rules import name_key
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.messages import CloseCode, ErrorCode

pytestmark = pytest.mark.slow  # thousands of fuzzed messages and requests

WS_MESSAGES = int(os.environ.get("LUDOTECA_FUZZ_WS_MESSAGES", "2000"))
API_CASES = int(os.environ.get("LUDOTECA_FUZZ_API_CASES", "20"))  # per endpoint
BATCH = 20
SENTINEL = json.dumps({"type": "fuzz-sentinel"})
CODES = {str(c) for c in ErrorCode}
CLOSES = {int(c) for c in CloseCode}


def loose_settings(db_url: str) -> Any:
    return server_settings(
        db_url,
        rate_per_second=1e6,
        rate_burst=1_000_000,
        limit_create="100000/minute",
        limit_join="100000/minute",
        limit_start="100000/minute",
        limit_websocket="100000/minute",
        limit_login="100000/minute",
        limit_login_pair="100000/minute",
        limit_login_account="100000/minute",
        limit_signup="100000/minute",
        max_open_tables_per_client=100_000,
        default_turn_seconds=3600,
        contribution_seconds=0.0,
    )


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    path: Path = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3"
    srv = ThreadServer(loose_settings(f"sqlite:///{path}")).start()
    yield srv
    srv.stop()


# ------------------------------------------------------------------------------ HTTP (schemathesis)
@dataclass
class SignedIn:
    """A session for the second pass, as the site's own pages send it (cookie and Origin); a
    fuzzed case that signs out or deletes the account gets a new one for the next case."""

    base: str
    cookie: str = ""
    made: int = 0
    operator: ThreadServer | None = None  # made an operator of this server's desk

    def headers(self) -> dict[str, str]:
        http = api(self.base)
        cookie = {"Cookie": f"ludoteca_session={self.cookie}", "Origin": self.base}
        if not self.cookie or http.get("/api/me", headers=cookie).status_code != 200:
            self.made += 1
            name = f"{'op' if self.operator else 'fuzzer'} {self.made}"
            answer = http.post(
                "/api/accounts", json={"name": name, "password": "fuzzing all the way"}
            )
            assert answer.status_code == 201, answer.text
            self.cookie = answer.cookies["ludoteca_session"]
            http.cookies.clear()
            if self.operator is not None:
                state = self.operator.app_state
                account = state.accounts.store.account_by_key(name_key(name))
                state.social.desk.grant(account.id, 0.0)
        return {"Cookie": f"ludoteca_session={self.cookie}", "Origin": self.base}


@pytest.mark.parametrize("who", ["guest", "signed in", "operator"])
def test_every_lobby_endpoint_answers_fuzzed_requests(fuzz_server: ThreadServer, who: str) -> None:
    """Each pass on its own (the three share no state, and run side by side under xdist)."""
    schema = schemathesis.openapi.from_url(f"{fuzz_server.base}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {op.path for op in operations} >= {
        "/api/tables",
        "/api/verify",
        "/healthz",
        # accounts: every route of docs/accounts.md
        "/api/accounts",
        "/api/session",
        "/api/sessions",
        "/api/passkeys/options",
        "/api/passkeys",
        "/api/passkeys/login-options",
        "/api/passkeys/login",
        "/api/me",
        "/api/me/export",
        "/api/me/tables",
        "/api/me/seats",
        "/api/players/{name}",
        "/api/leaderboard/{game_id}",
        # friends, blocking, reports, and the operator's desk (docs/accounts.md, moderation.md)
        "/api/friends",
        "/api/blocks",
        "/api/invites",
        "/api/reports",
        "/api/admin/reports",
        "/api/admin/sanctions",
        "/api/admin/audit",
    }
    cases = 0
    signed: SignedIn | None = None
    if who != "guest":
        signed = SignedIn(fuzz_server.base, operator=fuzz_server if who == "operator" else None)
    for operation in operations:

        @settings(
            max_examples=API_CASES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy())
        def run(case: Any) -> None:
            nonlocal cases
            cases += 1
            # run() is called at once, inside this round of the loop
            headers = signed.headers() if signed else None
            response = case.call(headers=headers)
            case.validate_response(response, checks=[not_a_server_error])
            if response.status_code >= 400:
                body = response.json()
                assert body["error"] in CODES, body
                assert body["message"]
            if operation.path.startswith("/api/admin") and who != "operator":  # noqa: B023
                assert response.status_code == 403, response.text
                assert response.json()["error"] == "not_operator"

        run()
    print(f"\nschemathesis: {cases} cases over {len(operations)} operations as {who}")
    assert cases >= len(operations) * min(API_CASES, 5)
    assert api(fuzz_server.base).get("/healthz").json()["status"] == "ok"


# ------------------------------------------------------------------------ websocket (hypothesis)
LEGAL = "<legal>"  # replaced by a legal action of the latest state the client saw
VERSION = -424242  # replaced by the latest version the client saw

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=30),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
# what a table's websocket may answer (docs/protocol.md: server to client)
ANSWERS = {"welcome", "state", "error", "pong", "chat_history", "chat", "chat_ack", "chat_hidden"}
types = st.sampled_from(
    [
        "hello",
        "act",
        "commit",
        "reveal",
        "back",
        "sync",
        "ping",
        "chat",
        "HELLO",
        "",
        "acts",
        "teleport",
    ]
)
actions = st.one_of(
    st.just(LEGAL),
    st.sampled_from(["draw", "pass", "end", "place paladin b3", " ", ""]),
    st.text(max_size=40),
    json_values,
)
versions = st.one_of(st.just(VERSION), st.integers(-3, 300), json_values)
valid = st.sampled_from(
    [{"type": "act", "action": LEGAL, "version": VERSION}] * 4
    + [{"type": "ping"}, {"type": "sync"}, {"type": "back"}, {"type": "hello"}]
    + [{"type": "chat", "phrase": "gg"}]
)
mutated = st.one_of(
    st.fixed_dictionaries(
        {"type": types},
        optional={
            "action": actions,
            "version": versions,
            "token": json_values,
            "seed": json_values,
            "phrase": st.one_of(st.sampled_from(["gg", "oops", "GG", ""]), json_values),
            "text": json_values,
            "ref": json_values,
            "x": json_values,
        },
    ),
    st.fixed_dictionaries({"type": json_values}),
)
messages = st.one_of(
    valid,
    valid,
    mutated,
    json_values,
    st.text(max_size=60),
    st.binary(max_size=40),
    st.just("x" * 5000),
)


@dataclass
class Arena:
    """The table being fuzzed (two seats, no bots, hour-long turns: only the fuzzer moves it)."""

    server: ThreadServer
    table_id: str = ""
    tokens: list[str] = field(default_factory=list)
    finished: list[str] = field(default_factory=list)
    batches = 0
    sent = 0
    accepted = 0
    refused = 0
    closed = 0

    @property
    def lobby(self) -> Lobby:
        lobby: Lobby = self.server.app_state.lobby
        return lobby

    def version(self) -> int:
        return self.lobby.residency.tables[self.table_id].version

    def over(self) -> bool:
        return self.lobby.residency.tables[self.table_id].row.status == "over"

    def new_table(self) -> None:
        if self.table_id:
            self.finished.append(self.table_id)
        http = api(self.server.base)
        body = {"game": "heroes", "seats": [{"bot": False}] * 2, "name": "A", "turn_seconds": 3600}
        created = http.post("/api/tables", json=body).json()
        self.table_id = created["table"]["id"]
        # the last free seat taken: the table starts by itself
        joined = http.post(f"/api/tables/{self.table_id}/join", json={"name": "B"}).json()
        self.tokens = [created["token"], joined["token"]]
        table = self.lobby.residency.tables[self.table_id]
        eventually(lambda: table.row.status == "playing", interval=0.01, what="the deal")


def fill(message: Any, state: dict[str, Any] | None) -> Any:
    if not isinstance(message, dict):
        return message
    legal = (state or {}).get("legal") or ["draw"]
    version = (state or {}).get("version", 0)
    filled = dict(message)
    if filled.get("action") == LEGAL:
        filled["action"] = legal[0]
    if filled.get("version") == VERSION:
        filled["version"] = version
    return filled


async def exchange(arena: Arena, who: int | None, greet: bool, batch: list[Any]) -> None:
    """Send ``batch`` on one connection, each followed by a sentinel; check every answer."""
    url = f"{arena.server.ws_base}/ws/tables/{arena.table_id}"
    async with websockets.connect(url, max_size=2**22) as ws:
        state: dict[str, Any] | None = None

        welcomed = False

        async def answers() -> list[dict[str, Any]]:
            nonlocal state, welcomed
            got: list[dict[str, Any]] = []
            done = False
            while not done or (welcomed and (state or {}).get("version", -1) < arena.version()):
                message = json.loads(await asyncio.wait_for(ws.recv(), seconds(10)))
                assert message["type"] in ANSWERS, message
                welcomed = welcomed or message["type"] == "welcome"
                if message["type"] == "state":
                    state = message
                if message["type"] == "error":
                    assert message["code"] in CODES, message
                    if "fuzz-sentinel" in message["message"]:
                        done = True
                        continue
                if not done:
                    got.append(message)
            return got

        if greet:
            token = arena.tokens[who] if who is not None else None
            await ws.send(json.dumps({"type": "hello", **({"token": token} if token else {})}))
        for raw in batch:
            message = fill(raw, state)
            before = arena.version()
            try:
                if isinstance(message, bytes):
                    await ws.send(message)
                else:
                    await ws.send(message if isinstance(message, str) else json.dumps(message))
                await ws.send(SENTINEL)
                got = await answers()
            except websockets.ConnectionClosed as exc:
                assert exc.rcvd is not None and exc.rcvd.code in CLOSES, exc
                arena.closed += 1
                return
            finally:
                arena.sent += 1
            if any(m["type"] == "error" for m in got):
                arena.refused += 1
                assert arena.version() == before, (message, got)
            elif arena.version() != before:
                arena.accepted += 1
                assert arena.version() == before + 1
            if arena.over():
                arena.new_table()
                return


async def advance(arena: Arena, moves: int) -> None:
    """Play ``moves`` legal actions at the fuzzed table, so matches finish and get verified."""
    seats = [await Client.connect(arena.server.ws_base, arena.table_id, t) for t in arena.tokens]
    try:
        for _ in range(moves):
            if arena.over():
                break
            mover = arena.lobby.residency.tables[arena.table_id].to_move()
            assert mover is not None
            client = seats[mover]
            state = await client.state_at_least(arena.version())
            while not state["legal"]:
                state = await client.until(lambda m: m["type"] == "state" and bool(m["legal"]))
            answer = await client.act(state["legal"][0], state["version"])
            assert answer["type"] == "state", answer
    finally:
        for client in seats:
            await client.close()
    if arena.over():
        arena.new_table()


@pytest.fixture(scope="module")
def arena(fuzz_server: ThreadServer) -> Iterator[Arena]:
    found = Arena(fuzz_server)
    found.new_table()
    yield found
    print(
        f"\nwebsocket fuzz: {found.sent} messages, {found.accepted} accepted actions, "
        f"{found.refused} refused, {found.closed} connections closed by the server, "
        f"{len(found.finished)} matches finished"
    )


def test_fuzzed_websocket_messages_get_documented_answers(arena: Arena) -> None:
    @settings(
        max_examples=max(1, WS_MESSAGES // BATCH),
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        who=st.sampled_from(["mover", "mover", "mover", "other", "spectator"]),
        greet=st.sampled_from([True, True, True, False]),
        batch=st.lists(messages, min_size=BATCH, max_size=BATCH),
    )
    def run(who: str, greet: bool, batch: list[Any]) -> None:
        mover = arena.lobby.residency.tables[arena.table_id].to_move() or 0
        seat = {"mover": mover, "other": 1 - mover, "spectator": None}[who]
        asyncio.run(exchange(arena, seat, greet, batch))
        arena.batches += 1
        if arena.batches % 4 == 0:
            asyncio.run(advance(arena, 12))

    run()
    assert arena.sent >= WS_MESSAGES * 0.5  # closes end a batch early
    assert api(arena.server.base).get("/healthz").json()["status"] == "ok"
    # every finished match verifies; the one in progress replays from its stored steps
    for table_id in arena.finished:
        record = api(arena.server.base).get(f"/api/tables/{table_id}/record").json()
        assert verify(record, get).ok, table_id
    record = api(arena.server.base).get(f"/api/tables/{arena.table_id}/record").json()
    assert len(record["actions"]) == arena.version()  # the match in progress: every step stored
