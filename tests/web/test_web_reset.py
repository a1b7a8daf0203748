"""A forgotten password in Chromium, real on every wire: "Forgot the password?" on the sign-in
form asks for a link by the account's address, the SMTP server (aiosmtpd) receives it, the link
opens in the page, a password the rules refuse is said beside the field with what was typed kept,
the new one signs the browser in and every other session out, and signing in again takes the new
password. The link opened again is refused. In German, where the words are longest. And the
account page's address form keeps a refused address, with the reason beside it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe

from kit.browser import Pages, catalogue, flatten
from kit.env import seconds
from kit.notify import Mailbox, mailbox, text_of  # noqa: F401
from kit.servers import ThreadServer, free_port, server_settings
from kit.wait import eventually

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
NEW_PASSWORD = "purple staple giraffe"


@pytest.fixture
def server(sqlite_url: str, mailbox: Mailbox) -> Iterator[ThreadServer]:  # noqa: F811
    port = free_port()
    settings = server_settings(
        sqlite_url,
        smtp_host="127.0.0.1",
        smtp_port=mailbox.port,
        smtp_tls="none",
        public_url=f"http://127.0.0.1:{port}",
    )
    srv = ThreadServer(settings, port=port).start()
    yield srv
    srv.stop()


@pytest.fixture
def site(browser: object, server: ThreadServer) -> Iterator[Pages]:
    opened = Pages(browser, server.base)
    yield opened
    for context in opened.contexts:
        context.close()


def serious(page: object) -> list[str]:
    """axe-core's serious and critical violations on the page (as test_web_audit.py counts them)."""
    options = {
        "resultTypes": ["violations"],
        "rules": {"label-content-name-mismatch": {"enabled": True}},
    }
    found = Axe().run(page, options=options).response["violations"]
    return [
        f"{v['id']}: {v['nodes'][0]['target']}"
        for v in found
        if v["impact"] in {"serious", "critical"}
    ]


def said(key: str, **values: str) -> str:
    text = str(flatten(catalogue("de"))[key])
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


