"""The server's signing keys: made on first start, rotated without breaking older records."""

from __future__ import annotations

import hashlib
import stat
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ludoteca.bots.arena import play_match
from ludoteca.core import MatchRecord, verify
from ludoteca.games import get
from ludoteca.server.signing import KeyRing, rotate


def record(label: str) -> MatchRecord:
    secret = hashlib.sha256(label.encode()).hexdigest()
    return play_match(get("heroes"), 2, secret, ["random", "random"], table=label).record()


def test_a_first_key_is_made_private_and_published(tmp_path: Path) -> None:
    ring = KeyRing.load(tmp_path / "keys")
    (pem,) = (tmp_path / "keys").glob("*.pem")
    assert stat.S_IMODE(pem.stat().st_mode) == 0o600
    assert ring.current.key_id in pem.name
    assert KeyRing.load(tmp_path / "keys").current.public_key == ring.current.public_key
    (published,) = ring.published()
    assert published.retired_at is None and published.public_key == ring.current.public_key
    assert "PRIVATE" not in repr(ring.current) and ring.current.key_id in repr(ring.current)


def test_rotation_keeps_older_records_checking(tmp_path: Path) -> None:
    folder = tmp_path / "keys"
    old_ring = KeyRing.load(folder)
    old = old_ring.sign(record("before"))
    rotate(folder)
    ring = KeyRing.load(folder)
    new = ring.sign(record("after"))
    assert new.signature is not None and old.signature is not None
    assert new.signature.key_id != old.signature.key_id
    current, retired = ring.published()
    assert current.key_id == ring.current.key_id and current.retired_at is None
    assert retired.key_id == old.signature.key_id and retired.retired_at == current.created_at
    trusted = {k.public_key for k in ring.published()}
    for signed in (old, new):
        assert verify(signed.to_json(), get, trusted_keys=trusted).ok
    stranger = KeyRing.ephemeral().sign(record("stranger"))
    problems = verify(stranger.to_json(), get, trusted_keys=trusted).problems
    assert [p.check for p in problems] == ["signature"]


def test_processes_starting_at_once_make_one_key(tmp_path: Path) -> None:
    """Eight server processes (threads here, each opening the lock file on its own, as processes
    do) start on a fresh folder at the same instant: one key is made, and all sign with it."""
    folder = tmp_path / "keys"
    start = threading.Barrier(8)

    def load() -> str:
        start.wait()
        return KeyRing.load(folder).current.key_id

    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(lambda _: load(), range(8)))
    assert len(set(ids)) == 1
    assert len(list(folder.glob("*.pem"))) == 1


def test_every_process_signs_with_a_key_rotated_by_another(tmp_path: Path) -> None:
    folder = tmp_path / "keys"
    running = KeyRing.load(folder)  # a server process, started before the rotation
    first = running.current.key_id
    time.sleep(0.01)  # the folder's change time moves on (nanoseconds, but not every filesystem)
    _, newer = rotate(folder)  # `ludoteca keys rotate`, run beside it
    assert running.current.key_id == newer.key_id != first
    assert [k.key_id for k in running.published()] == [newer.key_id, first]
