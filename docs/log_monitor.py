#!/usr/bin/env python3
"""Watch a ludoteca server's public log of tables (docs/log.md), with the standard library only.

    python3 log_monitor.py https://table.example --state monitor.json [--grace 86400] [--records]

Each run checks that the log is still one history (the new signed head extends the head kept in
the state file, by the server's consistency proof and by the root recomputed from every entry),
that every entry is well formed, and lists the tables that ended without finishing or have no end
long after they were logged. Exit status: 0 all well, 1 tables to look at, 2 the log is broken.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

HEAD_PREFIX = b"ludoteca log head v1\n"
ENDS = ("over", "aborted", "ended", "expired", "gone")


# ---------------------------------------------------------------- Ed25519 (RFC 8032, section 6)
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _recover_x(y: int, sign: int) -> int | None:
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P)
    if x2 % P == 0:
        return None if sign else 0
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P != 0:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P != 0:
        return None
    if (x & 1) != sign:
        x = P - x
    return x


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    e1 = (a[1] - a[0]) * (b[1] - b[0]) % P
    e2 = (a[1] + a[0]) * (b[1] + b[0]) % P
    c = 2 * a[3] * b[3] * D % P
    dd = 2 * a[2] * b[2] % P
    e, f, g, h = e2 - e1, dd - c, dd + c, e2 + e1
    return (e * f, g * h, f * g, e * h)


def _mul(s: int, point: tuple[int, ...]) -> tuple[int, ...]:
    q: tuple[int, ...] = (0, 1, 1, 0)
    while s > 0:
        if s & 1:
            q = _add(q, point)
        point = _add(point, point)
        s >>= 1
    return q


def _equal(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % P == 0 and (a[1] * b[2] - b[1] * a[2]) % P == 0


def _decompress(raw: bytes) -> tuple[int, ...] | None:
    y = int.from_bytes(raw, "little")
    sign, y = y >> 255, y & ((1 << 255) - 1)
    x = _recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % P)


_GY = 4 * pow(5, P - 2, P) % P
_GX = _recover_x(_GY, 0)
assert _GX is not None
G = (_GX, _GY, 1, _GX * _GY % P)


def ed25519_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    if len(public) != 32 or len(signature) != 64:
        return False
    a, r = _decompress(public), _decompress(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= L:
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % L
    return _equal(_mul(s, G), _add(r, _mul(h, a)))


# ------------------------------------------------------------------ RFC 6962 / 9162 Merkle trees
def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def edge_push(edge: list[list[Any]], hashed: bytes) -> None:
    """The right edge of the tree: [height, hash] of its complete subtrees, largest first."""
    edge.append([0, hashed])
    while len(edge) > 1 and edge[-1][0] == edge[-2][0]:
        height, right = edge.pop()
        edge[-1] = [height + 1, node_hash(edge[-1][1], right)]


def edge_root(edge: list[list[Any]]) -> bytes:
    if not edge:
        return hashlib.sha256(b"").digest()
    root = edge[-1][1]
    for _, left in reversed(edge[:-1]):
        root = node_hash(left, root)
    return root


def consistent(
    first: int, second: int, first_root: bytes, second_root: bytes, path: list[bytes]
) -> bool:
    """RFC 9162, 2.1.4.2."""
    if first == second:
        return not path and first_root == second_root
    if first == 0:
        return not path
    if not 0 < first < second or not path:
        return False
    if first & (first - 1) == 0:
        path = [first_root, *path]
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == first_root and sr == second_root


# ---------------------------------------------------------------------------------- the monitor
class Broken(Exception):
    """The log is not one history, or not the server's."""


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base.rstrip("/") + path, timeout=30) as response:
        return json.loads(response.read().decode())


def check_entry(text: str) -> dict[str, Any]:
    entry = json.loads(text)
    canonical = json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    if canonical != text or entry.get("log") != 1 or not isinstance(entry.get("table"), str):
        raise Broken(f"a malformed entry: {text[:80]}")
    if entry.get("kind") == "status" and entry.get("status") not in ENDS:
        raise Broken(f"an end the log does not know: {text[:80]}")
    if entry.get("kind") not in ("table", "status"):
        raise Broken(f"an entry of no known kind: {text[:80]}")
    return entry


