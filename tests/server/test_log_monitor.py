"""docs/log_monitor.py, the standard-library monitor of the public log (docs/log.md): its Ed25519
and Merkle arithmetic against the engine's, then against a live server — a run that sees one
history, a table the operator ended in its reveal window listed as such, and a fork caught."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import io
import json
import time
from pathlib import Path
from types import ModuleType

import pytest
from sqlalchemy import text

from kit.servers import ThreadServer, api
from ludoteca.core import SigningKey
from ludoteca.core.fairness import seat_commitment
from ludoteca.core.merkle import MerkleTree, leaf_hash
from ludoteca.server.publog import PublicLog, SqlLogStore
from ludoteca.server.signing import KeyRing
from ludoteca.server.storage import SqlStorage, open_storage

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "log_monitor.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("log_monitor", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_its_signatures_and_roots_are_the_engines() -> None:
    monitor = load()
    key = SigningKey.generate()
    for message in (b"", b"ludoteca log head v1\n5\n" + b"ab" * 32):
        signed = bytes.fromhex(key.sign(message).value)
        public = bytes.fromhex(key.public_key)
        assert monitor.ed25519_verify(public, message, signed)
        assert not monitor.ed25519_verify(public, message + b"x", signed)
        assert not monitor.ed25519_verify(public, message, signed[:-1] + bytes([signed[-1] ^ 1]))
    edge: list[list[object]] = []
    tree = MerkleTree()
    assert monitor.edge_root(edge) == tree.root()
    for i in range(70):
        h = leaf_hash(b"%d" % i)
        monitor.edge_push(edge, h)
        tree.append(h)
        assert monitor.edge_root(edge) == tree.root()
        for first in range(i + 2):
            path = tree.consistency_path(first)
            assert monitor.consistent(first, i + 1, tree.root(first), tree.root(), path)


def watch(monitor: ModuleType, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = monitor.main(list(args))
    return code, out.getvalue()


@pytest.mark.slow
def test_it_watches_a_live_log_and_sees_an_abort_and_a_fork(
    server: ThreadServer, tmp_path: Path
) -> None:
    monitor = load()
    http = api(server.base)
    state = tmp_path / "monitor.json"
    for _ in range(3):  # bots' tables: logged when dealt, then over
        http.post(
            "/api/tables",
            json={"game": "heroes", "seats": [{"bot": True, "level": "random"}] * 2, "start": True},
        )
    code, said = watch(monitor, server.base, "--state", str(state))
    assert code == 0 and "one history of" in said, said

    # a person's table: logged once the commitments close; the operator then marks it expired
    created = http.post(
        "/api/tables",
        json={"game": "heroes", "seats": [{"bot": False}, {"bot": True}], "name": "Ana"},
    ).json()
    table_id, auth = created["table"]["id"], {"Authorization": f"Bearer {created['token']}"}
    http.post(f"/api/tables/{table_id}/start", headers=auth)
    http.post(
        f"/api/tables/{table_id}/commit",
        json={"commitment": seat_commitment("ana", "a" * 32)},
        headers=auth,
    ).raise_for_status()
    assert http.get(f"/api/log/tables/{table_id}").status_code == 200
    storage = open_storage(server.settings.db_url)
    assert isinstance(storage, SqlStorage)
    with storage.engine.begin() as conn:
        conn.execute(text("UPDATE tables SET status = 'expired' WHERE id = :t"), {"t": table_id})
    # another process's sweep logs the end (the server's own runs every minute)
    other = PublicLog(SqlLogStore(storage.engine), KeyRing.ephemeral(), time.time)
    assert asyncio.run(other.sweep(storage)) >= 1
    code, said = watch(monitor, server.base, "--state", str(state), "--records")
    assert code == 1, said
    assert f"LOOK: table {table_id} ended without finishing: expired" in said

    # the monitor kept a head of another history: the server's head cannot extend it
    kept = json.loads(state.read_text())
    state.write_text(json.dumps(dict(kept, root="ab" * 32)))
    code, said = watch(monitor, server.base, "--state", str(state))
    assert code == 2 and "BROKEN: fork" in said, said
    other.close()
    asyncio.run(storage.close())
