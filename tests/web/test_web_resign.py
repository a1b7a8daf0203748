"""Resigning a 2-player match in the browser (docs/protocol.md#resigning): Ana and Bruno at a
Heroes table; Ana resigns (asked to confirm, told the match ends and the other side wins), both
pages end at once: "You resigned — Bruno wins" on hers, "Ana resigned — you win" on his, with the
trophy of a result; no bot took her seat; the verify page accepts the table's signed record and
says who resigned and who won, and the replay tells it at the last step."""

from __future__ import annotations

from typing import Any

import pytest

from kit.browser import Pages, state, two_people_at_a_table

pytestmark = pytest.mark.browser


def dealt(page: Any) -> None:
    page.wait_for_function(
        "() => { const s = window.__ludoteca && window.__ludoteca.state;"
        " return s && s.view && document.querySelector('button[data-key=resign]'); }"
    )


def test_a_person_resigns_a_two_player_match_and_the_other_wins(pages: Pages) -> None:
    ana, bruno, table = two_people_at_a_table(pages, "heroes")
    dealt(ana)
    dealt(bruno)
    me = state(ana)["seat"]
    asked: list[str] = []

    def accept(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    ana.once("dialog", accept)
    ana.click("button[data-key=resign]")
    for page, heading in ((ana, "You resigned — Bruno wins"), (bruno, "Ana resigned — you win")):
        page.locator(".end-panel [data-key=resigned]").wait_for()
        assert page.inner_text("#end-title") == heading
        assert page.locator("#end-title svg").get_attribute("data-icon") == "trophy", "a result"
        final = state(page)
        assert final["table"]["status"] == "over"
        assert final["view"]["ended"] == {"by": "resign", "seat": me}
        assert final["view"]["outcome"]["winners"] == [1 - me]
        assert [s["kind"] for s in final["table"]["seats"]] == ["human", "human"], "no bot"
        assert page.locator("button[data-key=resign]").count() == 0
    assert asked and "the other side wins" in asked[0], asked
    # the verify page checks the table's record, and says who resigned and who won
    ana.goto(f"{pages.base}/verify?table={table}")
    ana.wait_for_selector("[data-verdict]")
    assert ana.get_attribute("[data-verdict]", "data-verdict") == "ok"
    said = ana.inner_text("[data-key=outcome-text]")
    assert said == "Outcome: Ana resigned; Bruno wins.", said
    # the replay tells it at its last step (the deal: no step was played)
    bruno.goto(f"{pages.base}/replay/{table}")
    told = bruno.locator(".replay-told .replay-lines")
    told.wait_for()
    assert "Ana resigned — Bruno wins" in told.inner_text()
