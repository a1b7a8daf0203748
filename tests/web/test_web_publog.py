"""The verify page checks the record's table in the server's public log (docs/log.md): the entry
under the signed head, with the record's commitments; it keeps the heads it saw and, shown a
head of another history, says the log was forked."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from kit.browser import Pages
from kit.servers import api
from ludoteca.core.merkle import MerkleTree, leaf_hash
from ludoteca.core.prelude import closed_head

PRELUDE = (
    "async (events) => (await window.ludotecaModules.load('/static/js/prelude.js'))"
    ".closedHead(events)"
)
pytestmark = pytest.mark.browser


def finished_bots_table(base: str) -> str:
    http = api(base)
    created = http.post(
        "/api/tables",
        json={"game": "heroes", "seats": [{"bot": True, "level": "random"}] * 2, "start": True},
    ).json()
    table_id: str = created["table"]["id"]
    deadline = time.monotonic() + 60
    while http.get(f"/api/tables/{table_id}").json()["table"]["status"] != "over":
        assert time.monotonic() < deadline, "the bots' match did not finish"
        time.sleep(0.2)
    return table_id


def log_panel(page: Any, status: str) -> str:
    page.wait_for_selector(f".log-check[data-log='{status}']")
    text: str = page.locator(".log-check").inner_text()
    return text


def test_the_verify_page_finds_the_table_in_the_log_and_catches_a_fork(pages: Pages) -> None:
    table_id = finished_bots_table(pages.base)
    page = pages.open(f"/verify?table={table_id}")
    page.wait_for_selector(".verdict[data-verdict='ok']")
    said = log_panel(page, "ok")
    assert "of the server's public log" in said and "had seen no head of this log" in said
    assert "checked by your browser" in said  # Ed25519 by WebCrypto

    # format 5: the entry pins the head at the close, and the page computes the record's own
    http = api(pages.base)
    record = http.get(f"/api/tables/{table_id}/record").json()
    leaf = json.loads(http.get(f"/api/log/tables/{table_id}").json()["leaf"])
    computed = page.evaluate(
        PRELUDE,
        record["prelude"],
    )
    assert computed == leaf["chain"] == closed_head(record["prelude"])
    changed = [*record["prelude"][:1], {**record["prelude"][1], "name": "Other"}]
    changed += record["prelude"][2:]
    other = page.evaluate(PRELUDE, changed)
    assert other != leaf["chain"]

    finished_bots_table(pages.base)  # the log grows: the next check needs a consistency proof
    page.reload()
    said = log_panel(page, "ok")
    assert "one history with the 1 head" in said

    # this browser once saw a head of the same size with another root
    head = api(pages.base).get("/api/log/head").json()
    kept = page.evaluate("localStorage.getItem('ludoteca.log-heads')")
    heads = json.loads(kept)
    assert str(head["size"]) in heads
    heads[str(head["size"])]["root"] = "ab" * 32
    page.evaluate("h => localStorage.setItem('ludoteca.log-heads', h)", json.dumps(heads))
    page.reload()
    said = log_panel(page, "fork")
    assert "two different histories" in said


def test_the_pages_merkle_checks_are_the_engines(pages: Pages) -> None:
    """publog.js's RFC 9162 checks against the engine's proofs, for every tree up to 40 leaves,
    and a changed node refused."""
    tree = MerkleTree()
    cases = []
    for size in range(1, 41):
        text = f"entry {size - 1}"
        tree.append(leaf_hash(text.encode()))
        for index in range(size):
            path = [h.hex() for h in tree.audit_path(index, size)]
            cases.append(["in", index, size, f"entry {index}", path, tree.root(size).hex()])
        for first in range(size + 1):
            path = [h.hex() for h in tree.consistency_path(first, size)]
            cases.append(["co", first, size, tree.root(first).hex(), path, tree.root(size).hex()])
    page = pages.open("/verify")
    page.wait_for_selector("#verify-button")
    results = page.evaluate(
        """async (cases) => {
            const log = await window.ludotecaModules.load("/static/js/publog.js");
            const flip = (h) => h.slice(0, -1) + (h.endsWith("0") ? "1" : "0");
            const bent = (p) => p.length ? [flip(p[0]), ...p.slice(1)] : null;
            return cases.map(([kind, a, n, x, path, root]) => {
                const check = (p) => kind === "in"
                    ? log.rootFromPath(a, n, x, p) === root
                    : log.consistent(a, n, x, root, p);
                const changed = bent(path);
                return [check(path), changed === null ? false : check(changed)];
            });
        }""",
        cases,
    )
    assert len(results) == len(cases)
    assert all(good for good, _ in results)
    assert not any(bad for _, bad in results)
