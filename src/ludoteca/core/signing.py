"""Ed25519 signatures of finished match records (``docs/fairness.md``, "Signed records").

The server signs the canonical JSON of a record without its ``signature`` field; the record
carries the signature, the key's id and the public key itself, so anyone can check it offline, and
the server publishes its keys (current and retired) so anyone can check that a key is its own.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .fairness import fingerprint

ALGORITHM = "ed25519"


def key_id(public_hex: str) -> str:
    """A key's id: the first 16 hex digits of SHA-256 of its 32 raw public-key bytes."""
    return hashlib.sha256(bytes.fromhex(public_hex)).hexdigest()[:16]


def key_fingerprint(public_hex: str) -> str:
    """A key's fingerprint for reading aloud: 80 bits of SHA-256 of the raw public key."""
    return fingerprint(hashlib.sha256(bytes.fromhex(public_hex)).hexdigest())


@dataclass(frozen=True, slots=True)
class Signature:
    """A signature as a record carries it."""

    key_id: str
    public_key: str
    value: str
    alg: str = ALGORITHM

    def to_json(self) -> dict[str, str]:
        return {
            "alg": self.alg,
            "key_id": self.key_id,
            "public_key": self.public_key,
            "value": self.value,
        }

    @classmethod
    def from_json(cls, data: Any) -> Signature:
        if not isinstance(data, dict):
            raise ValueError("'signature' must be an object")
        fields = {}
        for name, size in (("key_id", 16), ("public_key", 64), ("value", 128)):
            text = data.get(name)
            if not (isinstance(text, str) and len(text) == size and _lower_hex(text)):
                raise ValueError(f"signature '{name}' must be {size} lowercase hex digits")
            fields[name] = text
        if data.get("alg") != ALGORITHM:
            raise ValueError(f"signature 'alg' must be '{ALGORITHM}'")
        extra = sorted(set(data) - {"alg", "key_id", "public_key", "value"})
        if extra:
            raise ValueError(f"unknown signature field(s) {', '.join(extra)}")
        return cls(fields["key_id"], fields["public_key"], fields["value"])

    def problem(self, payload: bytes) -> str | None:
        """Why this signature does not sign ``payload``, or None when it does."""
        if key_id(self.public_key) != self.key_id:
            return f"key id {self.key_id} is not the id of the public key it names"
        try:
            public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(self.public_key))
            public.verify(bytes.fromhex(self.value), payload)
        except (InvalidSignature, ValueError):
            return f"the signature by key {self.key_id} does not match the record's content"
        return None


class SigningKey:
    """A private Ed25519 key that signs records."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        raw = private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.public_key = raw.hex()
        self.key_id = key_id(self.public_key)

    def __repr__(self) -> str:  # never the private half
        return f"<SigningKey {self.key_id}>"

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_pem(cls, pem: bytes) -> SigningKey:
        private = serialization.load_pem_private_key(pem, password=None)
        if not isinstance(private, Ed25519PrivateKey):
            raise ValueError("not an Ed25519 private key")
        return cls(private)

    def to_pem(self) -> bytes:
        return self._private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )

    def sign(self, payload: bytes) -> Signature:
        return Signature(self.key_id, self.public_key, self._private.sign(payload).hex())


def _lower_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)
