"""Merkle trees as RFC 6962 / RFC 9162 define them, for the public log of tables (``docs/log.md``).

A leaf's hash is ``SHA-256(0x00 || leaf)``, an inner node's ``SHA-256(0x01 || left || right)``;
the tree of ``n`` leaves splits at ``k``, the largest power of two below ``n``; the tree of no
leaves has the hash of the empty string. ``audit_path`` / ``root_from_audit_path`` are RFC 9162
section 2.1.3 (inclusion), ``consistency_path`` / ``consistent`` section 2.1.4 (consistency).

Everything here is pure. The functions taking a list of leaf hashes recompute what they need;
:class:`MerkleTree` keeps every complete subtree's hash, so that appending is O(1) amortised
and a root or a proof of a tree of a million leaves costs a few dozen hashes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n ≥ 2)."""
    return 1 << ((n - 1).bit_length() - 1)


class MerkleTree:
    """An append-only tree of leaf hashes. ``levels[h][i]`` is the hash of the complete subtree
    of leaves ``[i·2^h, (i+1)·2^h)``, kept as soon as it is complete."""

    __slots__ = ("levels",)

    def __init__(self, hashes: Sequence[bytes] = ()) -> None:
        self.levels: list[list[bytes]] = [[]]
        for h in hashes:
            self.append(h)

    def __len__(self) -> int:
        return len(self.levels[0])

    def append(self, hashed: bytes) -> int:
        """Add a leaf hash; returns its index."""
        if len(hashed) != HASH_SIZE:
            raise ValueError(f"a leaf hash is {HASH_SIZE} bytes, not {len(hashed)}")
        index = len(self.levels[0])
        self.levels[0].append(hashed)
        level, i = 0, index
        while i % 2 == 1:  # a right child completes its parent
            row = self.levels[level]
            if len(self.levels) == level + 1:
                self.levels.append([])
            self.levels[level + 1].append(node_hash(row[i - 1], row[i]))
            level, i = level + 1, i // 2
        return index

    def leaf(self, index: int) -> bytes:
        return self.levels[0][index]

    def _subtree(self, start: int, end: int) -> bytes:
        """MTH of leaves ``[start, end)`` (within the tree)."""
        n = end - start
        if n == 0:
            return EMPTY_ROOT
        if n & (n - 1) == 0 and start % n == 0:  # a complete subtree: kept
            return self.levels[n.bit_length() - 1][start // n]
        k = split(n)
        return node_hash(self._subtree(start, start + k), self._subtree(start + k, end))

    def _check(self, size: int) -> None:
        if not 0 <= size <= len(self):
            raise ValueError(f"the log holds {len(self)} entries: no tree of size {size}")

    def root(self, size: int | None = None) -> bytes:
        """The root of the first ``size`` leaves (default: all)."""
        size = len(self) if size is None else size
        self._check(size)
        return self._subtree(0, size)

    def audit_path(self, index: int, size: int | None = None) -> list[bytes]:
        """The inclusion proof of leaf ``index`` in the tree of the first ``size`` leaves."""
        size = len(self) if size is None else size
        self._check(size)
        if not 0 <= index < size:
            raise ValueError(f"entry {index} is not in a tree of size {size}")
        return self._path(index, 0, size)

    def _path(self, m: int, start: int, end: int) -> list[bytes]:
        n = end - start
        if n == 1:
            return []
        k = split(n)
        if m < k:
            return [*self._path(m, start, start + k), self._subtree(start + k, end)]
        return [*self._path(m - k, start + k, end), self._subtree(start, start + k)]

    def consistency_path(self, first: int, second: int | None = None) -> list[bytes]:
        """The proof that the tree of size ``first`` is a prefix of the one of size ``second``."""
        second = len(self) if second is None else second
        self._check(second)
        if not 0 <= first <= second:
            raise ValueError(f"first ({first}) must be between 0 and second ({second})")
        if first in (0, second):
            return []
        return self._subproof(first, 0, second, True)

    def _subproof(self, m: int, start: int, end: int, whole: bool) -> list[bytes]:
        n = end - start
        if m == n:
            return [] if whole else [self._subtree(start, end)]
        k = split(n)
        if m <= k:
            return [*self._subproof(m, start, start + k, whole), self._subtree(start + k, end)]
        return [*self._subproof(m - k, start + k, end, False), self._subtree(start, start + k)]


# ------------------------------------------------------------- on plain lists (the reference)
def root_of(hashes: Sequence[bytes]) -> bytes:
    """MTH of a list of leaf hashes, straight from the RFC's definition."""
    n = len(hashes)
    if n == 0:
        return EMPTY_ROOT
    if n == 1:
        return hashes[0]
    k = split(n)
    return node_hash(root_of(hashes[:k]), root_of(hashes[k:]))


def audit_path(index: int, hashes: Sequence[bytes]) -> list[bytes]:
    """PATH(m, D[n]) of RFC 6962 section 2.1.1."""
    n = len(hashes)
    if not 0 <= index < n:
        raise ValueError(f"entry {index} is not in a tree of size {n}")
    if n == 1:
        return []
    k = split(n)
    if index < k:
        return [*audit_path(index, hashes[:k]), root_of(hashes[k:])]
    return [*audit_path(index - k, hashes[k:]), root_of(hashes[:k])]


def consistency_path(first: int, hashes: Sequence[bytes]) -> list[bytes]:
    """PROOF(m, D[n]) of RFC 6962 section 2.1.2."""
    n = len(hashes)
    if not 0 <= first <= n:
        raise ValueError(f"first ({first}) must be between 0 and second ({n})")
    if first in (0, n):
        return []

    def sub(m: int, d: Sequence[bytes], whole: bool) -> list[bytes]:
        if m == len(d):
            return [] if whole else [root_of(d)]
        k = split(len(d))
        if m <= k:
            return [*sub(m, d[:k], whole), root_of(d[k:])]
        return [*sub(m - k, d[k:], False), root_of(d[:k])]

    return sub(first, hashes, True)


# ------------------------------------------------------------------ checks (what a client runs)
def root_from_audit_path(index: int, size: int, hashed: bytes, path: Sequence[bytes]) -> bytes:
    """The root that ``path`` proves leaf hash ``hashed`` at ``index`` is under (RFC 9162
    2.1.3.2); ValueError when the path cannot be one of a tree of ``size``."""
    if not 0 <= index < size:
        raise ValueError(f"entry {index} is not in a tree of size {size}")
    fn, sn, r = index, size - 1, hashed
    for p in path:
        if sn == 0:
            raise ValueError("the audit path is too long")
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ValueError("the audit path is too short")
    return r


def included(index: int, size: int, hashed: bytes, path: Sequence[bytes], root: bytes) -> bool:
    """Whether ``path`` proves leaf hash ``hashed`` is entry ``index`` of the tree ``root``."""
    try:
        return root_from_audit_path(index, size, hashed, path) == root
    except ValueError:
        return False


def consistent(
    first: int, second: int, first_root: bytes, second_root: bytes, path: Sequence[bytes]
) -> bool:
    """Whether ``path`` proves the tree (``first``, ``first_root``) is a prefix of the tree
    (``second``, ``second_root``) (RFC 9162 2.1.4.2)."""
    if not 0 <= first <= second:
        return False
    if first == second:
        return not path and first_root == second_root
    if first == 0:
        return not path and first_root == EMPTY_ROOT
    if not path:
        return False
    proof = list(path)
    if first & (first - 1) == 0:  # a power of two: the first tree is itself a node of the path
        proof.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn % 2 == 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == first_root and sr == second_root


__all__ = [
    "EMPTY_ROOT",
    "HASH_SIZE",
    "MerkleTree",
    "audit_path",
    "consistency_path",
    "consistent",
    "included",
    "leaf_hash",
    "node_hash",
    "root_from_audit_path",
    "root_of",
]
