"""Schema migrations: a database made before migrations upgrades in place and its matches go on.

``OLD_SCHEMA`` is the schema exactly as the server created it (``metadata.create_all``) before
migrations existed, frozen here; a match in progress is written into it as that server stored it.
``FORMATS_SCHEMA`` is what ``create_all`` made for the short while tables had a record format but
there were no migrations yet.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text

from kit import processes
from kit.client import Client
from kit.env import seconds
from kit.servers import ServerProcess, api, free_port
from ludoteca.cli import main
from ludoteca.core import Match, Player, commitment, verify
from ludoteca.core.fairness import new_secret
from ludoteca.games import get
from ludoteca.server.accounts.ratings import Rating
from ludoteca.server.accounts.rows import NameTaken
from ludoteca.server.accounts.store import AccountStore
from ludoteca.server.main import check_database
from ludoteca.server.storage import SchemaBehind, open_storage
from ludoteca.server.storage.engine import engine_for
from ludoteca.server.storage.migrate import DatabaseError, alembic_config, head, new_revision
from ludoteca.server.storage.schema import metadata
from ludoteca.server.table.ledger import token_hash

OLD_SCHEMA = """
CREATE TABLE actions (
    table_id VARCHAR(32) NOT NULL,
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    "by" VARCHAR(8) NOT NULL,
    at FLOAT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE seats (
    table_id VARCHAR(32) NOT NULL,
    seat INTEGER NOT NULL,
    kind VARCHAR(8) NOT NULL,
    name VARCHAR(64) NOT NULL,
    level VARCHAR(16),
    token_hash VARCHAR(64),
    away BOOLEAN NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE tables (
    id VARCHAR(32) NOT NULL,
    game VARCHAR(64) NOT NULL,
    params TEXT NOT NULL,
    seed VARCHAR(128) NOT NULL,
    commitment VARCHAR(64) NOT NULL,
    status VARCHAR(16) NOT NULL,
    turn_seconds INTEGER NOT NULL,
    created_at FLOAT NOT NULL,
    started_at FLOAT,
    turn_started_at FLOAT,
    version INTEGER NOT NULL,
    outcome TEXT,
    PRIMARY KEY (id)
);
CREATE INDEX ix_tables_status ON tables (status);
"""

FORMATS_SCHEMA = OLD_SCHEMA.replace(
    "    outcome TEXT,\n", "    outcome TEXT,\n    format INTEGER NOT NULL,\n"
).replace(
    "    away BOOLEAN NOT NULL,\n",
    "    away BOOLEAN NOT NULL,\n    contribution VARCHAR(64),\n",
)

TOKEN = "the-token-of-ana-at-the-old-table"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.sqlite3'}"
    found: str = request.getfixturevalue("postgres_url")
    return found


def upgrade_to(url: str, revision: str) -> None:
    """Bring the database at ``url`` up to ``revision`` (not beyond)."""
    engine = engine_for(url)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), revision)
    engine.dispose()


def execute(url: str, statements: str, params: list[dict[str, Any]] | None = None) -> None:
    engine = engine_for(url)
    with engine.begin() as conn:
        if params is not None:
            conn.execute(text(statements), params)
        else:
            for statement in statements.split(";"):
                if statement.strip():
                    conn.exec_driver_sql(statement)
    engine.dispose()


def old_database(url: str) -> None:
    execute(url, OLD_SCHEMA)


def unfinished_match(url: str, steps: int = 6) -> list[tuple[int, str, str]]:
    """A heroes table as the old server stored it: Ana (seat 0) against a random bot, ``steps``
    actions in; returns the stored (seat, action, by) of each."""
    game = get("heroes")
    seed = new_secret()
    params = game.spec.params({"players": 2})
    match = Match(game, params, seed, [Player("Ana"), Player("Bot 2 (random)", True, "random")])
    pick = random.Random(4)
    stored = []
    for _ in range(steps):
        seat = game.to_move(match.state)
        assert seat is not None
        by = "player" if seat == 0 else "bot"
        text_ = pick.choice(game.legal_texts(match.state))
        match.act(seat, text_, by)
        stored.append((seat, match.steps[-1].action, by))
    assert game.outcome(match.state) is None, "the match must be unfinished"
    now = time.time()
    execute(
        url,
        "INSERT INTO tables VALUES (:id, :game, :params, :seed, :commitment, 'playing', 3600, "
        ":created, :created, :now, :version, NULL)",
        [
            {
                "id": "oldtable",
                "game": "heroes",
                "params": '{"players": 2}',
                "seed": seed,
                "commitment": commitment(seed),
                "created": now - 60,
                "now": now,
                "version": steps,
            }
        ],
    )
    execute(
        url,
        "INSERT INTO seats VALUES ('oldtable', :seat, :kind, :name, :level, :hash, false)",
        [
            {"seat": 0, "kind": "human", "name": "Ana", "level": None, "hash": token_hash(TOKEN)},
            {"seat": 1, "kind": "bot", "name": "Bot 2 (random)", "level": "random", "hash": None},
        ],
    )
    execute(
        url,
        "INSERT INTO actions VALUES ('oldtable', :seq, :seat, :action, :by, :at)",
        [
            {"seq": n, "seat": seat, "action": action, "by": by, "at": now - 60 + n}
            for n, (seat, action, by) in enumerate(stored, 1)
        ],
    )
    return stored


def ludoteca(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ludoteca.cli", *args],
        capture_output=True,
        text=True,
        timeout=seconds(120),
        env={**os.environ, **(env or {})},
        check=False,
    )


def schema_of(url: str) -> dict[str, Any]:
    """Tables, columns, keys and indexes as the database reports them (not the version table)."""
    engine = engine_for(url)
    with engine.connect() as conn:
        found = inspect(conn)
        names = sorted(set(found.get_table_names()) - {"alembic_version"})
        schema = {
            name: {
                "columns": [
                    (c["name"], str(c["type"]), c["nullable"]) for c in found.get_columns(name)
                ],
                "key": found.get_pk_constraint(name)["constrained_columns"],
                "indexes": sorted(
                    (i["name"], tuple(i["column_names"]), bool(i["unique"]))
                    for i in found.get_indexes(name)
                ),
            }
            for name in names
        }
    engine.dispose()
    return schema


def differences_from_the_code(url: str) -> list[Any]:
    engine = engine_for(url)
    with engine.connect() as conn:
        found = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    return list(found)


def drop_everything(url: str) -> None:
    engine = engine_for(url)
    with engine.begin() as conn:
        for name in inspect(conn).get_table_names():
            conn.exec_driver_sql(f"DROP TABLE {name}")
    engine.dispose()


# ------------------------------------------------------------------------------------ tests
@pytest.mark.parametrize(("schema", "revision"), [(OLD_SCHEMA, "0001"), (FORMATS_SCHEMA, "0002")])
def test_each_schema_made_before_migrations_is_a_revision(
    url: str, schema: str, revision: str, capsys: pytest.CaptureFixture[str]
) -> None:
    execute(url, schema)
    before = schema_of(url)
    assert set(before) == {"tables", "seats", "actions"}
    assert ("format" in str(before)) == (revision == "0002")
    assert main(["db", "current", "--db", url]) == 0
    assert capsys.readouterr().out.startswith(f"{revision} (made before migrations")
    drop_everything(url)
    upgrade_to(url, revision)
    assert schema_of(url) == before


@pytest.mark.parametrize("schema", [OLD_SCHEMA, FORMATS_SCHEMA])
def test_an_old_and_a_new_database_end_at_the_schema_the_code_uses(url: str, schema: str) -> None:
    asyncio.run(open_storage(url).close())  # a new database is created at head
    assert differences_from_the_code(url) == []
    fresh = schema_of(url)
    drop_everything(url)
    execute(url, schema)
    check_database(url, upgrade=True)
    assert differences_from_the_code(url) == []
    assert schema_of(url) == fresh


@pytest.mark.slow
def test_a_match_stored_before_migrations_upgrades_and_finishes(
    url: str,
    tmp_path: Path,
    process_servers: list[ServerProcess],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def current() -> str:
        assert main(["db", "current"]) == 0
        return capsys.readouterr().out

    monkeypatch.setenv("LUDOTECA_DB", url)
    old_database(url)
    stored = unfinished_match(url)
    assert current().startswith("0001 (made before migrations")

    refused = ludoteca("serve", "--port", str(free_port()), "--db", url)
    assert refused.returncode == 1
    assert "at schema revision 0001" in refused.stderr
    assert "ludoteca db upgrade --db" in refused.stderr and "--upgrade" in refused.stderr
    assert current().startswith("0001 (made before migrations"), "refusing changed nothing"

    upgraded = ludoteca("db", "upgrade", "--db", url)
    assert upgraded.returncode == 0, upgraded.stderr
    assert f"to {head()} in" in upgraded.stdout
    assert current() == f"{head()} (head)\n"

    server = ServerProcess(tmp_path, url).start()
    process_servers.append(server)

    async def finish() -> int:
        client = await Client.connect(server.ws_base, "oldtable", TOKEN)
        first = await client.until(lambda m: m["type"] == "state")
        assert first["version"] >= len(stored) and first["seat"] == 0  # the bot may go on
        pick = random.Random(5)
        while not (client.state and client.state["view"]["over"]):
            state = client.state
            if state and state["legal"]:
                await client.act(pick.choice(state["legal"]), state["version"])
            else:
                await client.recv(timeout=30)
        await client.close()
        return int(client.state["version"])

    final = asyncio.run(finish())
    record = api(server.base).get("/api/tables/oldtable/record").json()
    verdict = verify(record, get)
    assert verdict.ok, verdict.problems
    assert len(record["actions"]) == final > len(stored)
    assert [(a["seat"], a["action"], a["by"]) for a in record["actions"][: len(stored)]] == stored


# ------------------------------------------------------------------------ refused databases
def test_a_new_database_is_made_at_head_when_served(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'new' / 'tables.sqlite3'}"
    check_database(url, upgrade=False)
    assert main(["db", "current", "--db", url]) == 0
    assert capsys.readouterr().out == f"{head()} (head)\n"
    assert main(["db", "upgrade", "--db", url]) == 0
    assert capsys.readouterr().out.endswith(f"already at {head()} (head)\n")


@pytest.mark.parametrize(
    ("prepare", "args", "message"),
    [
        (None, ["current"], "there is no database file at"),
        (None, ["upgrade", "--db", "memory://"], "has no schema to migrate"),
        (None, ["upgrade", "--db", "mysql://localhost/tables"], "unknown database URL"),
        (None, ["upgrade", "--db", "postgresql://nobody@127.0.0.1:1/x"], "cannot use the database"),
        ("CREATE TABLE tables (id TEXT)", ["upgrade"], "not a ludoteca database"),
        (
            "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL);"
            "INSERT INTO alembic_version VALUES ('9999')",
            ["upgrade"],
            "revision 9999, which this version of ludoteca does not know",
        ),
    ],
)
def test_a_database_we_cannot_serve_is_refused_and_left_alone(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    prepare: str | None,
    args: list[str],
    message: str,
) -> None:
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    if prepare is not None:
        execute(url, prepare)
    before = schema_of(url) if prepare is not None else None
    assert main(["db", *args] if "--db" in args else ["db", *args, "--db", url]) == 1
    assert message in capsys.readouterr().err
    if before is not None:
        assert schema_of(url) == before
        with pytest.raises(DatabaseError, match=message):
            check_database(url, upgrade=True)
    else:
        assert not (tmp_path / "tables.sqlite3").exists()


def test_db_without_an_action_shows_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db"]) == 2
    out = capsys.readouterr().out
    assert "upgrade" in out and "current" in out


def test_a_new_revision_follows_the_head(tmp_path: Path) -> None:
    written = new_revision("nothing changed", tmp_path)
    assert written.name == f"v{int(head()) + 1:04d}_nothing_changed.py"
    source = written.read_text()
    assert f'down_revision = "{head()}"' in source
    assert "op." not in source.split("def upgrade")[1], "the code and the head agree: nothing to do"


@pytest.mark.postgres
def test_upgrades_running_together_on_postgresql_create_the_schema_once(postgres_url: str) -> None:
    """Each holds the advisory lock while it looks and migrates: no CREATE TABLE twice."""
    command = [sys.executable, "-m", "ludoteca.cli", "db", "upgrade", "--db", postgres_url]
    running = [
        processes.spawn(
            command,
            "ludoteca db upgrade",
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    answers = [p.communicate(timeout=seconds(120)) for p in running]
    assert [p.returncode for p in running] == [0, 0], [err for _, err in answers]
    outs = sorted(out for out, _ in answers)
    assert sum(f"created at {head()} in" in out for out in outs) == 1, outs
    assert sum(f"already at {head()} (head)" in out for out in outs) == 1, outs


def test_serve_upgrades_an_old_database_only_when_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    served: list[object] = []
    monkeypatch.setattr("uvicorn.run", lambda app, **_: served.append(app))  # serve imports it late
    monkeypatch.setattr("ludoteca.server.main.configure", lambda: None)  # the process's logging
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    old_database(url)
    with pytest.raises(SchemaBehind, match="ludoteca db upgrade"):
        open_storage(url)  # the server's own start refuses it too
    assert main(["serve", "--db", url]) == 1
    assert "ludoteca serve --upgrade" in capsys.readouterr().err and served == []
    assert main(["serve", "--db", url, "--upgrade"]) == 0
    assert "upgraded the database from 0001 (made before migrations" in capsys.readouterr().out
    assert len(served) == 1
    assert main(["db", "current", "--db", url]) == 0
    assert capsys.readouterr().out == f"{head()} (head)\n"


def test_accounts_arrive_with_0006_beside_the_tables_already_stored(url: str) -> None:
    """A database at 0004 with a match in it gains the account tables; the match is untouched,
    and an account can sit at it, be rated and be deleted there."""
    upgrade_to(url, "0004")
    execute(
        url,
        "INSERT INTO tables (id, game, params, seed, commitment, status, turn_seconds, "
        "created_at, version, format, outcome) VALUES ('t1', 'heroes', '{\"players\": 2}', "
        "'s', 'c', 'over', 60, 1.0, 9, 2, '{\"winners\": [0], \"draw\": false}')",
        [{}],
    )
    check_database(url, upgrade=True)
    assert differences_from_the_code(url) == []
    engine = engine_for(url)
    store = AccountStore(engine)
    try:
        ana = store.create_account("Ana", "ana", None, 2.0)
        with pytest.raises(NameTaken):
            store.create_account("ANA", "ana", None, 3.0)
        store.hold_seat(ana.id, "t1", 0, "token", 2.0)
        store.mark_rated("t1", "heroes", 2.0)
        rated = store.rate(
            "t1", "heroes", lambda seated: [(s, Rating(30, 7), 1) for s in seated], 3
        )
        assert rated == (True, None)
        assert store.rate("t1", "heroes", lambda seated: [], 4) == (False, None), "rated once"
        assert [(r.mu, r.matches) for r in store.ratings_of(ana.id)] == [(30, 1)]
        store.delete_account(ana.id, 5.0)
        assert store.export(ana.id) == {
            "passkeys": [],
            "sessions": [],
            "account_seats": [],
            "ratings": [],
            "rating_changes": [],
            "notify_emails": [],
            "account_devices": [],
        }
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version FROM tables")).scalar_one() == 9
    finally:
        store.close()
        engine.dispose()


def test_0010_keeps_one_seat_per_account_at_a_table(url: str) -> None:
    """An account at two seats of one table (possible before 0010) keeps the seat it took first;
    the other rows stay."""
    upgrade_to(url, "0009")
    execute(
        url,
        "INSERT INTO account_seats (table_id, seat, account_id, token, at) "
        "VALUES (:t, :s, :a, :k, :at)",
        [
            {"t": "t1", "s": 0, "a": "ana", "k": "later", "at": 2.0},
            {"t": "t1", "s": 1, "a": "ana", "k": "first", "at": 1.0},
            {"t": "t1", "s": 2, "a": "bea", "k": "bea's", "at": 3.0},
            {"t": "t2", "s": 0, "a": "ana", "k": "other table", "at": 4.0},
        ],
    )
    check_database(url, upgrade=True)
    assert differences_from_the_code(url) == []
    engine = engine_for(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT table_id, seat, token FROM account_seats ORDER BY table_id, seat")
            ).all()
    finally:
        engine.dispose()
    assert [tuple(r) for r in rows] == [
        ("t1", 1, "first"),
        ("t1", 2, "bea's"),
        ("t2", 0, "other table"),
    ]


def test_every_revision_goes_down_again(url: str) -> None:
    """Downgrades are for a developer undoing a revision: each runs, and 0001 is 0001 again."""
    asyncio.run(open_storage(url).close())
    engine = engine_for(url)
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0001")
    at_first = schema_of(url)
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "base")
    engine.dispose()
    assert schema_of(url) == {}
    old_database(url)
    assert schema_of(url) == at_first