def run(base: str, state_path: Path, grace: float, records: bool) -> tuple[int, list[str]]:
    state: dict[str, Any] = (
        json.loads(state_path.read_text())
        if state_path.exists()
        else {"size": 0, "root": edge_root([]).hex(), "edge": [], "open": {}, "ended": {}}
    )
    keys = {k["key_id"]: k["public_key"] for k in get(base, "/api/keys")["keys"]}
    head = get(base, "/api/log/head")
    size, root = head["size"], head["root"]
    public = keys.get(head["key_id"])
    payload = HEAD_PREFIX + f"{size}\n{root}".encode()
    if public is None or not ed25519_verify(
        bytes.fromhex(public), payload, bytes.fromhex(head["signature"])
    ):
        raise Broken(f"the head of size {size} is not signed by one of the server's keys")
    old_size, old_root = state["size"], state["root"]
    if size < old_size or (size == old_size and root != old_root):
        raise Broken(
            f"fork: the server signed head {size} {root}, this monitor kept {old_size} {old_root}"
        )
    if 0 < old_size < size:
        path = get(base, f"/api/log/consistency?first={old_size}&second={size}")["path"]
        if not consistent(
            old_size,
            size,
            bytes.fromhex(old_root),
            bytes.fromhex(root),
            [bytes.fromhex(h) for h in path],
        ):
            raise Broken(
                f"fork: head {size} does not extend head {old_size} (the consistency proof fails)"
            )
    edge = [[h, bytes.fromhex(x)] for h, x in state["edge"]]
    index = old_size
    while index < size:
        got = get(base, f"/api/log/entries?start={index}&end={min(size, index + 1000)}")["entries"]
        if not got:
            raise Broken(f"the log holds no entry {index} below its size {size}")
        for item in got:
            if item["index"] != index:
                raise Broken(f"entry {index} is missing")
            entry = check_entry(item["leaf"])
            table = entry["table"]
            if entry["kind"] == "table":
                if table in state["open"] or table in state["ended"]:
                    raise Broken(f"table {table} is logged twice")
                state["open"][table] = {"seen": time.time(), "leaf": item["leaf"]}
            else:
                if table not in state["open"]:
                    raise Broken(f"an end of table {table}, which the log does not hold open")
                opened = state["open"].pop(table)
                state["ended"][table] = {"status": entry["status"], "leaf": opened["leaf"]}
            edge_push(edge, leaf_hash(item["leaf"].encode()))
            index += 1
    if edge_root(edge).hex() != root:
        raise Broken(f"the entries do not hash to the signed root of size {size}")

    notes = []
    for table, ended in sorted(state["ended"].items()):
        if ended["status"] not in ("over", "aborted", "ended"):  # these publish a record
            notes.append(f"table {table} ended without finishing: {ended['status']}")
        elif records and not ended.get("checked"):
            record = get(base, f"/api/tables/{table}/record")
            logged = json.loads(ended["leaf"])
            if record.get("commitment") != logged["server_commitment"] or record.get(
                "commitments"
            ) != [s["commitment"] for s in logged["seats"]]:
                notes.append(f"table {table}: its record's commitments are not those it logged")
            ended["checked"] = True
    for table, opened in sorted(state["open"].items()):
        if time.time() - opened["seen"] > grace:
            notes.append(f"table {table} has had no end for {grace:.0f} s since it was logged")
    state.update(size=size, root=root, edge=[[h, x.hex()] for h, x in edge])
    state_path.write_text(json.dumps(state))
    print(
        f"one history of {size} entries, root {root[:16]}…; {len(state['open'])} table(s) "
        f"playing, {len(state['ended'])} ended"
    )
    return (1 if notes else 0), notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("server", help="the server's address, e.g. https://table.example")
    parser.add_argument("--state", type=Path, required=True, help="this monitor's state (JSON)")
    parser.add_argument(
        "--grace", type=float, default=86400.0, help="seconds a table may go without an end"
    )
    parser.add_argument("--records", action="store_true", help="check each finished table's record")
    args = parser.parse_args(argv)
    try:
        code, notes = run(args.server, args.state, args.grace, args.records)
    except Broken as exc:
        print(f"BROKEN: {exc}")
        return 2
    except (OSError, ValueError, KeyError) as exc:
        print(f"cannot read the log: {exc!r}")
        return 2
    for note in notes:
        print(f"LOOK: {note}")
    return code


if __name__ == "__main__":
    sys.exit(main())
