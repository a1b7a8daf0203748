"""A seek in the browser: two signed-in people in two browser contexts; Bruno's lobby is open
when Ana posts a rated, turn-based Heroes seek; it appears in his list without a reload, saying
rated, its pace and who posted it with her rating, and the count of people looking for Heroes
on his home page goes to one; he takes it with one tap, and both land at one table where the
match starts under their names."""

from __future__ import annotations

from typing import Any

import pytest

from kit.browser import Pages

pytestmark = pytest.mark.browser


def signed_in(pages: Pages, name: str) -> Any:
    page = pages.open("/")
    made = page.request.post(
        f"{pages.base}/api/accounts",
        data={"name": name, "password": "a long pass phrase 7"},
        headers={"Origin": pages.base},
    )
    assert made.status == 201, made.text()
    page.reload()
    page.wait_for_selector("#seek-rated")
    return page


def dealt(page: Any) -> dict[str, Any]:
    page.wait_for_url("**/table/*")
    found: dict[str, Any] = page.wait_for_function(
        """() => {
          const d = window.__ludoteca;
          const s = d && d.state;
          return s && s.view ? { table: s.table.id, seat: d.seat,
            names: s.table.seats.map((x) => x.name) } : null;
        }"""
    ).json_value()
    return found


def test_a_seek_appears_live_and_one_tap_takes_it(pages: Pages) -> None:
    bruno = signed_in(pages, "Bruno")
    ana = signed_in(pages, "Ana")
    ana.select_option("#seek-game", "heroes")
    ana.select_option("#seek-pace", str(24 * 3600))
    ana.check("#seek-rated")
    ana.click("[data-key=post-seek]")
    ana.wait_for_url("**/table/*")
    table = ana.url.rsplit("/", 1)[1]

    row = bruno.locator(f".open-table[data-table='{table}']")
    row.wait_for()  # live, from the lobby feed: no reload
    row.locator(".seek-kind[data-rated=yes]").wait_for()
    assert row.locator(".seek-kind").inner_text() == "Rated"
    assert row.locator(".pace").inner_text() == "1 day per move"
    assert row.locator(".seek-by").inner_text() == "Ana (1500)"
    assert row.inner_text().count("Ana") == 1, "the poster is named once, with their rating"
    bruno.wait_for_function(
        "() => document.querySelector('[data-looking=heroes]').textContent"
        " === '1 person looking now'"
    )
    row.locator(f"[data-key=take-{table}]").click()
    b, a = dealt(bruno), dealt(ana)
    assert a["table"] == b["table"] == table
    assert (a["seat"], b["seat"]) == (0, 1) and a["names"] == ["Ana", "Bruno"]
    assert pages.errors == []
