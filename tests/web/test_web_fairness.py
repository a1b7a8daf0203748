"""Fairness at the web table (issues 14 and 25): the person's own seed is made and shown with its
commitment, committed before the deal and revealed only once the commitments are closed, and it
lands in the record (format 3); a typed seed is used; a starting table says whose commitment, then
whose reveal, it waits for and counts down; the end panel shows the secret, every contribution and
commitment, the chain head and the key, and its one-click check passes; the receipts the page kept
verify the record, and a record that differs from what the page was shown fails, even re-signed
with another key."""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from test_web_audit import SERIOUS, serious
from test_web_verify import STEPS, statuses

from kit.browser import Pages, play_heroes_by_clicks, state
from kit.env import seconds
from kit.servers import ServerProcess
from ludoteca.core import Match, MatchRecord
from ludoteca.core.fairness import contribution_problem, seat_commitment
from ludoteca.core.signing import SigningKey
from ludoteca.games import get

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser
HEX32 = re.compile(r"[0-9a-f]{32}")
FORMAT_1 = Path(__file__).resolve().parents[1] / "core" / "format1" / "heroes-2p-00000.json"


def check(page: Page, record: dict[str, Any], receipts: str = "") -> str:
    page.fill("#record-text", json.dumps(record))
    page.fill("#receipts-text", receipts)
    page.click("#verify-button")
    page.wait_for_selector(".verdict")
    verdict: str = page.locator(".verdict").get_attribute("data-verdict") or ""
    return verdict


