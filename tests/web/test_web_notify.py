"""'Your turn' in Chromium, real on every wire: two people at a table, each in a browser context
of their own; the one who waits turns notifications on (permission granted, the service worker
registered, the subscription sent to the server), and when their turn begins the server's push
reaches the test's own push service encrypted for that browser's keys, is decrypted there and
handed to the browser's service worker (as a push service would), which shows the notification.
The table is turn-based, and the turn passes because the other person plays in their browser:
the table itself tells the notifier. The same turn is mailed (aiosmtpd) to the account that holds
the seat. Then the page opens offline to its shell, saying it is offline, in the person's
language; and "my tables" puts the table where it is my turn first, with the count in the
page's title.

Chromium's own push service is out of reach here, so ``PushManager.subscribe`` answers with the
subscription this test made (its keys, its endpoint): everything after it is the real thing."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kit.browser import decision, heroes_turn_by_clicks, state
from kit.client import two_people_table
from kit.env import milliseconds, seconds
from kit.notify import Device, Mailbox, PushService, mailbox, push_service, text_of  # noqa: F401
from kit.servers import ThreadServer, free_port, server_settings
from kit.wait import eventually
from ludoteca.games import all_games

PASSWORD = "correct horse battery"


@pytest.fixture
def server(sqlite_url: str, mailbox: Mailbox) -> Iterator[ThreadServer]:  # noqa: F811
    port = free_port()
    settings = server_settings(
        sqlite_url,
        push=True,
        push_allow_loopback=True,
        smtp_host="127.0.0.1",
        smtp_port=mailbox.port,
        smtp_tls="none",
        public_url=f"http://127.0.0.1:{port}",
    )
    srv = ThreadServer(settings, port=port).start()
    yield srv
    srv.stop()


FAKE_SUBSCRIPTION = """
(subscription) => {
  const made = {
    endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys,
    toJSON() { return { endpoint: this.endpoint, expirationTime: null, keys: this.keys }; },
    unsubscribe: async () => true,
  };
  let held = null;
  PushManager.prototype.subscribe = async function () { held = made; return made; };
  PushManager.prototype.getSubscription = async function () { return held; };
}
"""


def hold_seats(held: dict[str, Any]) -> str:
    """The script that puts seats in a page's storage (an error page has none: left alone)."""
    seats = json.dumps(json.dumps(held))
    return f"try {{ localStorage.setItem('ludoteca.seats', {seats}) }} catch {{}}"


def person(
    browser: Any,
    base: str,
    held: dict[str, Any],
    locale: str,
    *,
    width: int = 390,
    height: int = 844,
) -> Any:
    """A browser context (a phone's, unless told) holding seats (as after joining), its pages'
    errors kept."""
    context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
    context.add_init_script(hold_seats(held))
    context.add_init_script("try { localStorage.setItem('ludoteca.debug', '1') } catch {}")
    context.errors = []
    # the site's pages only (a new tab's about:blank has no storage for the seats' script)
    context.on(
        "weberror",
        lambda error: (
            context.errors.append(f"{error.page.url}: {error.error}")
            if error.page and error.page.url.startswith(base)
            else None
        ),
    )
    return context


