"""RFC 6962 / 9162 Merkle hashing (``core/merkle.py``): the reference vectors of Certificate
Transparency's own tests, then every proof of every tree up to 70 leaves checked and tampered
with, and the cached tree against the RFC's recursive definition."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.core import merkle
from ludoteca.core.merkle import MerkleTree, consistent, included, leaf_hash

# The leaves and roots of certificate-transparency's reference tests (RFC 6962 trees of 1-8).
LEAVES = [
    b"",
    b"\x00",
    b"\x10",
    b"\x20\x21",
    b"\x30\x31",
    b"\x40\x41\x42\x43",
    b"\x50\x51\x52\x53\x54\x55\x56\x57",
    bytes(range(0x60, 0x70)),
]
ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
H = {
    "96a2": "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
    "5f08": "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
    "6b47": "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    "bc1a": "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    "ca85": "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
    "0ebc": "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
}
INCLUSION = [  # (index, size, path)
    (0, 8, ["96a2", "5f08", "6b47"]),
    (5, 8, ["bc1a", "ca85", ROOTS[3]]),
    (2, 3, [ROOTS[1]]),
    (1, 5, [ROOTS[0], "5f08", "bc1a"]),
    (0, 1, []),
]
CONSISTENCY = [  # (first, second, path)
    (1, 1, []),
    (1, 8, ["96a2", "5f08", "6b47"]),
    (6, 8, ["0ebc", "ca85", ROOTS[3]]),
    (2, 5, ["5f08", "bc1a"]),
]


def _hex(names: list[str]) -> list[bytes]:
    return [bytes.fromhex(H.get(n, n)) for n in names]


def _tree(n: int) -> tuple[list[bytes], MerkleTree]:
    hashes = [leaf_hash(b"entry %d" % i) for i in range(n)]
    return hashes, MerkleTree(hashes)


def test_the_empty_tree_and_the_reference_roots() -> None:
    assert MerkleTree().root().hex() == hashlib.sha256(b"").hexdigest()
    hashes = [leaf_hash(x) for x in LEAVES]
    tree = MerkleTree(hashes)
    for size, root in enumerate(ROOTS, 1):
        assert tree.root(size).hex() == root
        assert merkle.root_of(hashes[:size]).hex() == root


@pytest.mark.parametrize(("index", "size", "path"), INCLUSION)
def test_reference_audit_paths(index: int, size: int, path: list[str]) -> None:
    hashes = [leaf_hash(x) for x in LEAVES]
    tree = MerkleTree(hashes)
    assert tree.audit_path(index, size) == _hex(path)
    assert merkle.audit_path(index, hashes[:size]) == _hex(path)
    assert included(index, size, hashes[index], _hex(path), bytes.fromhex(ROOTS[size - 1]))


@pytest.mark.parametrize(("first", "second", "path"), CONSISTENCY)
def test_reference_consistency_proofs(first: int, second: int, path: list[str]) -> None:
    hashes = [leaf_hash(x) for x in LEAVES]
    tree = MerkleTree(hashes)
    assert tree.consistency_path(first, second) == _hex(path)
    assert merkle.consistency_path(first, hashes[:second]) == _hex(path)
    first_root, second_root = (bytes.fromhex(ROOTS[s - 1]) for s in (first, second))
    assert consistent(first, second, first_root, second_root, _hex(path))


@pytest.mark.slow
def test_every_proof_of_every_tree_up_to_70() -> None:
    """Each inclusion and consistency proof for every size ≤ 70: the cached tree gives the RFC's
    proof, it checks, and it fails with any node changed, dropped or added, or at another index."""
    hashes, tree = _tree(70)
    for size in range(1, 71):
        root = tree.root(size)
        assert root == merkle.root_of(hashes[:size])
        for index in range(size):
            path = tree.audit_path(index, size)
            assert path == merkle.audit_path(index, hashes[:size])
            assert included(index, size, hashes[index], path, root)
            if size > 1:
                other = hashes[(index + 1) % size]
                assert not included(index, size, other, path, root)
                assert not included((index + 1) % size, size, hashes[index], path, root)
            assert not included(index, size, hashes[index], [*path, root], root)
            if path:
                assert not included(index, size, hashes[index], path[:-1], root)
                bent = [path[0][:-1] + bytes([path[0][-1] ^ 1]), *path[1:]]
                assert not included(index, size, hashes[index], bent, root)
        for first in range(size + 1):
            proof = tree.consistency_path(first, size)
            assert proof == merkle.consistency_path(first, hashes[:size])
            first_root = tree.root(first)
            assert consistent(first, size, first_root, root, proof)
            if 0 < first < size:
                assert not consistent(first, size, first_root, tree.root(size - 1), proof)
                wrong = leaf_hash(b"another history")
                assert not consistent(first, size, wrong, root, proof)
                assert not consistent(first, size, first_root, root, proof[:-1])
                assert not consistent(first, size, first_root, root, [*proof, root])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=8), min_size=1, max_size=70), st.data())
def test_any_leaves_any_sizes(leaves: list[bytes], data: st.DataObject) -> None:
    hashes = [leaf_hash(x) for x in leaves]
    tree = MerkleTree(hashes)
    size = data.draw(st.integers(1, len(leaves)))
    index = data.draw(st.integers(0, size - 1))
    first = data.draw(st.integers(0, size))
    root = tree.root(size)
    assert root == merkle.root_of(hashes[:size])
    assert included(index, size, hashes[index], tree.audit_path(index, size), root)
    assert consistent(first, size, tree.root(first), root, tree.consistency_path(first, size))


def test_bad_sizes_are_refused() -> None:
    _, tree = _tree(5)
    for call in (
        lambda: tree.root(6),
        lambda: tree.audit_path(5, 5),
        lambda: tree.audit_path(0, 0),
        lambda: tree.consistency_path(3, 2),
        lambda: tree.consistency_path(1, 9),
        lambda: tree.append(b"short"),
    ):
        with pytest.raises(ValueError):
            call()
    assert not consistent(3, 2, b"", b"", [])
    assert not consistent(2, 4, tree.root(2), tree.root(4), [])
