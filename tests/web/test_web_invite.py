"""The invite page on a phone (390×844), as the friend who follows the link reads it: which game,
at which pace, who invites them and the seats; their name asked (prefilled when this browser
knows it) and used to join; the operator's instructions for the host only."""

from __future__ import annotations

import httpx
import pytest

from kit.browser import PHONE, Pages

pytestmark = pytest.mark.browser

WIDE = "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"


def invite(base: str) -> tuple[str, str]:
    """Ana's turn-based table of two people, waiting for a guest: its id and Ana's token."""
    made = httpx.post(
        f"{base}/api/tables",
        json={
            "game": "heroes",
            "seats": [{"bot": False}, {"bot": False}],
            "name": "Ana",
            "pace": "turn-based",
            "turn_seconds": 86400,
        },
    ).json()
    return made["table"]["id"], made["token"]


def seats(base: str, table: str) -> list[dict[str, object]]:
    found: list[dict[str, object]] = httpx.get(f"{base}/api/tables/{table}").json()["table"][
        "seats"
    ]
    return found


def test_a_guest_on_a_phone_reads_the_invite_and_joins_with_their_own_name(
    pages: Pages,
) -> None:
    table, token = invite(pages.base)
    guest = pages.open(f"/table/{table}", viewport=PHONE, touch=True)
    guest.wait_for_selector(".waiting")
    heading = guest.locator("#waiting-title")
    assert heading.inner_text() == "Ana invites you to play Heroes & Relics."
    assert guest.inner_text(".waiting-pace") == "Pace: 1 day per move"
    rows = guest.locator(".waiting .seat-row .seat-name").all_inner_texts()
    assert rows[0] == "Ana" and len(rows) == 2
    # the page's own title names the game too, readable on a phone (not cut to nothing)
    title = guest.locator(".table-head h1")
    assert title.inner_text() == "Heroes & Relics"
    box = title.bounding_box()
    assert box is not None and box["width"] >= 60, f"the game's name is cut away: {box}"
    head = guest.locator(".table-head").bounding_box()
    assert head is not None and head["height"] <= 48, f"the head takes more than a line: {head}"
    # the operator's instructions are for the host, never for a guest
    assert guest.locator(".invite-local").count() == 0
    assert "--host" not in guest.inner_text("body")
    wide = guest.evaluate(WIDE)
    assert wide[0] <= wide[1], f"the invite scrolls sideways on a phone: {wide}"

    # no name: the field says so beside it, focused and announced, and nobody joins
    name = guest.locator("#guest-name")
    assert guest.inner_text("label[for=guest-name]") == "Your name at the table"
    name.fill("  ")
    guest.click(".join-seat")
    assert name.get_attribute("aria-invalid") == "true"
    assert name.get_attribute("aria-describedby") == "guest-name-error"
    assert guest.evaluate("() => document.activeElement.id") == "guest-name"
    error = guest.locator("#guest-name-error")
    assert error.is_visible() and error.get_attribute("role") == "alert"
    assert error.inner_text() == "Type the name the others will see."
    assert seats(pages.base, table)[1]["kind"] == "open"
    # by keyboard: the name typed, then the seat taken with it
    name.fill("Bia")
    assert name.get_attribute("aria-invalid") == "false" and not error.is_visible()
    guest.focus(".join-seat")
    guest.keyboard.press("Enter")
    guest.wait_for_function(
        "() => window.__ludoteca && window.__ludoteca.seat === 1", timeout=20_000
    )
    assert seats(pages.base, table)[1]["name"] == "Bia"

    # the host sees how to make the link reach other devices (this server is on 127.0.0.1)
    host = pages.open("/", viewport=PHONE, touch=True)
    host.evaluate(
        "([table, token]) => localStorage.setItem('ludoteca.seats',"
        " JSON.stringify({ [table]: { seat: 0, token, at: Date.now() } }))",
        [table, token],
    )
    other, other_token = invite(pages.base)
    host.evaluate(
        "([table, token]) => { const held = JSON.parse(localStorage.getItem('ludoteca.seats'));"
        " held[table] = { seat: 0, token, at: Date.now() };"
        " localStorage.setItem('ludoteca.seats', JSON.stringify(held)); }",
        [other, other_token],
    )
    host.goto(f"{pages.base}/table/{other}")
    host.wait_for_selector(".waiting")
    assert host.inner_text("#waiting-title") == "Waiting for players"
    assert "--host 0.0.0.0" in host.inner_text(".invite-local")
    assert host.locator("#guest-name").count() == 0


def test_a_guest_this_browser_knows_finds_their_name_typed_in_every_language(
    pages: Pages,
) -> None:
    for lang, invited, label in (
        ("pt-BR", "Ana convida você para jogar", "Seu nome na mesa"),
        ("de-DE", "Ana lädt dich zu", "Dein Name am Tisch"),
    ):
        table, _ = invite(pages.base)
        guest = pages.open("/", viewport=PHONE, touch=True, locale=lang)
        guest.evaluate("() => localStorage.setItem('ludoteca.name', JSON.stringify('Bia'))")
        guest.goto(f"{pages.base}/table/{table}")
        guest.wait_for_selector(".waiting")
        assert guest.inner_text("#waiting-title").startswith(invited)
        assert guest.inner_text("label[for=guest-name]") == label
        assert guest.input_value("#guest-name") == "Bia"
        guest.click(".join-seat")
        guest.wait_for_function("() => window.__ludoteca && window.__ludoteca.seat === 1")
        assert seats(pages.base, table)[1]["name"] == "Bia"


def test_the_name_a_guest_typed_survives_the_room_being_drawn_again(pages: Pages) -> None:
    """Someone else takes a seat while the guest is typing: the room is drawn again with one
    seat fewer, and the name typed is still in the field and is the one the seat gets."""
    made = httpx.post(
        f"{pages.base}/api/tables",
        json={"game": "dice-heroes", "seats": [{}, {}, {}], "name": "Ana"},
    ).json()
    table = made["table"]["id"]
    guest = pages.open(f"/table/{table}", viewport=PHONE, touch=True)
    guest.wait_for_selector(".join-seat[data-key='join-2']")
    guest.fill("#guest-name", "Bia")
    httpx.post(f"{pages.base}/api/tables/{table}/join", json={"name": "Caio", "seat": 1})
    guest.wait_for_selector(".join-seat[data-key='join-1']", state="detached")
    assert guest.input_value("#guest-name") == "Bia"
    guest.click(".join-seat[data-key='join-2']")
    guest.wait_for_function("() => window.__ludoteca && window.__ludoteca.seat === 2")
    assert seats(pages.base, table)[2]["name"] == "Bia"