def post(web_server: ServerProcess, table_id: str, path: str, token: str, body: Any) -> Any:
    request = urllib.request.Request(
        f"{web_server.base}/api/tables/{table_id}/{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request, timeout=seconds(10)) as answer:
        return json.load(answer)


def no_serious_violation(page: Page, within: str | None = None) -> None:
    """axe-core as the audit runs it, over the page or only the part ``within`` (the new parts
    of the table: a board's own findings belong to the audit)."""
    if within is None:
        assert serious(page) == []
        return
    results = Axe().run(page, context=within, options={"resultTypes": ["violations"]})
    found = results.response["violations"]
    assert [v["id"] for v in found if v["impact"] in SERIOUS] == []


def test_own_seed_to_the_end_panel_and_receipts_on_the_verify_page(
    pages: Pages, web_server: ServerProcess, tmp_path: Path
) -> None:
    # two seats for people: the table stays open until Ana starts it (seat 2 then a bot)
    created = web_server.post("/api/tables", {"game": "heroes", "seats": [{}, {}]})
    table_id = created["table"]["id"]
    page = pages.open(f"/table/{table_id}")
    page.fill("#guest-name", "Ana")  # a guest names themself first
    page.click("[data-key='join-0']")

    # the page made a seed and a salt, shows the seed and its commitment and sends only the
    # commitment: the table shows it for seat 0, and nothing is revealed
    page.wait_for_selector("[data-deal-sent='committed']")
    made = page.input_value("#deal-seed")
    assert HEX32.fullmatch(made)
    own = page.evaluate("() => JSON.parse(localStorage.getItem('ludoteca.seeds'))")[table_id]
    assert own["seed"] == made and HEX32.fullmatch(own["salt"])
    shown = page.locator("[data-deal-commitment]").inner_text()
    assert shown == seat_commitment(made, own["salt"])
    seat = state(page)["table"]["seats"][0]
    assert seat["commitment"] == shown and seat["contributed"] is False
    assert page.locator(".deal-panel h2").inner_text() == "Your seed for this deal"
    no_serious_violation(page)

    # a seed the server would refuse is refused here, and nothing is sent
    page.fill("#deal-seed", "two words")
    page.click("[data-key='deal-use']")
    assert "without spaces" in page.locator("[data-deal-problem]").inner_text()
    assert page.locator("#deal-seed").get_attribute("aria-invalid") == "true"

    # the person's own seed replaces the page's, and a reload keeps it
    typed = "Ana's-own:seed#42"
    page.fill("#deal-seed", typed)
    page.click("[data-key='deal-use']")
    typed_commitment = seat_commitment(typed, own["salt"])
    page.wait_for_function(
        "(c) => window.__ludoteca.state.table.seats[0].commitment === c", arg=typed_commitment
    )
    page.wait_for_selector("[data-deal-sent='committed']")
    assert page.locator("[data-deal-problem]").count() == 0
    page.reload()
    page.wait_for_selector("[data-deal-sent='committed']")
    assert page.input_value("#deal-seed") == typed

    # the start: Ana's is the only commitment wanted, so the reveals open at once; the page
    # reveals by itself and the table deals
    page.click("[data-key='start']")
    final = play_heroes_by_clicks(page, random.Random(5), check_lit=False)
    view = final["view"]
    assert view["contributions"] == [typed, None]
    assert view["commitments"] == [typed_commitment, None]

    # the end panel: the proof folded below the result; unfolded: secret, commitment,
    # fingerprint, contributions (mine marked), seed, chain
    assert page.locator(".end-panel .proof-fold:not([open])").count() == 1
    page.click(".end-panel .proof-fold > summary")
    end = page.locator(".end-panel .proof")
    end.wait_for()
    assert end.locator("[data-secret]").inner_text() == view["secret"]
    assert hashlib.sha256(view["secret"].encode()).hexdigest() == view["commitment"]
    assert end.locator("[data-commitment]").inner_text() == view["commitment"]
    assert end.locator("[data-proof-fingerprint]").inner_text() == final["table"]["fingerprint"]
    assert "first 80 bits of the commitment" in end.inner_text()
    mine = end.locator(".proof-contribution.mine")
    assert mine.locator("[data-contribution]").inner_text() == typed
    assert mine.locator("[data-seat-commitment]").inner_text() == typed_commitment
    assert mine.locator(".you-badge").count() == 1
    assert "a bot" in end.locator(".proof-contribution[data-seat='1']").inner_text()
    assert end.locator("[data-seed]").inner_text() == view["seed"]
    assert end.locator("[data-chain]").inner_text() == view["chain"] == final["chain"]
    keys = web_server.get("/api/keys")["keys"]
    end.locator("[data-key-id]").wait_for()
    assert end.locator("[data-key-id]").inner_text() == keys[0]["key_id"]

    # the page kept a receipt per version it was shown, at most one per version, and before the
    # deal one per head of the table's history it was shown (format 5), those first
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('ludoteca.receipts'))")[table_id]
    receipts = kept["list"]
    assert receipts[-1] == {"table": table_id, "version": final["version"], "chain": view["chain"]}
    before = [r["prelude"] for r in receipts if "prelude" in r]
    assert before and before == sorted(set(before))
    assert all("prelude" in r for r in receipts[: len(before)])
    versions = [r["version"] for r in receipts[len(before) :]]
    assert versions == sorted(set(versions))
    assert end.locator("[data-receipts]").get_attribute("data-receipts") == str(len(receipts))

    # one click: the signed record checks out against every receipt
    end.locator("[data-key='proof-check']").click()
    result = end.locator("[data-proof-verdict]")
    result.wait_for()
    assert result.get_attribute("data-proof-verdict") == "ok", result.inner_text()
    assert f"(receipts checked: {len(receipts)})" in result.inner_text()
    no_serious_violation(page, within=".end-panel")

    # the receipts as a file
    with page.expect_download() as download:
        end.locator("[data-key='proof-download']").click()
    saved = tmp_path / "receipts.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text()) == receipts

    # the verify page takes this table's receipts from the browser on its own
    page.click(".end-panel a[href^='/verify?table=']")
    page.wait_for_url("**/verify?table=*")
    page.wait_for_selector(".verdict[data-verdict]")
    assert page.locator(".verdict").get_attribute("data-verdict") == "ok"
    assert statuses(page) == dict.fromkeys(STEPS, "ok")
    assert str(len(receipts)) in page.locator("[data-receipt-detail]").inner_text()
    assert page.locator("[data-signing-key]").inner_text() == keys[0]["key_id"]
    assert page.locator("[data-key-published]").get_attribute("data-key-published") == "yes"
    record = json.loads(page.input_value("#record-text"))
    assert record["format"] == 5 and record["contributions"] == [typed, None]
    assert record["commitments"] == [typed_commitment, None]
    assert record["salts"] == [own["salt"], None]
    assert page.locator("[data-computed]").inner_text() == record["commitment"]
    no_serious_violation(page)

    # a receipt the table never showed: the receipt check fails at its version
    forged_receipt = dict(receipts[len(before) + 1], chain="0" * 64)
    assert check(page, record, json.dumps(forged_receipt)) == "failed"
    assert statuses(page)["outcome"] == "ok" and statuses(page)["receipt"] == "failed"
    assert f"version {forged_receipt['version']}" in page.locator("[data-problem]").inner_text()

    # a name changed: the server's signature no longer matches
    renamed = json.loads(json.dumps(record))
    renamed["players"][0]["name"] = "Bia"
    for event in renamed["prelude"]:  # and where the table's history seats her (format 5)
        if event["event"] == "sit" and event["seat"] == 0:
            event["name"] = "Bia"
    assert check(page, renamed) == "failed"
    assert statuses(page)["signature"] == "failed"

    # the same change re-signed with someone else's key: the signature is whole, but it is not a
    # key this server publishes, and the receipts the page kept (and the file) reject it
    forged = MatchRecord.from_json(renamed)
    forged.chain = Match.replay(
        get(forged.game), forged.params, forged.deal(), forged.players, forged.actions
    ).chain[-1]
    resigned = forged.sign(SigningKey.generate()).to_json()
    assert check(page, resigned) == "failed"
    assert statuses(page)["signature"] == "ok" and statuses(page)["receipt"] == "failed"
    assert page.locator("[data-key-published]").get_attribute("data-key-published") == "no"
    page.fill("#receipts-text", "")
    # the verdict on screen is "failed" already: mark it, so as to wait for the new one
    page.eval_on_selector(".verdict", "el => { el.dataset.seen = 'yes'; }")
    page.set_input_files("#receipts-file", str(saved))
    page.wait_for_selector(".verdict:not([data-seen])[data-verdict='failed']")
    page.wait_for_selector(".step[data-step='receipt']")
    assert statuses(page)["receipt"] == "failed"

    # receipts that are not receipts are refused before anything is checked
    page.fill("#record-text", json.dumps(record))
    page.fill("#receipts-text", '[{"table": "x"}]')
    page.click("#verify-button")
    assert "64-digit" in page.locator("[data-receipt-error]").inner_text()
    assert page.locator(".verdict").count() == 0