def test_the_waiting_person_is_pushed_and_mailed_their_turn_and_the_page_opens_offline(
    browser: Any,
    server: ThreadServer,
    push_service: PushService,  # noqa: F811
    mailbox: Mailbox,  # noqa: F811
) -> None:
    table, tokens = two_people_table(server.base, turn_seconds=86400, pace="turn-based")
    states = httpx.post(
        f"{server.base}/api/seats",
        json={"seats": [{"table": table, "token": token} for token in tokens]},
    ).json()
    mover = next(s["seat"] for s in states if s["my_turn"])
    waiting = 1 - mover

    # the waiting seat belongs to an account with a confirmed address (mail), and its browser
    # (a guest's page, German) turns pushes on for the seat
    account = httpx.Client(
        base_url=server.base, headers={"Origin": server.base}, timeout=seconds(30)
    )
    account.post("/api/accounts", json={"name": "bruno", "password": PASSWORD})
    account.post("/api/me/seats", json={"seats": [{"table": table, "token": tokens[waiting]}]})
    account.put("/api/me/notify/mail", json={"address": "bruno@example.org", "lang": "de"})
    confirm = eventually(lambda: mailbox.to("bruno@example.org"), 10, what="the confirmation")
    link = next(w for w in text_of(confirm[0]).split() if "/api/notify/confirm" in w)
    assert httpx.get(link).status_code == 200
    account.close()

    device = push_service.device("waiting")
    held = {table: {"seat": waiting, "token": tokens[waiting], "at": time.time() * 1000}}
    context = person(browser, server.base, held, "de-DE")
    context.grant_permissions(["notifications"], origin=server.base)
    context.add_init_script(f"({FAKE_SUBSCRIPTION})({json.dumps(device.subscription())})")
    page = context.new_page()
    page.goto(f"{server.base}/table/{table}")
    button = page.locator(".notify-control button.notify-on")
    button.wait_for()
    assert button.inner_text() == "Sag mir, wenn ich dran bin"
    assert button.bounding_box()["height"] >= 44
    button.click()
    page.locator(".notify-control .note", has_text="Dieses Gerät erfährt").wait_for()
    worker = page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")
    assert worker == f"{server.base}/sw.js"
    assert push_service.received == [] and len(mailbox.mails) == 1
    # while this page holds the table open it shows the turn there: nothing is pushed or mailed
    # (tests/server/test_turn_based.py); the person goes elsewhere, and is told from then on
    page.goto(f"{server.base}/")

    # the other person plays in their own browser until the turn passes: the table tells the
    # notifier, the push service gets it encrypted for the waiting browser, and the mail comes
    ana_seats = {table: {"seat": mover, "token": tokens[mover], "at": time.time() * 1000}}
    ana_context = person(browser, server.base, ana_seats, "en-US")
    ana = ana_context.new_page()
    ana.goto(f"{server.base}/table/{table}")
    ana.wait_for_function(
        "(seat) => { const s = window.__ludoteca && window.__ludoteca.state;"
        " return s && s.table.seats[seat].connected === false; }",
        arg=waiting,
        timeout=milliseconds(20_000),
    )
    rng = random.Random(7)
    version = -1
    while not push_service.to(device):
        s = decision(ana, version)
        assert s["clock"]["seat"] == mover, "the turn passed without a push"
        heroes_turn_by_clicks(ana, s, rng)
        version = s["version"]
        ana.wait_for_function(
            "(v) => window.__ludoteca.state.version > v", arg=version, timeout=milliseconds(20_000)
        )
        if state(ana)["clock"]["seat"] != mover:
            eventually(lambda: push_service.to(device), 10, what="the push")
    [pushed] = push_service.to(device)
    payload = device.decrypt(pushed.body)
    name = all_games()["heroes"].spec.name("de")
    opponent = ("Ana", "Bruno")[mover]
    assert payload["title"] == f"Du bist dran: {name} gegen {opponent}"
    assert payload["body"].startswith(f"{opponent} hat gespielt: "), payload["body"]
    assert table not in payload["body"], "a person knows a match by its game and its people"
    deadline = state(ana)["clock"]["deadline"]
    assert abs(deadline - (time.time() + 86400)) < 120
    mail = eventually(lambda: mailbox.to("bruno@example.org")[1:], 10, what="the turn mail")[0]
    assert mail["Subject"] == f"Du bist dran: {name} gegen {opponent}"
    assert f"{opponent} hat gespielt: " in text_of(mail)
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    ana_context.close()

    # handed to the browser's service worker, as the push service would: it shows the notification
    cdp = context.new_cdp_session(page)
    registrations: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(r["registrationId"] for r in event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    # Playwright hands events over while it is being called: each look asks the page something
    eventually(lambda: page.evaluate("1") and registrations, 10, what="the worker's registration")
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": server.base, "registrationId": registrations[0], "data": json.dumps(payload)},
    )
    shown = eventually(
        lambda: page.evaluate(
            "navigator.serviceWorker.ready.then((r) => r.getNotifications())"
            ".then((all) => all.map((n) => ({title: n.title, body: n.body, url: n.data.url})))"
        ),
        10,
        what="the notification shown",
    )
    assert shown == [{"title": payload["title"], "body": payload["body"], "url": f"/table/{table}"}]

    # offline, the page opens to its shell and says so, in German
    page.goto(f"{server.base}/")
    page.wait_for_selector("#main h1")
    context.set_offline(True)
    page.goto(f"{server.base}/table/{table}")
    banner = page.locator("#offline")
    banner.wait_for(state="visible")
    assert banner.inner_text().startswith("Du bist offline")
    context.set_offline(False)
    assert context.errors == []
    context.close()


