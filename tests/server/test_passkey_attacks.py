"""Passkeys against a real server with an authenticator made in the test (a P-256 key, attestation
``none``, the WebAuthn bytes built by hand as an authenticator builds them): a sign-in that
verifies, then the attacks docs/accounts.md#threat-model names — the same signed answer sent
again (its challenge is used), a challenge given for signing up used to sign in, an answer
signed for another site, and a copied authenticator whose counter does not grow — each refused
401 ``bad_passkey`` without a session."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
import httpx
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

from kit.env import seconds
from kit.servers import ThreadServer


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Authenticator:
    """One credential on a software authenticator, with its signature counter."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    credential_id: bytes = field(default_factory=lambda: os.urandom(16))
    count: int = 0

    def _client_data(self, kind: str, challenge: str, origin: str) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}
        return json.dumps(data).encode()

    def create(self, options: dict[str, Any], origin: str) -> dict[str, Any]:
        numbers = self.key.public_key().public_numbers()
        cose = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        auth_data = (
            hashlib.sha256(options["rp"]["id"].encode()).digest()
            + bytes([0x45])  # user present, verified, attested credential data
            + struct.pack(">I", self.count)
            + bytes(16)  # AAGUID
            + struct.pack(">H", len(self.credential_id))
            + self.credential_id
            + cose
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation),
            },
            "clientExtensionResults": {},
        }

    def get(self, options: dict[str, Any], origin: str, rp_id: str) -> dict[str, Any]:
        self.count += 1
        auth_data = (
            hashlib.sha256(rp_id.encode()).digest() + bytes([0x05]) + struct.pack(">I", self.count)
        )
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
            },
            "clientExtensionResults": {},
        }


def refused(answer: httpx.Response) -> bool:
    return (
        answer.status_code == 401
        and answer.json()["error"] == "bad_passkey"
        and "ludoteca_session" not in answer.headers.get("set-cookie", "")
    )


def test_a_passkey_answer_counts_once_for_its_purpose_site_and_counter(
    server: ThreadServer,
) -> None:
    origin, rp_id = server.base, "127.0.0.1"
    page = httpx.Client(base_url=origin, headers={"Origin": origin}, timeout=seconds(30))
    device = Authenticator()
    options = page.post("/api/passkeys/options", json={"name": "Kim"}).json()
    made = page.post("/api/passkeys", json={"credential": device.create(options, origin)})
    assert made.status_code == 201, made.text

    def signed_in(credential: dict[str, Any]) -> httpx.Response:
        return httpx.post(
            f"{origin}/api/passkeys/login",
            json={"credential": credential},
            headers={"Origin": origin},
            timeout=seconds(30),
        )

    asked = page.post("/api/passkeys/login-options").json()
    answer = device.get(asked, origin, rp_id)
    first = signed_in(answer)
    assert first.status_code == 200 and first.json() == {"name": "Kim"}, first.text

    # replayed: the very answer that signed in, sent again
    assert refused(signed_in(answer)), "a challenge is used once"

    # a challenge given for making a passkey, signed as a sign-in
    making = page.post("/api/passkeys/options", json={"name": "Other"}).json()
    assert refused(signed_in(device.get(making, origin, rp_id)))

    # signed for another site (its origin and its relying party)
    elsewhere = page.post("/api/passkeys/login-options").json()
    assert refused(signed_in(device.get(elsewhere, "https://evil.example", rp_id)))
    elsewhere = page.post("/api/passkeys/login-options").json()
    assert refused(signed_in(device.get(elsewhere, origin, "evil.example")))

    # a copy of the authenticator, its counter behind the one the server saw last
    copy = Authenticator(device.key, device.credential_id, count=0)
    fresh = page.post("/api/passkeys/login-options").json()
    assert refused(signed_in(copy.get(fresh, origin, rp_id))), "the counter must grow"

    # the real device, its counter ahead, still signs in
    again = page.post("/api/passkeys/login-options").json()
    assert signed_in(device.get(again, origin, rp_id)).status_code == 200
    page.close()
