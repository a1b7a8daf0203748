"""The server's record-signing keys: a folder of Ed25519 private keys, newest signs.

Every process of one deployment reads the same folder (``--keys`` or ``LUDOTECA_KEYS``); a fresh
folder gets a key on first start. Rotating adds a newer key: it signs from then on, and the
older ones stay published (``GET /api/keys``) so records they signed still check against the
server's list. A key file is ``<created_at>-<key_id>.pem`` (PKCS#8, no password, mode 0600).
"""

from __future__ import annotations

import os
import time
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

    def __init__(self, keys: list[tuple[float, SigningKey]]) -> None:
        if not keys:
            raise ValueError("a key ring needs at least one key")
        self._keys = sorted(keys, key=lambda k: k[0], reverse=True)

    @property
    def current(self) -> SigningKey:
        return self._keys[0][1]

    def sign(self, record: MatchRecord) -> MatchRecord:
        return record.sign(self.current)

    def published(self) -> list[PublishedKey]:
        """Current key first; each older key retired when the next one was made."""
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
        """The keys in ``folder``; a first key is made there when it has none and ``create``."""
        keys = []
        for path in sorted(folder.glob("*.pem")) if folder.is_dir() else []:
            created = float(path.stem.split("-", 1)[0])
            keys.append((created, SigningKey.from_pem(path.read_bytes())))
        if not keys:
            if not create:
                raise FileNotFoundError(f"no signing keys in {folder}")
            return cls([rotate(folder)])
        return cls(keys)


def rotate(folder: Path) -> tuple[float, SigningKey]:
    """Make a new key in ``folder``; from now on it signs."""
    folder.mkdir(parents=True, exist_ok=True)
    key = SigningKey.generate()
    created = time.time()
    path = folder / f"{created:.6f}-{key.key_id}.pem"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(key.to_pem())
    return created, key
