"""The public log of tables (``docs/log.md``): what one entry says, what a signed tree head signs,
and the checks a client makes (a record's table is in the log; the heads it saw are one history).

An entry is one line of canonical JSON (keys sorted, no spaces, ASCII), and its leaf in the
RFC 6962 tree is exactly those bytes:

- ``{"at":…,"format":3,"game":"…","kind":"table","log":1,"seats":[{"commitment":"…"|null,
  "kind":"human"|"bot"|"open","seat":0},…],"server_commitment":"…","status":"starting"|"playing",
  "table":"…"}`` — appended when the table's commitments close, before any seed is revealed
  (``starting``), or when a table with no person to wait for is dealt (``playing``);
- ``{"at":…,"kind":"status","log":1,"status":"over"|"aborted"|"ended"|"expired"|"gone",
  "table":"…","version":n}`` — appended when that table ends (``over``; ``aborted`` or
  ``ended`` by the operator: ``core.ending``) or is found ended without finishing.

A tree head is signed with the record-signing key over ``HEAD_PREFIX + size + "\\n" + root``
(decimal, lowercase hex), so two heads of one size with different roots, both signed, are proof
that the server showed two histories.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .merkle import consistent, included, leaf_hash
from .signing import Signature

LOG_VERSION = 1
HEAD_PREFIX = b"ludoteca log head v1\n"
TABLE = "table"
STATUS = "status"
ENDED = ("over", "aborted", "ended", "expired", "gone")
"""The statuses a status entry may give: finished, aborted by a person before their first move
or ended by the operator once dealt (``aborted``, ``ended``: its record is published and says
so), ended by the server or its operator without finishing and without a record (``expired``),
or no longer in the database at all (``gone``)."""


def canonical(entry: dict[str, Any]) -> str:
    return json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def table_entry(
    table: str,
    game: str,
    fmt: int,
    *,
    server_commitment: str,
    seats: list[tuple[int, str, str | None]],
    status: str,
    at: float,
    chain: str | None = None,
) -> str:
    """The entry of a table whose commitments just closed (``status`` "starting": the reveals
    are open) or that was dealt at once (``playing``: no person to wait for); ``seats`` as (seat,
    kind, commitment or None). Format 5: ``chain`` is the head of its chain at the close (after
    the ``close`` event of its prelude), the head every person at the table was shown then."""
    pinned = {"chain": chain} if chain is not None else {}
    return canonical(
        pinned
        | {
            "log": LOG_VERSION,
            "kind": TABLE,
            "table": table,
            "game": game,
            "format": fmt,
            "server_commitment": server_commitment,
            "seats": [{"seat": s, "kind": k, "commitment": c} for s, k, c in seats],
            "status": status,
            "at": round(at, 3),
        }
    )


def status_entry(table: str, status: str, version: int, at: float) -> str:
    if status not in ENDED:
        raise ValueError(f"a status entry says one of {', '.join(ENDED)}, not {status!r}")
    return canonical(
        {
            "log": LOG_VERSION,
            "kind": STATUS,
            "table": table,
            "status": status,
            "version": version,
            "at": round(at, 3),
        }
    )


def parse_entry(leaf: str) -> dict[str, Any]:
    """An entry's fields; ValueError when the text is not an entry of this log in canonical form."""
    try:
        entry = json.loads(leaf)
    except ValueError:
        raise ValueError("the entry is not JSON") from None
    if not isinstance(entry, dict) or entry.get("log") != LOG_VERSION:
        raise ValueError(f"the entry is not one of log version {LOG_VERSION}")
    if entry.get("kind") not in (TABLE, STATUS) or not isinstance(entry.get("table"), str):
        raise ValueError("the entry names no table, or is of no known kind")
    if canonical(entry) != leaf:
        raise ValueError("the entry is not in canonical form")
    return entry


def head_payload(size: int, root_hex: str) -> bytes:
    """What a tree head's signature signs."""
    return HEAD_PREFIX + f"{size}\n{root_hex}".encode()


