"""Accounts in the browser: signing up and in with a passkey through Chromium's virtual
authenticator (the DevTools ``WebAuthn`` domain), a table that resumes in a second browser (a
separate context) once the same person signs in there, and the profile and leaderboard pages.

Passkeys need a domain, not an IP address, as the relying party: the pages are opened at
``localhost``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx
import pytest
from test_web_i18n import assert_translated

from kit.browser import PHONE, Pages, state
from kit.servers import ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


CHART = """async () => {
  const { chart } = await window.ludotecaModules.load("/static/js/pages/player.js");
  const svg = chart([{ rating: 0 }, { rating: 3.5 }, { rating: 1.2 }], "history");
  const [width, height] = svg.getAttribute("viewBox").split(" ").slice(2).map(Number);
  const d = svg.querySelector("path").getAttribute("d");
  const xy = [...d.matchAll(/[ML]([\\d.]+),([\\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
  return {
    points: xy.length,
    label: svg.getAttribute("aria-label"),
    inside: xy.every(([x, y]) => x >= 0 && x <= width && y >= 0 && y <= height)
      && xy[1][1] < xy[0][1],  // a higher rating is drawn higher
  };
}"""


def with_authenticator(page: Page) -> tuple[Any, str]:
    """A virtual platform authenticator for the page's browser context."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, found["authenticatorId"]


def signed_in_as(page: Page, name: str) -> None:
    page.wait_for_selector(".signed-in, .account-page .error")
    assert page.locator(".account-page .error").count() == 0, page.inner_text(".error")
    assert name in page.inner_text(".signed-in")


def seated(page: Page) -> Any:
    page.wait_for_function(
        "() => window.__ludoteca && window.__ludoteca.state && window.__ludoteca.state.view"
    )
    return state(page)


def test_passkey_sign_up_and_in_and_a_table_resumed_in_another_browser(
    browser: Any, web_server: ServerProcess
) -> None:
    pages = Pages(browser, web_server.base.replace("127.0.0.1", "localhost"))
    try:
        first = pages.open("/account")
        first.wait_for_selector(".account-form.signup")
        cdp, authenticator = with_authenticator(first)
        first.fill(".account-form.signup input[name=name]", "Passkey Pat")
        first.click("button.passkey.signup")
        signed_in_as(first, "Passkey Pat")
        [credential] = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})[
            "credentials"
        ]
        assert credential["isResidentCredential"] and credential["rpId"] == "localhost"
        [device] = [c for c in first.context.cookies() if c["name"] == "ludoteca_device"]
        assert (device["path"], device["sameSite"], device["httpOnly"]) == ("/api", "Strict", True)

        # wrong passwords for the name fill its windows at this address; a passkey is never
        # counted by name, so it still signs in (from this very address)
        guesses = [
            httpx.post(
                f"{web_server.base}/api/session",
                json={"name": "Passkey Pat", "password": f"guess {i}!"},
            ).status_code
            for i in range(12)
        ]
        assert guesses[-1] == 429, guesses
        first.click("button.sign-out")
        first.wait_for_selector("button.passkey.signin")
        first.click("button.passkey.signin")
        signed_in_as(first, "Passkey Pat")
        [used] = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})[
            "credentials"
        ]
        assert used["signCount"] > credential["signCount"], "the sign-in used the passkey"
        # the passkey route got the browser's device cookie back, so it stays one browser
        again = [c for c in first.context.cookies() if c["name"] == "ludoteca_device"]
        assert [c["value"] for c in again] == [device["value"]]

        # a rated match against bots, started from the home page
        first.click("a.brand")
        first.click("[data-game=heroes] button.play-rated")
        first.wait_for_url("**/table/*")
        table = first.url.rsplit("/", 1)[1]
        first.wait_for_function("() => window.__ludoteca && window.__ludoteca.state")
        assert state(first)["seat"] == 0
        assert state(first)["table"]["seats"][0]["name"] == "Passkey Pat"

        # another browser: nothing in its storage; the same passkey, synced there as it is now
        # (its signature counter too: a copy behind the counter is refused as a clone)
        second = pages.open("/account")
        second.wait_for_selector(".account-form.signin")
        cdp2, other = with_authenticator(second)
        cdp2.send("WebAuthn.addCredential", {"authenticatorId": other, "credential": used})
        assert second.evaluate("() => localStorage.getItem('ludoteca.seats')") is None
        second.click("button.passkey.signin")
        signed_in_as(second, "Passkey Pat")
        link = second.locator(f".my-tables [data-table='{table}'] a")
        assert link.get_attribute("href") == f"/table/{table}"
        link.click()
        resumed = seated(second)
        assert resumed["seat"] == 0, "the seat followed the person to the second browser"
        assert resumed["table"]["id"] == table
        # the table's own address finds the seat too, with nothing in the browser's storage
        second.evaluate("() => localStorage.removeItem('ludoteca.seats')")
        second.goto(f"{pages.base}/table/{table}")
        assert seated(second)["seat"] == 0

        # the profile and the leaderboard pages answer, on a phone too
        profile = pages.open("/players/passkey%20pat", viewport=PHONE)
        profile.wait_for_selector(".player-page h2")  # the profile has arrived
        assert profile.inner_text(".player-page h1") == "Passkey Pat"
        assert profile.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        drawn = profile.evaluate(CHART)
        assert drawn["points"] == 3 and drawn["label"] == "history" and drawn["inside"]
        board = pages.open("/leaderboard/heroes", viewport=PHONE)
        board.wait_for_selector(".leaderboard-page .game-tabs a[aria-current=page]")
    finally:
        for context in pages.contexts:
            context.close()
    assert pages.errors == [], "JavaScript errors in the browser:\n" + "\n".join(pages.errors)


@pytest.mark.parametrize("lang", ["pt", "de"])
def test_account_pages_speak_the_readers_language(pages: Pages, lang: str) -> None:
    page = pages.open("/account", locale=lang)
    page.wait_for_selector(".account-form.signup")
    assert_translated(page, lang, "account page, signed out")
    name = f"Leitor {lang}"
    page.fill(".account-form.signup input[name=name]", name)
    page.fill(".account-form.signup input[name=password]", "123456")
    page.click(".account-form.signup button[type=submit]")
    page.wait_for_selector(".account-page .field-error")  # beside the password it is about
    assert_translated(page, lang, "account page, a refused password")
    # the refusal is the 422 the browser reports on its console: expected here, and only it
    assert [e for e in pages.errors if "422" in e] == pages.errors != []
    pages.errors.clear()
    page.fill(".account-form.signup input[name=name]", name)
    page.fill(".account-form.signup input[name=password]", "a long passphrase here")
    page.click(".account-form.signup button[type=submit]")
    signed_in_as(page, name)
    page.click("a.brand")
    page.wait_for_selector("#create-rated")  # signed in: a table can be made rated
    assert_translated(page, lang, "home, signed in")
    page.click("[data-game=heroes] button.play-rated")
    page.wait_for_url("**/table/*")
    page.click(".site-nav a[href='/account']")
    page.wait_for_selector(".my-tables li")
    assert_translated(page, lang, "account page, signed in, a table")
    page.click(".signed-in a")
    page.wait_for_selector(".player-page h2")
    assert_translated(page, lang, "profile")
    page.click(".site-nav a[href='/leaderboard']")
    page.wait_for_selector(".leaderboard-page .game-tabs a[aria-current=page]")
    assert_translated(page, lang, "leaderboard")
