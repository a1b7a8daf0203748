"""A person in Chromium plays through deploy/nginx.conf against two ``ludoteca serve`` processes
on one PostgreSQL and one Redis, and the process that holds the page's websocket is killed with
SIGKILL mid-match: the page says it is reconnecting, comes back through nginx to the other
process at the same seat, match and version, that process takes the table over (its bot keeps
answering), the match is played to its end, and the record fetched through nginx checks out
against the published keys and the chain heads the page was shown before and after the kill.

Chromium, Playwright and nginx as in tests/web and tests/deploy/test_nginx.py: without them the
test skips with the reason, and under CI=true it fails instead.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_nginx import (
    Site,
    nginx_binary,  # noqa: F401 (the fixture, shared with test_nginx)
    running_site,
)

from kit.browser import (
    MAX_DECISIONS,
    Pages,
    catalogue,
    decision,
    heroes_turn_by_clicks,
    set_name,
    start_from_home,
    state,
)
from kit.env import milliseconds, seconds
from kit.servers import health
from kit.wait import eventually
from ludoteca.core import Receipt, verify
from ludoteca.games import get

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.solo]

TAKEOVER_SECONDS = 5  # docs/deploy.md: another process drives a dead one's tables within 5 s

# records every banner the table shows, so a short one (the reconnection through nginx to the
# other process takes about 0.4 s) is still seen after it went away
WATCH_BANNERS = """() => {
  window.__banners = [];
  const seen = () => document.querySelectorAll('.banner.warn').forEach((b) => {
    if (!window.__banners.includes(b.textContent)) window.__banners.push(b.textContent);
  });
  new MutationObserver(seen).observe(document.body, { childList: true, subtree: true });
}"""


@pytest.fixture
def site(
    request: pytest.FixtureRequest, postgres_url: str, redis_url: str, tmp_path: Path
) -> Iterator[Site]:
    """Two processes behind nginx."""
    env = {"LUDOTECA_BOT_DELAY": "0.05", "LUDOTECA_CONTRIBUTION_SECONDS": "3"}
    binary: str = request.getfixturevalue("nginx_binary")  # test_nginx's: found or installed
    with running_site(binary, postgres_url, redis_url, tmp_path, env) as found:
        yield found


def play_to_the_end(
    page: Any, after: int, seen: list[dict[str, Any]], pick: random.Random
) -> dict[str, Any]:
    """Click the seat's turns until the match is over; keep every state the page decided on."""
    for _ in range(MAX_DECISIONS):
        s = decision(page, after)
        seen.append(s)
        if s["view"]["over"]:
            return s
        heroes_turn_by_clicks(page, s, pick)
        after = s["version"]
    raise AssertionError("the match did not end")


def test_the_page_survives_the_kill_of_its_process(browser: Any, site: Site) -> None:
    pages = Pages(browser, site.nginx.base)
    try:
        page = pages.open("/")
        set_name(page, "Ana")
        start_from_home(page, "heroes")
        table_id = page.url.rsplit("/", 1)[1]
        pick = random.Random(5)
        seen: list[dict[str, Any]] = []

        # a few turns of the person and the bot's answers, on whichever process nginx chose
        after = -1
        for _ in range(4):
            s = decision(page, after)
            seen.append(s)
            assert not s["view"]["over"], "the match ended before the kill"
            heroes_turn_by_clicks(page, s, pick)
            after = s["version"]
        before = decision(page, after)  # the person to move: the table waits for them
        seen.append(before)
        assert before["version"] > 2

        # the page's one websocket (the lobby feed closed when the table opened)
        held = [health(p.base)["connections"] for p in site.processes]
        assert sorted(held) == [0, 1], held
        victim = site.processes[held.index(1)]
        survivor = site.processes[held.index(0)]
        # the process where the person sits drives the table (its bot, its clock): the kill takes
        # the driver down with the websocket
        assert [health(victim.base)["driving"], health(survivor.base)["driving"]] == [1, 0]

        page.evaluate(WATCH_BANNERS)
        killed = time.monotonic()
        victim.kill()
        page.wait_for_function("() => window.__banners.length > 0", timeout=milliseconds(5_000))
        # back through nginx (the dead process refuses, nginx tries the other one)
        page.wait_for_function(
            "() => window.__ludoteca.status === 'open' && window.__ludoteca.state.log_from === 0"
            " && document.querySelector('.banner.warn') === null",
            timeout=milliseconds(15_000),
        )
        assert page.evaluate("() => window.__banners") == [catalogue("en")["table"]["reconnecting"]]
        again = state(page)
        assert page.url.endswith(f"/table/{table_id}")
        assert again["table"]["id"] == table_id
        assert again["version"] == before["version"]  # nothing lost, nothing played meanwhile
        assert again["chain"] == before["chain"]
        assert again["seat"] == before["seat"] == page.evaluate("() => window.__ludoteca.seat")
        assert again["legal"] == before["legal"]
        assert len(again["log"]) == before["version"] + 1  # the whole log, from the deal on
        assert health(survivor.base)["connections"] == 1

        # the survivor drives the table (its clock and its bot) within the promised 5 s
        eventually(
            lambda: health(survivor.base)["driving"] >= 1,
            TAKEOVER_SECONDS - (time.monotonic() - killed),
            interval=0.1,
            what="the survivor driving the table",
        )

        victim.start()  # restarted, as systemd would; the table stays where the person sits
        assert health(victim.base)["status"] == "ok"

        final = play_to_the_end(page, before["version"] - 1, seen, pick)
        assert final["view"]["outcome"] is not None

        record = httpx.get(
            f"{site.nginx.base}/api/tables/{table_id}/record", timeout=seconds(10)
        ).json()
        keys = httpx.get(f"{site.nginx.base}/api/keys", timeout=seconds(10)).json()["keys"]
        shown = {
            Receipt(table_id, s["version"], s["chain"]) for s in seen if s["chain"] is not None
        }
        verdict = verify(
            record,
            get,
            receipts=sorted(shown, key=lambda r: r.version),
            trusted_keys={k["public_key"] for k in keys},
        )
        assert verdict.ok, verdict.problems
        assert verdict.receipts == len(shown)
        assert len(record["actions"]) == final["version"]
        # the bot played before the kill and, driven by the survivor, after it
        cut = before["version"]
        for part in (record["actions"][:cut], record["actions"][cut:]):
            assert {a["by"] for a in part} == {"player", "bot"}
    finally:
        for context in pages.contexts:
            context.close()
    assert pages.errors == [], "JavaScript errors in the browser:\n" + "\n".join(pages.errors)