@dataclass(frozen=True, slots=True)
class TreeHead:
    size: int
    root: str  # hex
    signature: str  # hex, Ed25519
    key_id: str

    def to_json(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "root": self.root,
            "signature": self.signature,
            "key_id": self.key_id,
        }

    @classmethod
    def from_json(cls, data: Any) -> TreeHead:
        if not isinstance(data, dict):
            raise ValueError("a tree head is an object")
        size, root, sig, kid = (data.get(k) for k in ("size", "root", "signature", "key_id"))
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise ValueError("a tree head's size is a whole number ≥ 0")
        for name, value, length in (
            ("root", root, 64),
            ("signature", sig, 128),
            ("key_id", kid, 16),
        ):
            if not (isinstance(value, str) and len(value) == length and _hex(value)):
                raise ValueError(f"a tree head's {name} is {length} lowercase hex digits")
        assert isinstance(root, str) and isinstance(sig, str) and isinstance(kid, str)
        return cls(size, root, sig, kid)

    def problem(self, public_key: str) -> str | None:
        """Why this head is not signed by ``public_key`` (hex), or None."""
        return Signature(self.key_id, public_key, self.signature).problem(
            head_payload(self.size, self.root)
        )


def inclusion_problem(leaf: str, index: int, path_hex: list[str], head: TreeHead) -> str | None:
    """Why ``path`` does not prove ``leaf`` is entry ``index`` of the tree ``head`` names, or
    None when it does."""
    try:
        path = [bytes.fromhex(p) for p in path_hex]
    except ValueError:
        return "the audit path is not hex"
    if any(len(p) != 32 for p in path):
        return "an audit path node is not 32 bytes"
    hashed = leaf_hash(leaf.encode())
    if not included(index, head.size, hashed, path, bytes.fromhex(head.root)):
        return f"entry {index} is not in the log of size {head.size} with root {head.root[:16]}…"
    return None


class HeadBook:
    """The tree heads one client has seen, checked against each other: heads of one size must
    have one root, and a larger head must extend every smaller one (a consistency proof, asked
    of the server by ``prove(first, second)`` → path as hex). ``fork`` holds the two heads that
    disagree once found: both signed, they prove the server showed two histories."""

    def __init__(self) -> None:
        self.heads: dict[int, TreeHead] = {}
        self.fork: tuple[TreeHead, TreeHead] | None = None

    def see(self, head: TreeHead, prove: Any = None) -> str | None:
        """Add a head (already checked as signed); the problem if it disagrees with one seen
        before, else None. ``prove(first, second)`` gives a consistency path (list of hex)."""
        same = self.heads.get(head.size)
        if same is not None and same.root != head.root:
            self.fork = (same, head)
            return f"two different heads of size {head.size}: the log was forked"
        for size, old in sorted(self.heads.items()):
            if size == head.size or prove is None:
                continue
            first, second = (old, head) if size < head.size else (head, old)
            path = [bytes.fromhex(p) for p in prove(first.size, second.size)]
            if not consistent(
                first.size, second.size, bytes.fromhex(first.root), bytes.fromhex(second.root), path
            ):
                self.fork = (first, second)
                return (
                    f"the head of size {second.size} does not extend the one of size {first.size}"
                )
        self.heads[head.size] = head
        return None


def entry_problem(
    leaf: str,
    table: str | None,
    commitment: str,
    commitments: list[str | None],
    closed_head: str | None = None,
) -> str | None:
    """Why a table's log entry does not bind this record's table, server commitment and seat
    commitments (a seat the entry lists without one must have none in the record), and (an entry
    with a ``chain``, format 5) the record's head at the close of its commitments, or None."""
    try:
        entry = parse_entry(leaf)
    except ValueError as exc:
        return str(exc)
    if entry["kind"] != TABLE or entry["table"] != table:
        return f"the log's entry is not the one of table {table}"
    if entry.get("server_commitment") != commitment:
        return "the server's commitment in the log is not the record's"
    logged = [s.get("commitment") for s in entry.get("seats", []) if isinstance(s, dict)]
    if len(logged) != len(commitments):
        return f"the log lists {len(logged)} seats, the record {len(commitments)}"
    for seat, (was, now) in enumerate(zip(logged, commitments, strict=True)):
        if was != now:
            return f"seat {seat}'s commitment in the log is not the record's"
    if "chain" in entry and entry["chain"] != closed_head:
        return "the chain head the log holds for the close is not the record's"
    return None


def _hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


__all__ = [
    "ENDED",
    "HEAD_PREFIX",
    "HeadBook",
    "TreeHead",
    "canonical",
    "entry_problem",
    "head_payload",
    "inclusion_problem",
    "parse_entry",
    "status_entry",
    "table_entry",
]
