"""``ludoteca verify RECORD --log URL``: the record's table is in the server's public log
(``docs/log.md``) under a tree head signed by one of the server's keys, with the commitments the
record holds; and (``--heads FILE``) that head is consistent with every head seen before."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from ludoteca.cli.arguments import UsageError
from ludoteca.core import MatchRecord
from ludoteca.core.prelude import closed_head
from ludoteca.core.publog import HeadBook, TreeHead, entry_problem, inclusion_problem


def fetch(base: str, path: str) -> Any:
    url = base.rstrip("/") + path
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return json.loads(response.read().decode())
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read().decode()).get("message", exc.reason)
        except ValueError:
            message = exc.reason
        raise LookupError(f"{url}: {exc.code} {message}") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot fetch {url}: {exc}") from None


def check(base: str, record: MatchRecord, keys: dict[str, str], heads: Path | None) -> list[str]:
    """The problems found (none: the record's table is in the log); ``keys`` the server's
    public keys by id. Prints what it checked."""
    head = TreeHead.from_json(fetch(base, "/api/log/head"))
    public = keys.get(head.key_id)
    if public is None:
        return [f"the log's head is signed by key {head.key_id}, not one of the server's"]
    problem = head.problem(public)
    if problem:
        return [f"the log's head: {problem}"]
    table = urllib.parse.quote(record.table or "", safe="")
    try:
        proof = fetch(base, f"/api/log/tables/{table}?size={head.size}")
    except LookupError as exc:
        return [f"the table is not in the public log ({exc})"]
    leaf, index, path = proof.get("leaf"), proof.get("index"), proof.get("path")
    if not (isinstance(leaf, str) and isinstance(index, int) and isinstance(path, list)):
        return ["the log's answer is not {index, size, leaf, path}"]
    problems = [
        p
        for p in (
            inclusion_problem(leaf, index, [str(h) for h in path], head),
            entry_problem(
                leaf,
                record.table,
                record.commitment,
                list(record.commitments),
                closed_head(record.prelude),
            ),
        )
        if p
    ]
    if problems:
        return problems
    print(
        f"in the public log: entry {index} of {head.size}, "
        f"head {head.root[:16]}… signed by key {head.key_id}"
    )
    if heads is not None:
        problem = remember(base, head, heads)
        if problem:
            return [problem]
    return []


def remember(base: str, head: TreeHead, path: Path) -> str | None:
    """Check ``head`` against the heads kept in ``path`` (JSON list), then keep it there."""
    book = HeadBook()
    seen = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
    for item in seen:
        book.heads[item["size"]] = TreeHead.from_json(item)

    def prove(first: int, second: int) -> list[str]:
        found: list[str] = fetch(base, f"/api/log/consistency?first={first}&second={second}")[
            "path"
        ]
        return found

    try:
        problem = book.see(head, prove)
    except LookupError as exc:
        problem = f"the server gives no consistency proof: {exc}"
    if problem:
        return f"the log's heads disagree: {problem} (keep {path}: both heads are signed)"
    path.write_text(json.dumps([h.to_json() for _, h in sorted(book.heads.items())]) + "\n")
    print(f"the head is consistent with the {len(seen)} head(s) seen before ({path})")
    return None
