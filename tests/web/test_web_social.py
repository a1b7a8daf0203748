"""Friends and the operator's desk in the browser: a person follows a friend by name and sees
them online while a page of theirs is open (and offline once they hide it), invites them to a
table and the friend's page shows the notice; an operator's /admin page acts on a report —
a why is asked first, the suspension and the closing land in the audit log, and the suspended
person's session ends — while a person who is not an operator is shown the page is not theirs."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from typing import TYPE_CHECKING

import httpx
import pytest

from kit.browser import Pages
from kit.env import milliseconds, seconds
from kit.servers import ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser
PASSWORD = "correct horse battery"


def unique(name: str) -> str:
    return f"{name} {secrets.token_hex(3)}"  # one server serves every browser test


def sign_up(page: Page, name: str) -> None:
    page.wait_for_selector(".account-form.signup")
    page.fill(".account-form.signup input[name=name]", name)
    page.fill(".account-form.signup input[name=password]", PASSWORD)
    page.click(".account-form.signup button[type=submit]")
    page.wait_for_selector(".signed-in")


def person(server: ServerProcess, name: str) -> httpx.Client:
    client = httpx.Client(
        base_url=server.base, headers={"Origin": server.base}, timeout=seconds(30)
    )
    made = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return client


def test_following_a_friend_seeing_them_online_and_inviting_them(pages: Pages) -> None:
    """Then the account page's block list: blocking and unblocking by name."""
    ana_name, bia_name = unique("Ana"), unique("Bia")
    bia = pages.open("/account")
    sign_up(bia, bia_name)  # Bia's page stays open: she is online
    ana = pages.open("/account")
    sign_up(ana, ana_name)
    ana.click(".friends-link")
    ana.wait_for_selector(".friends-page .following")
    ana.fill("#follow-name", bia_name.upper())  # a name is found as sign-in finds it
    ana.click(".name-form.follow button[type=submit]")
    friend = ana.locator(f".friend-list li[data-name='{bia_name}']")
    friend.wait_for()
    ana.wait_for_function(
        "(n) => document.querySelector(`li[data-name='${n}']`).dataset.online === 'yes'",
        arg=bia_name,
        timeout=milliseconds(10_000),
    )
    assert friend.locator(".presence").inner_text() == "online"

    # a table of Ana's: she invites Bia to it, and Bia's open page shows the notice
    made = ana.request.post(
        pages.base + "/api/tables",
        data={"game": "dwarves", "seats": [{"bot": False}] * 3},
        headers={"Origin": pages.base},
    )
    assert made.ok, made.text()
    table = made.json()["table"]["id"]
    ana.reload()
    ana.wait_for_selector(
        f"li[data-name='{bia_name}'] .invite-form select option[value='{table}']", state="attached"
    )
    ana.click(f"li[data-name='{bia_name}'] button.invite")
    notice = bia.locator(f".notice.invite[data-table='{table}']")
    notice.wait_for(timeout=milliseconds(10_000))
    assert notice.inner_text().startswith(f"{ana_name} invites you to a table.")
    notice.get_by_role("link").click()
    bia.wait_for_url(f"**/table/{table}")

    # Bia follows Ana back, then hides her online status: Ana sees her offline
    assert bia.request.put(
        pages.base + "/api/me/privacy", data={"hide_online": True}, headers={"Origin": pages.base}
    ).ok
    ana.reload()
    ana.wait_for_selector(f"li[data-name='{bia_name}'][data-online='no']")
    # and a follower can be removed by the one followed
    bia.goto(pages.base + "/friends")
    bia.wait_for_selector(f".followers li[data-name='{ana_name}']")
    bia.click(f".followers li[data-name='{ana_name}'] button.remove-follower")
    bia.wait_for_selector(".followers li", state="detached")
    ana.reload()
    ana.wait_for_selector(".following p")
    assert ana.locator(".friend-list").count() == 0

    # the block list on the account page: block Bia by name, then she cannot follow Ana
    ana.goto(pages.base + "/account")
    ana.fill("#account-block-name", bia_name)
    ana.click(".blocked button[type=submit]")
    ana.wait_for_selector(f".block-list li[data-name='{bia_name}']")
    refused = bia.request.post(
        pages.base + "/api/friends", data={"name": ana_name}, headers={"Origin": pages.base}
    )
    assert refused.status == 403 and refused.json()["error"] == "blocked"
    ana.click(f".block-list li[data-name='{bia_name}'] button.unblock")
    ana.wait_for_selector(".block-list", state="detached")


def test_the_admin_page_acts_on_a_report(pages: Pages, web_server: ServerProcess) -> None:
    olga_name, ana_name, bia_name = unique("Olga"), unique("Ana"), unique("Bia")
    ana, bia = person(web_server, ana_name), person(web_server, bia_name)
    try:
        sent = ana.post(
            "/api/reports",
            json={
                "kind": "account",
                "name": bia_name,
                "reason": "abuse",
                "note": "insults <b>x</b>",
            },
        )
        assert sent.status_code == 201, sent.text
        report = sent.json()["id"]

        # a person who is not an operator is told so (the server's 403 is the console's error)
        stranger = pages.open("/admin")
        stranger.wait_for_selector(".not-operator")
        olga = pages.open("/account")
        sign_up(olga, olga_name)
        granted = subprocess.run(  # the command, as an operator runs it on the server's machine
            [sys.executable, "-m", "ludoteca.cli", "admin", "grant", olga_name],
            env=os.environ | {"LUDOTECA_DB": web_server.db_url},
            capture_output=True,
            text=True,
            timeout=seconds(60),
            check=False,
        )
        assert granted.returncode == 0, granted.stderr
        assert granted.stdout == f"{olga_name}: now an operator\n"
        olga.goto(pages.base + "/admin")
        item = olga.locator(f".report-list li[data-report='{report}']")
        item.wait_for()
        assert "insults <b>x</b>" in item.locator(".note").inner_text()  # shown as text
        assert item.locator("b").count() == 0

        item.locator("button.suspend-week").click()  # no why yet: nothing is done
        olga.wait_for_selector(".admin-page .error")
        assert olga.evaluate("() => document.activeElement.id") == "admin-why"
        assert ana.get("/api/me").status_code == 200 and bia.get("/api/me").status_code == 200

        olga.fill("#admin-why", "insults in the chat")
        item.locator("button.suspend-week").click()
        olga.wait_for_selector(".audit td:text-is('suspend')")
        assert bia.get("/api/me").status_code == 401  # her session ended at once
        again = bia.post("/api/session", json={"name": bia_name, "password": PASSWORD})
        assert again.json()["error"] == "suspended"

        olga.fill("#admin-why", "suspended for a week")
        olga.locator(f"li[data-report='{report}'] button.close-report").click()
        olga.wait_for_selector(f"li[data-report='{report}']", state="detached")
        rows = olga.locator(".audit tbody tr")
        assert rows.nth(0).locator("td").nth(2).inner_text() == "close_report"
        assert rows.nth(0).locator("td").nth(4).inner_text() == "suspended for a week"
        assert rows.nth(1).locator("td").nth(3).inner_text() == f"{bia_name} for 604800 s"
        assert olga_name in rows.nth(1).locator("td").nth(1).inner_text()
    finally:
        ana.close()
        bia.close()
    # the only console errors: the 403s the pages were answered
    assert pages.errors and all("403" in e for e in pages.errors), pages.errors
    pages.errors.clear()
