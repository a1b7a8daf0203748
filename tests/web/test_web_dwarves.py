"""Return of the Dwarves in the browser: a match against bots played to the end by clicking lit
tiles and the stones to give and take; the lit tiles and stones are exactly the legal choices."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import pytest

from kit.browser import Pages, decision, phone_screenshot, screenshot, set_name, start_from_home

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser


def lit(page: Page, selector: str, attribute: str) -> set[str]:
    found = page.eval_on_selector_all(selector, f"els => els.map(e => e.dataset.{attribute})")
    return set(found)


def meet(page: Page, legal: list[str], rng: random.Random, done: set[str]) -> str:
    """Trade, steal or trade blind by clicks: a way not ``done`` yet when there is one (the
    match's seed is the table's secret, so which meetings come is not known in advance)."""
    trades = [a.split()[1:] for a in legal if a.startswith("trade ") and a != "trade blind"]
    steals = [a.split()[1] for a in legal if a.startswith("steal ")]
    modes = [m for m, ok in (("trade", trades), ("steal", steals)) if ok]
    if "trade blind" in legal:
        modes.append("blind")
    mode = rng.choice([m for m in modes if m not in done] or modes)
    if mode == "blind":
        page.click(".dw-blind")
        return "trade blind"
    page.click(f".dw-mode[data-key='mode-{mode}']")
    if mode == "steal":
        assert lit(page, ".dw-stone-button.lit[data-side='take']", "stone") == set(steals)
        stone = rng.choice(sorted(steals))
        page.click(f".dw-stone-button[data-side='take'][data-stone='{stone}']")
        return f"steal {stone}"
    assert not lit(page, ".dw-stone-button.lit[data-side='take']", "stone")  # give first
    gives = {g for g, _ in trades}
    assert lit(page, ".dw-stone-button.lit[data-side='give']", "stone") == gives
    give = rng.choice(sorted(gives))
    page.click(f".dw-stone-button[data-side='give'][data-stone='{give}']")
    takes = {t for g, t in trades if g == give}
    assert lit(page, ".dw-stone-button.lit[data-side='take']", "stone") == takes
    take = rng.choice(sorted(takes))
    page.click(f".dw-stone-button[data-side='take'][data-stone='{take}']")
    return f"trade {give} {take}"


KINDS = ["gold", "ruby", "sapphire", "emerald", "garnet", "diamond"]


def stone_key(chest: list[str], stone: str) -> str:
    """The digit of a stone: its place among the kinds the chest holds, in canonical order."""
    return str([k for k in KINDS if k in chest].index(stone) + 1)


def meet_by_keys(page: Page, s: dict[str, Any], rng: random.Random) -> str:
    """A meeting played with the keys only: T, X or B, then digits for the stones."""
    legal = s["legal"]
    position = s["view"]["position"]
    chests = {d["colour"]: d["chest"] for d in position["dwarves"]}
    mine, theirs = chests[position["pending"]["dwarf"]], chests[position["pending"]["with"]]
    choice: str = rng.choice(legal)
    words = choice.split()
    if choice == "trade blind":
        page.keyboard.press("b")
    elif words[0] == "steal":
        page.keyboard.press("x")
        page.keyboard.press(stone_key(theirs, words[1]))
    else:
        page.keyboard.press("t")
        page.keyboard.press(stone_key(mine, words[1]))
        page.keyboard.press(stone_key(theirs, words[2]))
    return choice


def dwarves_turn(page: Page, s: dict[str, Any], rng: random.Random, done: set[str]) -> str:
    legal = s["legal"]
    moves = {a[3:] for a in legal if a.startswith("to ")}
    if moves:
        assert lit(page, ".dw-tile.lit", "tile") == moves
        if rng.random() < 0.3:  # by keys: the arrows walk the lit tiles, Enter goes
            page.keyboard.press("ArrowRight")
            tile = page.evaluate("() => document.activeElement.dataset.tile")
            assert tile in moves
            page.keyboard.press("Enter")
            return f"to {tile}"
        # towards another dwarf while no meeting has been played: a match's deal may else pass
        # without one (the seed is the table's secret)
        position = s["view"]["position"]
        mine = position["pending"]["dwarf"]
        taken = {str(d["tile"]) for d in position["dwarves"] if d["colour"] != mine}
        meetings = sorted(moves & taken) if "trade" not in done else []
        tile = rng.choice(meetings or sorted(moves))
        page.click(f".dw-tile[data-tile='{tile}']")
        return f"to {tile}"
    if rng.random() < 0.4:
        return meet_by_keys(page, s, rng)
    return meet(page, legal, rng, done)


def test_whole_match_by_clicks(pages: Pages) -> None:
    page = pages.open("/")
    set_name(page, "Ana")
    start_from_home(page, "dwarves")
    s = decision(page, -1)
    assert page.locator(".dw-tile").count() == len(s["view"]["position"]["ring"])
    screenshot(page, "dwarves-desktop", readme=True)
    phone_screenshot(page, "dwarves-phone")

    # the keys: H stays, when staying is one of the ways
    ways = {w: m["text"] for m in s["view"]["position"]["pending"]["moves"] for w in m["ways"]}
    if "stay" in ways and ways["stay"] in s["legal"]:
        page.keyboard.press("h")
        page.wait_for_function("(a) => window.__ludoteca.sent.at(-1) === a", arg=ways["stay"])
        s = decision(page, s["version"])

    rng = random.Random(5)
    kinds: set[str] = set()
    version = s["version"] - 1
    for _ in range(400):
        s = decision(page, version)
        if s["view"]["over"]:
            break
        sent = dwarves_turn(page, s, rng, kinds)
        kinds.add(sent.split()[0])
        page.wait_for_function("(a) => window.__ludoteca.sent.at(-1) === a", arg=sent)
        version = s["version"]
    else:
        raise AssertionError("the match did not end")
    assert {"to", "trade"} <= kinds
    assert page.locator(".end-panel").is_visible()
    assert page.locator(".end-reason").inner_text()


def test_every_dwarf_has_its_own_shape_on_a_light_emblem(pages: Pages) -> None:
    """Colour is not the only sign: each dwarf wears its colour's shape, drawn light on the body,
    so the figures tell apart in greyscale too."""
    page = pages.open("/")
    page.click("article[data-game='dwarves'] .play-now")
    page.wait_for_selector(".dw-chest-row .dw-dwarf")
    figures = page.eval_on_selector_all(
        ".dw-chests .dw-chest-row[data-dwarf] .dw-dwarf",
        """els => els.map(svg => {
          const emblem = svg.querySelector('.dw-emblem > *');
          const body = svg.querySelector('.dw-body');
          return {
            shape: emblem.outerHTML.replace(/ class="[^"]*"/, ''),
            emblem: getComputedStyle(emblem).fill,
            body: getComputedStyle(body).fill,
          };
        })""",
    )
    assert len(figures) >= 2
    assert len({f["shape"] for f in figures}) == len(figures), figures
    for figure in figures:
        assert figure["emblem"] == "rgb(255, 255, 255)"
        assert figure["body"] != figure["emblem"]
