"""A name is text wherever a page shows it (docs/accounts.md#threat-model, XSS): a guest may
type any printable name at a table, markup included, and an account's name in an address may be
anything. The lobby's list, the table's seats and the profile page of such a name show the
characters as typed; no element is made from them and no script runs (a dialog would be
recorded)."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest

from kit.browser import Pages

pytestmark = pytest.mark.browser

HOSTILE = "<svg onload=alert(1)>"  # 21 characters: within a guest's 24
IMAGE = "<img src=x onerror=alert(2)>"


def test_a_name_with_markup_is_shown_as_text_and_runs_nothing(pages: Pages) -> None:
    made = httpx.post(
        f"{pages.base}/api/tables",
        json={"game": "heroes", "seats": [{"bot": False}] * 2, "name": HOSTILE},
    )
    assert made.status_code == 201, made.text
    table = made.json()["table"]["id"]
    assert made.json()["table"]["seats"][0]["name"] == HOSTILE, "kept as typed, markup and all"

    dialogs: list[str] = []
    lobby = pages.open("/")
    lobby.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    row = f".open-table[data-table='{table}']"
    lobby.wait_for_selector(row)
    assert HOSTILE in lobby.inner_text(f"{row} .who")

    seat = pages.open(f"/table/{table}")
    seat.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    seat.wait_for_function("(name) => document.body.innerText.includes(name)", arg=HOSTILE)

    profile = pages.open(f"/players/{quote(IMAGE)}")
    profile.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    profile.wait_for_selector(".error, .not-found, h1")

    for page in (lobby, seat, profile):
        assert page.locator("svg[onload], img[onerror], script:not([type]):not([src])").count() == 0
        assert page.evaluate("() => document.querySelectorAll('[onload],[onerror]').length") == 0
    assert dialogs == [], "a script ran from a name"
    # the profile of a name nobody has answers 404 (logged by the browser): that one only
    assert all("404" in e for e in pages.errors), pages.errors
    pages.errors.clear()