def test_a_starting_table_waits_for_seeds_and_counts_down(
    pages: Pages, web_server: ServerProcess
) -> None:
    created = web_server.post(
        "/api/tables", {"game": "dice-heroes", "seats": [{}, {}], "name": "Ana"}
    )
    table_id, ana = created["table"]["id"], created["token"]
    page = pages.open(f"/table/{table_id}", locale="de-DE")
    page.fill("#guest-name", "Bruno")  # a guest names themself first
    page.click("[data-key='join-1']")  # the last free seat: the table starts by itself
    page.wait_for_selector("[data-deal-sent='committed']")

    # Ana's client sent nothing: the commitments wait for hers, at most the timeout
    page.wait_for_selector(".deal-panel[data-status='starting'] [data-deal-countdown]")
    assert page.locator("[data-deal-waits]").inner_text() == (
        "Das Austeilen wartet auf die Festlegung von Ana."
    )
    left = int(re.findall(r"\d+", page.locator("[data-deal-countdown]").inner_text())[0])
    timeout = float(web_server.env["LUDOTECA_CONTRIBUTION_SECONDS"])  # stretched when busy
    assert 1 <= left <= math.ceil(timeout)
    chip = page.locator(".status-chip").inner_text()
    assert chip == "startet: wartet auf die Startwerte der Plätze"
    no_serious_violation(page)

    # her commitment arrives over HTTP: the reveals open, the page reveals by itself, and the
    # deal waits for Ana's reveal
    salt = "9" * 32
    post(web_server, table_id, "commit", ana, {"commitment": seat_commitment("ana-seed", salt)})
    page.wait_for_selector("[data-deal-sent='revealed']")
    assert page.locator("[data-deal-waits]").inner_text() == (
        "Das Austeilen wartet, bis Ana aufdeckt."
    )
    assert state(page)["table"]["revealing"] is True

    # her reveal arrives: the table deals at once, from both seeds
    post(web_server, table_id, "reveal", ana, {"seed": "ana-seed", "salt": salt})
    page.wait_for_function("() => window.__ludoteca.state.view !== null")
    page.wait_for_selector(".board-root > *")
    s = state(page)
    assert page.locator(".deal-panel").count() == 0
    assert s["table"]["status"] == "playing"
    assert all(seat["contributed"] for seat in s["table"]["seats"])
    mine = page.evaluate("() => JSON.parse(localStorage.getItem('ludoteca.seeds'))")[table_id]
    assert s["view"]["contributions"] == ["ana-seed", mine["seed"]]
    assert s["view"]["commitments"][1] == seat_commitment(mine["seed"], mine["salt"])


