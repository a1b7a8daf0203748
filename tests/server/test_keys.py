"""The server's signing keys: made on first start, rotated without breaking older records."""

from __future__ import annotations

import hashlib
import stat
from pathlib import Path

from ludoteca.bots.arena import play_match
from ludoteca.core import MatchRecord, verify
from ludoteca.games import get
from ludoteca.server.keys import KeyRing, rotate


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
