"""Aborting in the browser (docs/protocol.md#aborting): two people at a Heroes table; the one who
moves first loses the Abort button with that move, the other aborts (asked to confirm first),
and both pages end at once with "Aborted by NAME." and no result, no winner, no rating; the
verify page accepts the table's signed record and says how it ended."""

from __future__ import annotations

from typing import Any

import pytest

from kit.browser import Pages, state, two_people_at_a_table

pytestmark = pytest.mark.browser


def dealt(page: Any) -> None:
    page.wait_for_function(
        "() => { const s = window.__ludoteca && window.__ludoteca.state;"
        " return s && s.view && document.querySelector('button[data-key=abort]'); }"
    )


def test_a_person_aborts_before_their_first_move_and_both_seats_see_it(pages: Pages) -> None:
    ana, bruno, table = two_people_at_a_table(pages, "heroes")
    dealt(ana)
    dealt(bruno)
    first = state(ana)["view"]["to_move"]
    mover, other = (ana, bruno) if first == 0 else (bruno, ana)
    name = "Bruno" if first == 0 else "Ana"
    s = state(mover)
    mover.evaluate(
        "([action, version]) => window.__ludoteca.send({type: 'act', action, version})",
        [s["legal"][0], s["version"]],
    )
    # the move made, the button is gone from the mover's page; the server says why
    mover.wait_for_function("() => window.__ludoteca.state.version === 1")
    mover.locator("button[data-key=abort]").wait_for(state="detached")
    assert state(mover)["abort"] is False and state(other)["abort"] is True
    asked: list[str] = []

    def accept(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    other.once("dialog", accept)
    other.click("button[data-key=abort]")
    for page in (ana, bruno):
        page.locator(".end-panel [data-key=no-result]").wait_for()
        assert page.inner_text("#end-title") == f"Aborted by {name}."
        assert page.locator("#end-title svg").get_attribute("data-icon") == "cross", "no trophy"
        assert "no rating changes" in page.inner_text(".end-panel [data-key=no-result]")
        final = state(page)
        assert final["table"]["status"] == "over" and final["view"]["outcome"]["winners"] == []
        assert final["view"]["ended"]["by"] == "abort"
    assert asked and "no result" in asked[0]
    rating = ana.evaluate(f"() => fetch('/api/tables/{table}/rating').then((r) => r.json())")
    assert rating["changes"] == [], "no rating moves"
    # the verify page checks the table's record, and says how the match ended
    ana.goto(f"{pages.base}/verify?table={table}")
    ana.wait_for_selector("[data-verdict]")
    assert ana.get_attribute("[data-verdict]", "data-verdict") == "ok"
    said = ana.inner_text("[data-key=outcome-text]")
    assert said == f"Outcome: aborted by {name} before their first move; no result.", said
    assert pages.errors == []
