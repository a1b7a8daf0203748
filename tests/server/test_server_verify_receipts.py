"""POST /api/verify with receipts: ``{"record", "receipts"}`` checks the record against the chain
heads a watcher was shown; the bare record still works; malformed receipts are refused."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kit.client import Client
from kit.env import seconds
from kit.servers import ThreadServer, api
from ludoteca.core import MatchRecord, SigningKey


def finished_match(server: ThreadServer) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A bots' match watched to the end: its record and every receipt the watcher was shown."""
    http = api(server.base)
    created = http.post(
        "/api/tables",
        json={"game": "heroes", "seats": [{"bot": True, "level": "random"}] * 2, "start": True},
    ).json()
    table_id = created["table"]["id"]
    receipts: list[dict[str, Any]] = []

    def keep(message: dict[str, Any]) -> bool:
        if message["type"] == "state" and message["chain"] is not None:
            receipts.append(
                {"table": table_id, "version": message["version"], "chain": message["chain"]}
            )
        return message["type"] == "state" and message["table"]["status"] == "over"

    async def watch() -> None:
        watcher = await Client.connect(server.ws_base, table_id)
        await watcher.until(keep)
        await watcher.close()

    asyncio.run(watch())
    return http.get(f"/api/tables/{table_id}/record").json(), receipts


def test_receipts_are_checked_and_the_bare_record_still_works(server: ThreadServer) -> None:
    http = api(server.base)
    record, receipts = finished_match(server)
    assert receipts and receipts[-1]["version"] == len(record["actions"])
    bare = http.post("/api/verify", json=record).json()
    assert bare["ok"] is True and bare["receipts"] == 0
    both = http.post("/api/verify", json={"record": record, "receipts": receipts}).json()
    assert both["ok"] is True and both["receipts"] == len(receipts)

    # a head the watcher was shown that the record does not give
    shown = dict(receipts[0], chain="0" * 64)
    failed = http.post("/api/verify", json={"record": record, "receipts": [shown]}).json()
    assert failed["ok"] is False
    assert [(p["check"], p["step"]) for p in failed["problems"]] == [("receipt", shown["version"])]

    # a receipt of another table
    other = dict(receipts[0], table="elsewhere")
    failed = http.post("/api/verify", json={"record": record, "receipts": [other]}).json()
    assert failed["problems"][0]["check"] == "receipt"
    assert "elsewhere" in failed["problems"][0]["message"]


def test_malformed_receipts_are_refused(server: ThreadServer) -> None:
    http = api(server.base)
    record = {"format": 2, "game": "heroes"}
    for body, words in (
        ({"record": record, "receipts": {"table": "x"}}, "is a list"),
        ({"record": record, "receipts": [{"table": "x", "version": 1}]}, "64 lowercase hex"),
        (
            {"record": record, "receipts": [{"table": "x", "version": True, "chain": "0" * 64}]},
            "whole-number",
        ),
        ({"record": record, "receipt": []}, "unknown fields"),
    ):
        answer = http.post("/api/verify", json=body)
        assert answer.status_code == 422, body
        assert answer.json()["error"] == "bad_request" and words in answer.json()["message"]


@pytest.mark.slow
def test_verify_checks_the_key_the_server_publishes(server: ThreadServer, tmp_path: Path) -> None:
    """`ludoteca verify --server URL`: the record's key must be one the server lists at /api/keys;
    the receipts a watcher kept agree with the record."""
    record, receipts = finished_match(server)
    path, kept = tmp_path / "record.json", tmp_path / "receipts.json"
    path.write_text(json.dumps(record))
    kept.write_text(json.dumps(receipts))
    done = cli("verify", str(path), "--server", server.base, "--receipt", str(kept))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "one of the server's keys" in done.stdout
    assert f"{len(receipts)} receipt(s) agree" in done.stdout
    forged = MatchRecord.from_json(record).sign(SigningKey.generate()).to_json()
    path.write_text(json.dumps(forged))
    done = cli("verify", str(path), "--server", server.base)
    assert done.returncode == 1 and "not one of the keys given" in done.stdout
    down = cli("verify", str(path), "--server", "http://127.0.0.1:9")
    assert down.returncode == 2 and "cannot fetch" in down.stderr


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ludoteca.cli", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=seconds(120),
    )
