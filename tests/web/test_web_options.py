"""A game's table options in the browser: the lobby form offers a labelled select per option of
the chosen game (none for a game without), chosen by keys; the table is created with them, its
head names them and the match is dealt with them."""

from __future__ import annotations

import pytest

from kit.browser import Pages, set_name, state
from kit.servers import api

pytestmark = pytest.mark.browser


def test_a_liars_dice_table_with_three_dice_and_one_round(pages: Pages) -> None:
    page = pages.open("/")
    set_name(page, "Ana")
    page.select_option("#create-game", "heroes")
    assert page.locator(".options-field").count() == 0  # a game without options shows none
    page.select_option("#create-game", "liars-dice")
    # a labelled select per option, each at its default
    dice = page.get_by_label("Dice per player")
    rounds = page.get_by_label("Rounds", exact=True)
    assert dice.input_value() == "5" and rounds.input_value() == "last-standing"
    assert page.get_by_label("Raising a bid").input_value() == "reset-face"
    labels = page.locator("#create-option-dice option").all_inner_texts()
    assert labels == ["1 die", "2 dice", "3 dice", "4 dice", "5 dice"]
    # chosen by keys: focus the select and move through its values
    dice.focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert dice.input_value() == "3"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "create-option-rounds"
    page.keyboard.press("ArrowDown")
    assert rounds.input_value() == "one"
    page.select_option("#create-players", "3")
    page.select_option("#seat-kind-1", "bot:random")
    page.select_option("#seat-kind-2", "bot:random")
    page.click(".create-form button[type=submit]")
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]

    page.wait_for_selector(".table-options li[data-option=dice]")
    head = {
        li.get_attribute("data-option"): li.inner_text()
        for li in page.locator(".table-options li").all()
    }
    assert head == {
        "dice": "Dice per player: 3 dice",
        "rounds": "Rounds: One round",
        "bidding": "Raising a bid: Reset face (raise the quantity, any face)",
    }
    summary = api(pages.base).get(f"/api/tables/{table_id}").json()["table"]
    assert summary["params"] == {
        "players": 3,
        "dice": 3,
        "rounds": "one",
        "bidding": "reset-face",
    }
    page.wait_for_function("() => window.__ludoteca.state.view !== null")
    seen = state(page)["view"]["position"]  # the match is dealt with the options chosen
    assert seen["dice"] == 3 and seen["rounds"] == "one" and seen["players"] == 3
    if seen["hand"] is not None:  # two bots may bid and call before the page reads: then it is over
        assert len(seen["hand"]) == 3 and seen["counts"] == [3, 3, 3]
    else:
        assert state(page)["table"]["status"] == "over"


def test_the_options_are_named_in_the_readers_language(pages: Pages) -> None:
    page = pages.open("/", locale="de-DE")
    page.select_option("#create-game", "liars-dice")
    assert page.locator(".options-field legend").inner_text() == "Tischoptionen"
    assert page.get_by_label("Würfel pro Person").input_value() == "5"
    assert "Eine Runde" in page.locator("#create-option-rounds").inner_text()