def test_a_format_1_record_says_what_it_cannot_prove(pages: Pages) -> None:
    page = pages.open("/verify", locale="pt-BR")
    record = json.loads(FORMAT_1.read_text())
    assert check(page, record) == "ok"
    assert statuses(page) == dict.fromkeys(
        ["record", "commitment", "browser", "redeal", "actions", "outcome"], "ok"
    )
    notes = page.locator("[data-notes]")
    assert "formato 1" in notes.inner_text()
    assert page.locator("[data-key-facts]").count() == 0
    no_serious_violation(page)


def test_the_page_checks_seeds_as_the_server_does_and_bounds_its_receipts(pages: Pages) -> None:
    page = pages.open("/verify")
    seeds = [
        "a",
        "x" * 64,
        "x" * 65,
        "",
        "two words",
        "tab\there",
        "end\n",
        "é",
        "~!#$%^&*()",
        "\x7f",
    ]
    found = page.evaluate(
        """async (seeds) => {
          const deal = "/static/js/table/deal.js";
          const { seedProblem, newSeed } = await window.ludotecaModules.load(deal);
          return { problems: seeds.map((s) => seedProblem(s)), made: [newSeed(), newSeed()] };
        }""",
        seeds,
    )
    assert [p is None for p in found["problems"]] == [
        contribution_problem(s) is None for s in seeds
    ]
    assert found["problems"][2:5] == ["long", "empty", "chars"]
    first, second = found["made"]
    assert HEX32.fullmatch(first) and HEX32.fullmatch(second) and first != second

    kept = page.evaluate(
        """async () => {
          const receipts = await window.ludotecaModules.load("/static/js/receipts.js");
          const { keepReceipt, receiptsFor, PER_TABLE, MAX_TABLES } = receipts;
          const chain = (n) => n.toString(16).padStart(64, "0");
          for (let v = 0; v < PER_TABLE + 30; v += 1) keepReceipt("long", v, chain(v));
          keepReceipt("long", 5, chain(5));  // shown again: kept once
          keepReceipt("long", 1, "not a chain");  // not a receipt: ignored
          const long = receiptsFor("long");
          for (let t = 0; t < MAX_TABLES + 5; t += 1) keepReceipt(`t${t}`, 0, chain(t));
          const all = JSON.parse(localStorage.getItem("ludoteca.receipts"));
          return {
            count: long.length, first: long[0].version, tables: Object.keys(all).length,
            newest: receiptsFor(`t${MAX_TABLES + 4}`).length, oldest: receiptsFor("long").length,
          };
        }"""
    )
    assert kept == {"count": 200, "first": 30, "tables": 50, "newest": 1, "oldest": 0}


