"""The public log's routes on a live server (docs/log.md): a person's table and a bots' table
appear in the log, each with an audit path to the signed head; two heads are consistent; bad
sizes are refused with a clear 4xx; ``ludoteca verify --log`` finds the record's table in the log,
keeps the heads it saw, and says so when the server shows a head of another history."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from pathlib import Path

import pytest

from kit.client import person_against_bot
from kit.servers import ThreadServer, api
from ludoteca.cli import main
from ludoteca.core.prelude import closed_head
from ludoteca.core.publog import (
    HeadBook,
    TreeHead,
    entry_problem,
    head_payload,
    inclusion_problem,
    parse_entry,
)


def ludoteca_here(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(list(args))
    return code, out.getvalue()


@pytest.mark.slow
def test_the_log_proves_each_table_and_refuses_bad_sizes(
    server: ThreadServer, tmp_path: Path
) -> None:
    http = api(server.base)
    table_id = asyncio.run(person_against_bot(server.base, server.ws_base))
    record = http.get(f"/api/tables/{table_id}/record").json()
    keys = {k["key_id"]: k["public_key"] for k in http.get("/api/keys").json()["keys"]}

    first = TreeHead.from_json(http.get("/api/log/head").json())
    assert first.size >= 1 and first.problem(keys[first.key_id]) is None
    proof = http.get(f"/api/log/tables/{table_id}", params={"size": first.size}).json()
    assert set(proof) == {"index", "size", "leaf", "path"} and proof["size"] == first.size
    assert inclusion_problem(proof["leaf"], proof["index"], proof["path"], first) is None
    closed = closed_head(record["prelude"])
    leaf, commitments = proof["leaf"], record["commitments"]
    assert entry_problem(leaf, table_id, record["commitment"], commitments, closed) is None
    entry = parse_entry(proof["leaf"])
    assert entry["chain"] == closed, "the log pins the head every person was shown at the close"
    # without the head at the close (a record of another history before the deal): refused
    other = entry_problem(leaf, table_id, record["commitment"], commitments, "0" * 64)
    assert other == "the chain head the log holds for the close is not the record's"
    assert entry["status"] == "starting" and entry["seats"][1]["kind"] == "bot"

    # a bots' table is logged when it is dealt at once; the log grows, consistently
    created = http.post(
        "/api/tables",
        json={"game": "heroes", "seats": [{"bot": True, "level": "random"}] * 2, "start": True},
    ).json()
    bots = http.get(f"/api/log/tables/{created['table']['id']}").json()
    assert parse_entry(bots["leaf"])["status"] == "playing"
    second = TreeHead.from_json(http.get("/api/log/head").json())
    assert second.size > first.size and second.problem(keys[second.key_id]) is None

    def prove(m: int, n: int) -> list[str]:
        found: list[str] = http.get(
            "/api/log/consistency", params={"first": m, "second": n}
        ).json()["path"]
        return found

    book = HeadBook()
    assert book.see(first, prove) is None and book.see(second, prove) is None
    entries = http.get("/api/log/entries", params={"start": 0, "end": second.size}).json()
    assert [e["index"] for e in entries["entries"]] == list(range(second.size))
    assert entries["entries"][proof["index"]]["leaf"] == proof["leaf"]

    for path, params, status, words in (
        (f"/api/log/tables/{table_id}", {"size": 10**6}, 422, "not"),
        (f"/api/log/tables/{created['table']['id']}", {"size": bots["index"]}, 422, "trees of"),
        (f"/api/log/tables/{table_id}", {"size": 0}, 422, "size"),
        (f"/api/log/tables/{table_id}", {"size": "ten"}, 422, "size"),
        ("/api/log/tables/nosuchtable", {}, 404, "not in the log"),
        ("/api/log/consistency", {"first": 2, "second": 1}, 422, "first"),
        ("/api/log/consistency", {"first": 1, "second": 10**6}, 422, "log's size"),
        ("/api/log/consistency", {"first": -1, "second": 1}, 422, "first"),
        ("/api/log/consistency", {"first": 1}, 422, "second"),
        ("/api/log/entries", {"start": 3, "end": 3}, 422, "entries"),
        ("/api/log/entries", {"start": 0, "end": 5000}, 422, "entries"),
    ):
        answer = http.get(path, params=params)
        assert answer.status_code == status, (path, params, answer.text)
        assert words in answer.json()["message"], answer.text

    # the terminal client: the record's table is in the log, and the heads it saw agree
    record_file, heads = tmp_path / "record.json", tmp_path / "heads.json"
    record_file.write_text(json.dumps(record))
    check = ("verify", str(record_file), "--log", server.base)
    code, said = ludoteca_here(*check, "--heads", str(heads))
    assert code == 0, said
    assert "in the public log: entry" in said and "0 head(s) seen before" in said
    code, said = ludoteca_here(*check, "--heads", str(heads))
    assert code == 0 and "1 head(s) seen before" in said, said

    # the server once showed this client a head of the same size from another history (signed
    # with its own key): the next check says the log was forked, and fails
    key = server.app_state.lobby.services.keys.current
    current = TreeHead.from_json(http.get("/api/log/head").json())
    other_root = "ab" * 32
    forged = TreeHead(
        current.size, other_root, key.sign(head_payload(current.size, other_root)).value, key.key_id
    )
    heads.write_text(json.dumps([forged.to_json()]))
    code, said = ludoteca_here(*check, "--heads", str(heads))
    # (forked at that size, or, if the log grew meanwhile, no proof extends the forged head)
    assert code == 1 and ("forked" in said or "does not extend" in said), said

    # a record of a table the log does not hold
    other = dict(record, table="nosuchtable")
    record_file.write_text(json.dumps(other))
    code, said = ludoteca_here("verify", str(record_file), "--log", server.base)
    assert code == 1, said