def test_my_tables_put_my_turn_first_with_its_deadline_and_count_it_in_the_title(
    browser: Any,
    server: ThreadServer,
) -> None:
    table, tokens = two_people_table(server.base, turn_seconds=3600)
    other, other_tokens = two_people_table(server.base, turn_seconds=3600)
    states = httpx.post(
        f"{server.base}/api/seats",
        json={"seats": [{"table": table, "token": t} for t in tokens]},
    ).json()
    mover = next(s["seat"] for s in states if s["my_turn"])
    other_states = httpx.post(
        f"{server.base}/api/seats",
        json={"seats": [{"table": other, "token": t} for t in other_tokens]},
    ).json()
    idle = next(s["seat"] for s in other_states if not s["my_turn"])
    context = browser.new_context(locale="en-US", timezone_id="Asia/Tokyo")
    held = {
        other: {"seat": idle, "token": other_tokens[idle], "at": time.time() * 1000 + 1},
        table: {"seat": mover, "token": tokens[mover], "at": time.time() * 1000},
    }
    context.add_init_script(
        f"localStorage.setItem('ludoteca.seats', {json.dumps(json.dumps(held))})"
    )
    page = context.new_page()
    page.goto(f"{server.base}/")
    items = page.locator(".mine-item")
    eventually(lambda: items.count() == 2, 10, what="my two tables listed")
    assert items.nth(0).get_attribute("data-table") == table, "my turn comes first"
    assert "Your turn" in items.nth(0).inner_text()
    assert "Your turn" not in items.nth(1).inner_text()
    deadline = next(s["deadline"] for s in states if s["my_turn"])
    tokyo = page.evaluate(
        "(d) => new Intl.DateTimeFormat('en', {dateStyle: 'medium', timeStyle: 'short', "
        "timeZone: 'Asia/Tokyo'}).format(new Date(d * 1000))",
        deadline,
    )
    assert f"play by {tokyo}" in items.nth(0).inner_text(), "the deadline in the viewer's zone"
    eventually(lambda: page.title().startswith("(1) "), 10, what="the count in the title")
    page.goto(f"{server.base}/verify")
    eventually(lambda: page.title().startswith("(1) "), 10, what="the count on every page")
    manifest = httpx.get(f"{server.base}/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        assert httpx.get(server.base + icon["src"]).status_code == 200
    context.close()


def test_an_account_sets_its_address_on_the_account_page_and_confirms_it_from_the_mail(
    browser: Any,
    server: ThreadServer,
    mailbox: Mailbox,  # noqa: F811
) -> None:
    context = person(browser, server.base, {}, "pt-BR")
    page = context.new_page()
    page.goto(f"{server.base}/account")
    page.wait_for_selector(".account-form.signup")
    page.fill(".account-form.signup input[name=name]", "carla")
    page.fill(".account-form.signup input[name=password]", PASSWORD)
    page.click(".account-form.signup button[type=submit]")
    page.wait_for_selector(".mail-form")
    assert page.inner_text(".notify-settings h2") == "Sua vez, onde você estiver"
    page.fill(".mail-form input[name=address]", "carla@example.org")
    page.click(".mail-form button[type=submit]")
    page.locator(".mail-state", has_text="Enviamos um link para carla@example.org").wait_for()
    [mail] = eventually(lambda: mailbox.to("carla@example.org"), 10, what="the confirmation")
    assert mail["Subject"] == "Confirme seu endereço no ludoteca"
    link = next(w for w in text_of(mail).split() if "/api/notify/confirm" in w)
    page.goto(link)
    assert page.inner_text("h1") == "Endereço confirmado: você será avisado quando for a sua vez."
    page.goto(f"{server.base}/account")
    page.locator(".mail-state", has_text="vão para carla@example.org").wait_for()
    assert context.errors == []
    context.close()


@pytest.mark.slow
def test_the_worker_covers_every_page_and_keeps_the_immutable_caching(server: ThreadServer) -> None:
    worker = httpx.get(f"{server.base}/sw.js")
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
    assert worker.headers["cache-control"] == "no-cache", "a new version must reach the browser"
    page = httpx.get(f"{server.base}/").text
    joined = re.search(r'src="(/static/([0-9a-f]{12})/joined/[0-9a-f]+/)[^"]+"', page)
    assert joined is not None
    root, version = joined.groups()
    assert f'const VERSION = "{version}";' in worker.text
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", worker.text).group(1))
    assert shell[0] == "/" and f"/static/{version}/js/main.js" in shell
    assert f"/static/{version}/js/pages/table.js" in shell, "every route opens offline"
    # the modules joined: the page's file, and those a page loads later (another route's page)
    assert f"{root}static/{version}/js/pages/home.js" in shell
    assert f"{root}static/{version}/js/pages/table.js" in shell
    for game in ("heroes", "dice-heroes", "dwarves"):  # every board, from its game's package
        board = httpx.get(f"{server.base}/api/games/{game}").json()["board"]
        for url in (board["module"], *board["parts"], *board["styles"], *board["words"].values()):
            assert url in shell, url
        assert root + board["module"].lstrip("/") in shell  # the board as its chunk
    with httpx.Client(base_url=server.base) as http:  # one client: a new one per file costs more
        for address in shell[1:]:
            kept = http.get(address)
            assert kept.status_code == 200, address
            assert kept.headers["cache-control"] == "public, max-age=31536000, immutable", address
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


REFUSING_PUSH = """
PushManager.prototype.subscribe = async function () {
  throw new DOMException("Registration failed - permission denied", "AbortError");
};
PushManager.prototype.getSubscription = async function () { return null; };
"""


STICKING_OUT = """() => [...document.querySelectorAll('body *')]
  .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .slice(0, 6)
  .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`)"""


def at_table(browser: Any, base: str, table: str, seat: int, token: str) -> tuple[Any, Any]:
    """A person at a desktop (1280×800) holding ``seat``, on the table's page once dealt."""
    held = {table: {"seat": seat, "token": token, "at": time.time() * 1000}}
    context = person(browser, base, held, "en-US", width=1280, height=800)
    page = context.new_page()
    page.goto(f"{base}/table/{table}")
    page.wait_for_function(
        "() => window.__ludoteca && window.__ludoteca.state && window.__ludoteca.state.view",
        timeout=milliseconds(20_000),
    )
    return context, page


def test_a_turn_based_table_says_whose_turn_until_when_and_marks_mine_on_the_tab(
    browser: Any, server: ThreadServer
) -> None:
    table, tokens = two_people_table(server.base, turn_seconds=86400, pace="turn-based")
    mover = state_of(server.base, table, tokens)
    waiting = 1 - mover
    names = ("Ana", "Bruno")
    mine_context, mine = at_table(browser, server.base, table, mover, tokens[mover])
    theirs_context, theirs = at_table(browser, server.base, table, waiting, tokens[waiting])
    theirs_context.grant_permissions(["notifications"], origin=server.base)
    theirs_context.add_init_script(REFUSING_PUSH)
    theirs.reload()
    theirs.wait_for_function(
        "() => window.__ludoteca && window.__ludoteca.state && window.__ludoteca.state.view"
    )

    # "Move by …" only for the person to move; the other sees whose turn it is, until when
    assert mine.inner_text(".turn-clock .deadline").startswith("Move by ")
    assert mine.inner_text(".turn-clock .turn-who").lower() == "you"
    assert theirs.inner_text(".turn-clock .turn-who") == names[mover]
    assert theirs.inner_text(".turn-clock .deadline").startswith("has until ")
    assert theirs.inner_text(".seats-panel .turn-badge .deadline").startswith("until ")
    assert "Move by" not in theirs.inner_text("body")
    # the tab of the table I am at says it is my turn: its title and a dot on its icon
    assert "Your turn · Heroes & Relics" in mine.title()
    assert mine.get_attribute("link[rel=icon]", "data-turn") == "mine"
    assert "f5b301" in (mine.get_attribute("link[rel=icon]", "href") or "")
    assert "Your turn" not in theirs.title()
    assert theirs.get_attribute("link[rel=icon]", "data-turn") == ""
    # no sideways scroll at 1280×800, for either
    for page in (mine, theirs):
        wide = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        out = page.evaluate(STICKING_OUT)
        assert wide[0] <= wide[1], f"the page scrolls sideways: {wide}, past the edge: {out}"

    # a browser that refuses push (a private window) says so and what to do instead
    button = theirs.locator(".notify-control button.notify-on")
    button.click()
    note = theirs.locator(".notify-control .note[role=status]")
    note.wait_for()
    assert note.inner_text().startswith("This browser refuses notifications here")
    assert button.is_visible(), "the button is still there to try again"
    assert theirs_context.errors == [] and mine_context.errors == []
    mine_context.close()
    theirs_context.close()


def test_tell_me_when_it_is_my_turn_is_offered_only_at_turn_based_tables(
    browser: Any, server: ThreadServer
) -> None:
    table, tokens = two_people_table(server.base)
    context, page = at_table(browser, server.base, table, 0, tokens[0])
    assert page.locator(".notify-panel").is_hidden()
    assert page.locator(".notify-control").count() == 0
    assert context.errors == []
    context.close()
    turn_based, tokens = two_people_table(server.base, turn_seconds=86400, pace="turn-based")
    context, page = at_table(browser, server.base, turn_based, 0, tokens[0])
    page.locator(".notify-control button.notify-on").wait_for()
    assert context.errors == []
    context.close()


def state_of(base: str, table: str, tokens: list[str]) -> int:
    """The seat to move at a table, asked as 'my tables' asks."""
    states = httpx.post(
        f"{base}/api/seats", json={"seats": [{"table": table, "token": t} for t in tokens]}
    ).json()
    return int(next(s["seat"] for s in states if s["my_turn"]))