# The page's socket, slowed: every commit and reveal it sends is counted at once and reaches the
# server a second later, so the table's state messages of that second (the other person's
# commitment, then her reveal) still show this seat without it.
SLOW_SEEDS = """
(() => {
  const real = WebSocket.prototype.send;
  window.__seedSends = [];
  WebSocket.prototype.send = function (text) {
    const message = JSON.parse(text);
    const type = message.type === "hello" && message.commitment ? "hello+commitment" : message.type;
    if (!["commit", "reveal", "hello+commitment"].includes(type)) return real.call(this, text);
    window.__seedSends.push(type);
    setTimeout(() => real.call(this, text), 1000);
  };
})();
"""


def test_the_page_sends_its_commitment_and_reveal_once_per_connection(
    pages: Pages, web_server: ServerProcess
) -> None:
    """The friend who joins by an invite saw "Something went wrong": her page sent its reveal
    again on every state message until the server had applied the first, and the second one
    arrived after the deal (``already_dealt``). Each is sent once per connection now, and the
    server accepts the same reveal twice anyway."""
    created = web_server.post(
        "/api/tables", {"game": "dice-heroes", "seats": [{}, {}], "name": "Ana"}
    )
    table_id, ana = created["table"]["id"], created["token"]
    page = pages.open(f"/table/{table_id}")
    page.add_init_script(SLOW_SEEDS)
    page.reload()
    page.wait_for_selector("[data-key='join-1']")
    page.fill("#guest-name", "Bruno")  # a guest names themself first
    page.click("[data-key='join-1']")  # the last free seat: the table starts by itself

    def sends() -> list[str]:
        found: list[str] = page.evaluate("() => window.__seedSends")
        return found

    # the page's commitment is on its way (with the hello of its seat): Ana commits meanwhile,
    # and the page is told
    page.wait_for_function("() => window.__seedSends.includes('hello+commitment')")
    salt = "7" * 32
    post(web_server, table_id, "commit", ana, {"commitment": seat_commitment("ana-seed", salt)})
    # the page's commitment lands: the reveals open; its reveal is on its way when Ana reveals
    page.wait_for_function("() => window.__seedSends.includes('reveal')")
    post(web_server, table_id, "reveal", ana, {"seed": "ana-seed", "salt": salt})
    page.wait_for_function("() => window.__ludoteca.state.view !== null")
    page.wait_for_timeout(1500)  # anything sent twice would arrive within a second
    assert sends() == ["hello+commitment", "reveal"]
    assert page.evaluate("() => window.__ludoteca.errors") == []
    assert page.locator(".toast, [role='alert']").filter(has_text="wrong").count() == 0
    s = state(page)
    assert s["table"]["status"] == "playing"
    assert all(seat["contributed"] for seat in s["table"]["seats"])

    # the same reveal again is accepted and changes nothing; a different one is refused
    again = post(web_server, table_id, "reveal", ana, {"seed": "ana-seed", "salt": salt})
    assert again is not None
    with pytest.raises(urllib.error.HTTPError) as refused:
        post(web_server, table_id, "reveal", ana, {"seed": "other", "salt": salt})
    assert json.load(refused.value)["error"] == "bad_reveal"


