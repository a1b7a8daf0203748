"""The verify page: a finished match's record, opened from the end panel, checks out step by step
(with SHA-256 of the secret computed in the browser, and the receipts the table page kept);
tampered records are rejected with the server's message, also when re-signed with another key so
that the later checks are reached."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kit.browser import Pages, play_heroes_by_clicks, set_name, start_from_home
from ludoteca.core import MatchRecord
from ludoteca.core.fairness import seed_fingerprint
from ludoteca.core.signing import SigningKey
from ludoteca.core.verify import CHECKS

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser
# the server's checks in its order (format 5), with the browser's own SHA-256 after the server's
# commitment
STEPS = [*CHECKS[:5], "browser", *CHECKS[5:]]


def resigned(record: dict[str, Any]) -> dict[str, Any]:
    """The record signed by a key of our own: its signature holds, the later checks decide."""
    signed: dict[str, Any] = MatchRecord.from_json(record).sign(SigningKey.generate()).to_json()
    return signed


def statuses(page: Page) -> dict[str, str]:
    found: dict[str, str] = page.eval_on_selector_all(
        ".step", "els => Object.fromEntries(els.map(e => [e.dataset.step, e.dataset.status]))"
    )
    return found


def check(page: Page, record: dict[str, Any]) -> str:
    page.fill("#record-text", json.dumps(record))
    page.click("#verify-button")
    page.wait_for_selector(".verdict")
    verdict: str = page.locator(".verdict").get_attribute("data-verdict") or ""
    return verdict


def test_finished_record_checks_out_and_tampered_ones_fail(pages: Pages, tmp_path: Path) -> None:
    page = pages.open("/")
    set_name(page, "Ana")
    start_from_home(page, "heroes")
    final = play_heroes_by_clicks(page, random.Random(2), check_lit=False)
    page.click(".end-panel a[href^='/verify?table=']")
    page.wait_for_url("**/verify?table=*")
    page.wait_for_selector(".verdict[data-verdict]")
    assert page.locator(".verdict").get_attribute("data-verdict") == "ok"
    assert statuses(page) == dict.fromkeys(STEPS, "ok")
    record = json.loads(page.input_value("#record-text"))
    assert record["seed"] == final["view"]["seed"]
    computed = page.locator("[data-computed]").inner_text()
    assert computed == hashlib.sha256(record["secret"].encode()).hexdigest() == record["commitment"]

    # an action changed: the server's signature fails first
    tampered = json.loads(json.dumps(record))
    tampered["actions"][0]["action"] = "place paladin camp"
    assert check(page, tampered) == "failed"
    assert statuses(page)["signature"] == "failed"
    assert statuses(page)["actions"] == "skipped"

    # re-signed: the replay stops at that step and says why
    assert check(page, resigned(tampered)) == "failed"
    assert statuses(page) == {
        "record": "ok",
        "signature": "ok",
        "seats": "ok",
        "prelude": "ok",
        "commitment": "ok",
        "browser": "ok",
        "reveal": "ok",
        "seed": "ok",
        "redeal": "ok",
        "actions": "failed",
        "chain": "skipped",
        "outcome": "skipped",
        "receipt": "skipped",
    }
    assert "step 1" in page.locator("[data-problem]").inner_text().lower()

    # the person's reveal changed: it no longer opens the commitment the seat published first;
    # format 5 says so at the table's history (its reveal event is the one that opened it), and
    # a format-4 record at the reveal check
    assert record["format"] == 5 and record["commitments"][0] and record["contributions"][0]
    tampered = resigned(dict(record, contributions=["other-seed", *record["contributions"][1:]]))
    assert check(page, tampered) == "failed"
    assert statuses(page)["prelude"] == "failed" and statuses(page)["reveal"] == "skipped"
    as_four = {k: v for k, v in tampered.items() if k != "prelude"} | {"format": 4}
    assert check(page, resigned(as_four)) == "failed"
    assert statuses(page)["reveal"] == "failed" and statuses(page)["seed"] == "skipped"

    # every step re-marked as a bot's and signed again: the seats check refuses it (format 4)
    tampered = resigned(dict(record, actions=[dict(a, by="bot") for a in record["actions"]]))
    assert check(page, tampered) == "failed"
    assert statuses(page)["seats"] == "failed" and statuses(page)["commitment"] == "skipped"
    assert "bot" in page.locator("[data-problem]").inner_text().lower()
    assert "commitment" in page.locator("[data-problem]").inner_text()

    # another secret: the browser's own SHA-256 no longer matches the commitment
    tampered = resigned(dict(record, secret="0" * 64))
    assert check(page, tampered) == "failed"
    assert statuses(page)["browser"] == "failed"
    assert statuses(page)["commitment"] == "failed"

    # the outcome changed: every action replays, the outcome differs
    tampered = json.loads(json.dumps(record))
    outcome = tampered["outcome"]
    outcome["winners"] = [] if outcome["winners"] else [0]
    outcome["draw"] = not outcome["winners"]
    assert check(page, resigned(tampered)) == "failed"
    assert statuses(page)["actions"] == "ok"
    assert statuses(page)["outcome"] == "failed"

    # the untouched record, uploaded as a file, checks out again
    upload = tmp_path / "record.json"
    upload.write_text(json.dumps(record))
    page.set_input_files("#record-file", str(upload))
    page.wait_for_selector(".verdict[data-verdict='ok']")
    assert statuses(page) == dict.fromkeys(STEPS, "ok")


def test_not_json_is_refused_in_the_browser(pages: Pages) -> None:
    page = pages.open("/verify")
    page.fill("#record-text", "{not json")
    page.click("#verify-button")
    page.wait_for_selector(".verdict[data-verdict='failed']")
    assert statuses(page) == {"record": "failed"}


def test_the_plain_sha256_matches_webcrypto_and_python(pages: Pages) -> None:
    """Over plain http on a LAN address WebCrypto is missing and the page's own SHA-256 runs."""
    page = pages.open("/verify")
    seeds = ["", "abc", "ludoteca", "é" * 40, "x" * 55, "y" * 56, "z" * 64, "0123456789" * 30]
    found = page.evaluate(
        """async ([seeds, fingerprints]) => {
          const fairness = await window.ludotecaModules.load("/static/js/fairness.js");
          const { sha256Plain, commitmentOf, fingerprintOf } = fairness;
          const out = [];
          for (const seed of seeds) {
            const plain = sha256Plain(new TextEncoder().encode(seed));
            const { hex } = await commitmentOf(seed);
            out.push([plain, hex, fingerprintOf(hex, fingerprints[out.length])]);
          }
          return out;
        }""",
        [seeds, [seed_fingerprint(seed) for seed in seeds]],
    )
    for seed, (plain, webcrypto, fingerprint) in zip(seeds, found, strict=True):
        expected = hashlib.sha256(seed.encode()).hexdigest()
        assert plain == webcrypto == expected
        assert fingerprint == seed_fingerprint(seed)