def test_a_forgotten_password_is_set_anew_from_the_mailed_link(
    site: Pages,
    server: ThreadServer,
    mailbox: Mailbox,  # noqa: F811
) -> None:
    # Rosa's account, its address confirmed, signed in on another device
    other = httpx.Client(base_url=server.base, headers={"Origin": server.base}, timeout=seconds(30))
    assert (
        other.post("/api/accounts", json={"name": "Rosa", "password": PASSWORD}).status_code == 201
    )
    other.put("/api/me/notify/mail", json={"address": "rosa@example.org", "lang": "de"})
    confirm = eventually(lambda: mailbox.to("rosa@example.org"), 10, what="the confirmation")
    assert httpx.get(next(w for w in text_of(confirm[0]).split() if "confirm?t=" in w)).is_success

    page = site.open("/account", locale="de-DE")
    forgot = page.locator(".account-form.signin .forgot-password")
    forgot.wait_for()
    assert forgot.inner_text() == said("account.forgot.link")
    forgot.click()
    assert page.evaluate("() => document.activeElement.id") == "forgot-who"
    page.keyboard.type("rosa@example.org")
    page.keyboard.press("Enter")
    sent = page.locator(".forgot-sent")
    sent.wait_for()
    assert sent.inner_text() == said("account.forgot.sent")
    assert sent.get_attribute("role") == "status"
    assert page.input_value("#forgot-who") == "rosa@example.org", "what was typed stays"
    assert serious(page) == [], "the forgot form, its answer said"

    mail = eventually(
        lambda: [m for m in mailbox.to("rosa@example.org") if "/reset#t=" in text_of(m)],
        10,
        what="the reset mail",
    )[0]
    assert mail["Subject"] == "Neues Passwort für ludoteca", "in the page's language"
    found = re.search(r"http://\S+/reset#t=\S+", text_of(mail))
    assert found
    link = found.group(0)

    # the mail's link, opened in the page
    page.goto(link)
    page.wait_for_selector("#reset-password")
    assert page.locator(".reset-page .lead").inner_text() == said("reset.lead", name="Rosa")
    # a password the rules refuse: said beside the field, which keeps it and takes the focus
    page.fill("#reset-password", "Rosa1234")
    page.click(".account-form.reset button[type=submit]")
    error = page.locator("#reset-password-error")
    error.wait_for()
    assert error.get_attribute("role") == "alert"
    assert error.inner_text().startswith(said("errors.bad_password", message="").split(":")[0])
    assert page.get_attribute("#reset-password", "aria-invalid") == "true"
    assert page.get_attribute("#reset-password", "aria-describedby") == "reset-password-error"
    assert page.evaluate("() => document.activeElement.id") == "reset-password"
    assert page.input_value("#reset-password") == "Rosa1234"
    field_box, error_box = page.locator("#reset-password").bounding_box(), error.bounding_box()
    assert field_box and error_box and 0 <= error_box["y"] - field_box["y"] <= 120
    assert serious(page) == [], "the reset page, a refusal beside its field"

    page.fill("#reset-password", NEW_PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_selector(".signed-in")
    assert page.url.endswith("/account?reset=done")
    assert page.locator(".reset-done").inner_text() == said("reset.done")
    assert "Rosa" in page.locator(".signed-in").inner_text()
    assert other.get("/api/me").status_code == 401, "the other device was signed out"
    other.close()

    # signing out, then in with the new password on the sign-in form
    page.click(".sign-out")
    page.wait_for_selector("#signin-name")
    page.fill("#signin-name", "rosa")
    page.fill("#signin-password", NEW_PASSWORD)
    page.click(".account-form.signin button[type=submit]")
    page.wait_for_selector(".signed-in")

    # the link a second time: refused, with a way to ask for another
    again = site.open("/", locale="de-DE")
    again.goto(link)
    dead = again.locator(".reset-dead")
    dead.wait_for()
    assert dead.inner_text() == said("errors.bad_reset_link")
    assert again.locator("#reset-password").count() == 0
    assert again.get_attribute(".reset-page a[href='/account']", "data-link") == ""
    assert serious(again) == [], "the page of a used link"
    # the browser reports each refusal on its console: the password (422), the used link (400),
    # and the signed-in page's notifications asked for once more as it signed out (401)
    assert all(any(c in e for c in ("400", "401", "422")) for e in site.errors), site.errors
    site.errors.clear()


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_address_form_keeps_a_refused_address_and_says_why_beside_it(
    site: Pages,
    server: ThreadServer,
    mailbox: Mailbox,  # noqa: F811
    lang: str,
) -> None:
    """Issue 37's item 3 on the account page's last form: the e-mail address for notifications."""
    page = site.open("/account", locale=lang)
    page.wait_for_selector(".account-form.signup")
    page.fill("#signup-name", f"Tia {lang}")
    page.fill("#signup-password", PASSWORD)
    page.click(".account-form.signup button[type=submit]")
    page.wait_for_selector("#mail-address")

    # an address the browser lets through and the server refuses: no top-level domain
    page.fill("#mail-address", "tia@localhost")
    page.click(".mail-form button[type=submit]")
    error = page.locator("#mail-address-error")
    error.wait_for()
    words = flatten(catalogue(lang))
    assert error.inner_text().startswith(str(words["errors.bad_request"]).split("{")[0])
    assert "example.org" in error.inner_text(), "the server's reason, the rule it broke"
    assert error.get_attribute("role") == "alert"
    assert page.get_attribute("#mail-address", "aria-invalid") == "true"
    assert page.get_attribute("#mail-address", "aria-describedby") == "mail-address-error"
    assert page.input_value("#mail-address") == "tia@localhost", "what was typed stays"
    assert page.evaluate("() => document.activeElement.id") == "mail-address"
    field_box, error_box = page.locator("#mail-address").bounding_box(), error.bounding_box()
    assert field_box and error_box and 0 <= error_box["y"] - field_box["y"] <= 120
    assert page.locator(".mail-state").count() == 0, "nothing was set"

    # fixed in place: the reason goes, the address is set and its link mailed
    page.fill("#mail-address", f"tia.{lang}@example.org")
    page.keyboard.press("Enter")
    page.wait_for_selector(".mail-state")
    assert page.locator("#mail-address-error").count() == 0
    assert page.get_attribute("#mail-address", "aria-invalid") == "false"
    assert page.input_value("#mail-address") == f"tia.{lang}@example.org"
    eventually(lambda: mailbox.to(f"tia.{lang}@example.org"), 10, what="the confirmation")
    assert all("422" in e for e in site.errors), site.errors
    site.errors.clear()