@pytest.mark.solo  # kills and restarts its own server under a live page: alone, not beside the lane
def test_the_page_says_plainly_when_the_table_changed_what_it_showed(
    browser: Any, tmp_path: Path
) -> None:
    """The operator writes its own database in the reveal window (issue 38's "frame" and
    "secret"): after the person's page revealed, it replaces her commitment, erases her reveal and
    replaces the server's commitment, in the seats and in the table's history before the deal,
    then restarts the server. The page, reconnecting, does not reveal again against another
    secret, and says plainly what changed, the history it checked included."""
    server = ServerProcess(tmp_path, env={"LUDOTECA_CONTRIBUTION_SECONDS": "60"}).start()
    opened = Pages(browser, server.base)
    try:
        created = server.post(
            "/api/tables", {"game": "dice-heroes", "seats": [{}, {}], "name": "Ana"}
        )
        table_id, ana = created["table"]["id"], created["token"]
        page = opened.open(f"/table/{table_id}")
        page.fill("#guest-name", "Bruno")  # a guest names themself first
        page.click("[data-key='join-1']")  # the last free seat: the table starts
        page.wait_for_selector("[data-deal-sent='committed']")
        salt = "3" * 32
        post(server, table_id, "commit", ana, {"commitment": seat_commitment("ana-seed", salt)})
        page.wait_for_selector("[data-deal-sent='revealed']")  # the table took her reveal
        assert page.locator("[data-fair-problem]").count() == 0
        shown = state(page)["table"]["commitment"]

        server.kill()
        forged = seat_commitment("puppet", "4" * 32)
        secret = "5" * 64
        with sqlite3.connect(tmp_path / "db.sqlite3") as db:
            db.execute(
                "UPDATE seats SET commitment = ?, contribution = NULL, salt = NULL "
                "WHERE table_id = ? AND seat = 1",
                (forged, table_id),
            )
            db.execute(
                "UPDATE tables SET seed = ?, commitment = ? WHERE id = ?",
                (secret, hashlib.sha256(secret.encode()).hexdigest(), table_id),
            )
            # and its history before the deal, in place (format 5): the creation, her commitment,
            # without her reveal
            rows = db.execute(
                "SELECT seq, event FROM prelude WHERE table_id = ? ORDER BY seq", (table_id,)
            ).fetchall()
            for seq, text in rows:
                event = json.loads(text)
                if event["event"] == "create":
                    event["commitment"] = hashlib.sha256(secret.encode()).hexdigest()
                if event["event"] == "commit" and event["seat"] == 1:
                    event["commitment"] = forged
                db.execute(
                    "UPDATE prelude SET event = ? WHERE table_id = ? AND seq = ?",
                    (json.dumps(event), table_id, seq),
                )
            db.execute(
                "DELETE FROM prelude WHERE table_id = ? AND event LIKE '%\"reveal\"%' "
                "AND event LIKE '%\"seat\": 1%'",
                (table_id,),
            )
        kept = page.evaluate("() => JSON.parse(localStorage.getItem('ludoteca.receipts'))")
        before_deal = [r for r in kept[table_id]["list"] if "prelude" in r]
        assert before_deal, "the page kept the heads it was shown before the deal"
        server.start()

        page.wait_for_selector("[data-fair-problem='secret']", timeout=seconds(60) * 1000)
        page.wait_for_selector("[data-fair-problem='commitment']")
        page.wait_for_selector("[data-fair-problem='history']")
        text = page.locator(".fair-alarm").inner_text()
        assert "The server changed your commitment" in text and forged in text
        assert "The server's secret is not the one it showed you" in text and shown in text
        assert state(page)["table"]["seats"][1]["contributed"] is False  # not sent again
        no_serious_violation(page, ".fair-alarm")
    finally:
        for context in opened.contexts:
            context.close()
        server.stop()
    # the restart dropped the server for a moment: the only errors are the browser's reports of
    # what it could not fetch meanwhile (the socket, the service worker's script)
    down = ("WebSocket", "ERR_CONNECTION", "fetching the script", "Failed to load resource")
    assert [e for e in opened.errors if not any(d in e for d in down)] == []
