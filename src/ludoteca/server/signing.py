"""The server's record-signing keys: a folder of Ed25519 private keys, newest signs.

Every process of one deployment reads the same folder (``--keys`` or ``LUDOTECA_KEYS``); a fresh
folder gets one key on first start, however many processes start at once (they take a lock).
Rotating adds a newer key: every process notices it (the folder changed) and signs with it from
then on, and the older ones stay published (``GET /api/keys``) so records they signed still
check against the server's list. A key file is ``<created_at>-<key_id>.pem`` (PKCS#8, no
password, mode 0600).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ludoteca.core import MatchRecord, SigningKey


@dataclass(frozen=True, slots=True)
class PublishedKey:
    key_id: str
    public_key: str
    created_at: float
    retired_at: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "key_id": self.key_id,
            "public_key": self.public_key,
            "alg": "ed25519",
            "created_at": self.created_at,
            "retired_at": self.retired_at,
        }


class KeyRing:
    """The keys in one folder; ``current`` signs, all are published."""

    def __init__(self, keys: list[tuple[float, SigningKey]], folder: Path | None = None) -> None:
        if not keys:
            raise ValueError("a key ring needs at least one key")
        self._keys = sorted(keys, key=lambda k: k[0], reverse=True)
        self.folder = folder
        self._seen = _stamp(folder)

    def _refresh(self) -> None:
        """Read the folder again if a key was added since (by ``ludoteca keys rotate``)."""
        stamp = _stamp(self.folder)
        if self.folder is not None and stamp != self._seen:
            found = _read(self.folder)
            if found:
                self._keys = sorted(found, key=lambda k: k[0], reverse=True)
            self._seen = stamp

    @property
    def current(self) -> SigningKey:
        self._refresh()
        return self._keys[0][1]

    def sign(self, record: MatchRecord) -> MatchRecord:
        return record.sign(self.current)

    def published(self) -> list[PublishedKey]:
        """Current key first; each older key retired when the next one was made."""
        self._refresh()
        found = []
        retired: float | None = None
        for created, key in self._keys:
            found.append(PublishedKey(key.key_id, key.public_key, created, retired))
            retired = created
        return found

    @classmethod
    def ephemeral(cls) -> KeyRing:
        """One fresh key that lives as long as the process (tests, throwaway servers)."""
        return cls([(time.time(), SigningKey.generate())])

    @classmethod
    def load(cls, folder: Path, *, create: bool = True) -> KeyRing:
        """The keys in ``folder``; a first key is made there when it has none and ``create`` (one
        key, even when several processes start at once)."""
        keys = _read(folder)
        if not keys:
            if not create:
                raise FileNotFoundError(f"no signing keys in {folder}")
            with _locked(folder):
                keys = _read(folder) or [rotate(folder)]
        return cls(keys, folder)


def _read(folder: Path) -> list[tuple[float, SigningKey]]:
    keys = []
    for path in sorted(folder.glob("*.pem")) if folder.is_dir() else []:
        created = float(path.stem.split("-", 1)[0])
        keys.append((created, SigningKey.from_pem(path.read_bytes())))
    return keys


def _stamp(folder: Path | None) -> int | None:
    if folder is None:
        return None
    try:
        return folder.stat().st_mtime_ns
    except OSError:
        return None


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the folder's lock file (processes making the first key wait for each other)."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / ".lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def rotate(folder: Path) -> tuple[float, SigningKey]:
    """Make a new key in ``folder``; from now on it signs."""
    folder.mkdir(parents=True, exist_ok=True)
    key = SigningKey.generate()
    created = time.time()
    path = folder / f"{created:.6f}-{key.key_id}.pem"
    # Written beside its name, then renamed: a process reading the folder without the lock (every
    # one but the first to start) sees a whole key or none, never a file still being written.
    partial = path.with_suffix(".partial")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(key.to_pem())
        file.flush()
        os.fsync(file.fileno())
    os.rename(partial, path)
    return created, key
