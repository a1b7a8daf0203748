"""The table chat in the browser (docs/protocol.md#chat): two people at a Heroes table, one page
in German and one in English, exchange a quick phrase and each reads it in their own language,
the other's said in the live region, and the replay shows it to them afterwards; a signed-in
person reports another's message from the chat (never their own); free text at a
table of quick phrases is refused with a clear error; at a table that allows it, a signed-in
person's `<img src=x onerror=alert(1)>` is shown as text; a spectator's message never reaches the
seated; on a phone the chat is below the board, not over it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kit.browser import PHONE, Pages, set_name

pytestmark = pytest.mark.browser

XSS = "<img src=x onerror=alert(1)>"


def dealt(page: Any) -> None:
    page.wait_for_function(
        "() => { const s = window.__ludoteca && window.__ludoteca.state; return s && s.view; }"
    )
    page.locator(".chat-panel").wait_for()


def open_chat(page: Any) -> None:
    """By keyboard: C opens the chat and puts the focus on the first quick phrase."""
    page.locator("body").click(position={"x": 2, "y": 2})
    page.keyboard.press("c")
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.dataset.phrase === 'gg'"
    )


def shows(page: Any, words: str) -> None:
    """Wait until the page's chat shows a message of exactly these words."""
    page.wait_for_function(
        "(w) => [...document.querySelectorAll('.chat-words')].some(e => e.textContent === w)",
        arg=words,
    )


def said(page: Any) -> list[str]:
    words: list[str] = page.eval_on_selector_all(
        ".chat-line .chat-words", "els => els.map(e => e.textContent)"
    )
    return words


def test_a_quick_phrase_in_each_reader_s_language_and_free_text_refused(pages: Pages) -> None:
    ana = pages.open("/", locale="de-DE")
    set_name(ana, "Ana")
    ana.select_option("#create-game", "heroes")
    ana.select_option("#seat-kind-1", "person")
    assert ana.locator("#create-chat").input_value() == "phrases", "quick phrases only by default"
    ana.click(".create-form button[type=submit]")
    ana.wait_for_url("**/table/*")
    table = ana.url.rsplit("/", 1)[1]
    # before the match, in the waiting room: a word while waiting
    ana.locator(".chat-panel").wait_for()
    ana.click(".chat-panel summary")
    ana.click(".chat-phrase[data-phrase=gl]")
    shows(ana, "Viel Glück")
    bruno = pages.open("/", locale="en-US")
    set_name(bruno, "Bruno")
    bruno.goto(f"{pages.base}/table/{table}")
    bruno.click("[data-key=join-1]")
    dealt(ana)
    dealt(bruno)
    assert said(bruno) == ["Good luck"], "the history at the (re)connection, in English"
    assert ana.locator(".table-side .chat-panel").count() == 1, "in the side once dealt"
    keys = ana.eval_on_selector_all(".keys-panel dt kbd", "els => els.map(e => e.textContent)")
    assert "C" in keys, "the key is in the keys panel"

    open_chat(ana)
    ana.keyboard.press("Enter")  # Good game, from the keyboard
    shows(ana, "Gutes Spiel")
    shows(bruno, "Good game")
    bruno.wait_for_function(
        "() => document.getElementById('live').textContent === 'Ana: Good game'"
    )
    bruno.click(".chat-panel summary")
    bruno.click(".chat-phrase[data-phrase=wp]")
    shows(ana, "Gut gespielt")
    assert said(ana) == ["Viel Glück", "Gutes Spiel", "Gut gespielt"]
    assert said(bruno) == ["Good luck", "Good game", "Well played"]
    assert "nur Schnellsätze" in ana.inner_text(".chat-note"), "no text box at a table of phrases"
    assert ana.locator(".chat-form").count() == 0

    # a client that sends free text anyway is refused, and told why in the reader's language
    ana.evaluate("() => window.__ludoteca.send({type: 'chat', ref: 99, text: 'hallo'})")
    problem = ana.locator(".chat-problem")
    problem.wait_for()
    assert problem.inner_text() == "An diesem Tisch erlaubt der Gastgeber nur Schnellsätze."
    assert said(ana) == ["Viel Glück", "Gutes Spiel", "Gut gespielt"]

    # Bruno resigns: at two seats the match ends at once, Ana the winner, and the replay shows
    # those who sat there their chat
    bruno.evaluate("() => window.__ludoteca.send({type: 'resign'})")
    ana.wait_for_function("() => window.__ludoteca.state.view.over")
    ana.goto(f"{pages.base}/replay/{table}")
    ana.locator(".chat-record .chat-line").first.wait_for()
    assert said(ana) == ["Viel Glück", "Gutes Spiel", "Gut gespielt"]


def signed_in_table(pages: Pages, name: str, *choices: tuple[str, str]) -> tuple[Any, str]:
    """A page signed up as ``name`` that opened a Heroes table from the lobby form with these
    ``(select, value)`` choices: the page and the table's id."""
    page = pages.open("/")
    made = page.request.post(
        f"{pages.base}/api/accounts",
        data={"name": name, "password": "a long pass phrase 7"},
        headers={"Origin": pages.base},
    )
    assert made.status == 201, made.text()
    page.reload()
    page.select_option("#create-game", "heroes")
    for select, value in choices:
        page.select_option(select, value)
    page.click(".create-form button[type=submit]")
    page.wait_for_url("**/table/*")
    return page, page.url.rsplit("/", 1)[1]


# the hash of the seat's commitment, which the hello carries, made 0.8 s slower
SLOW_HASH = """
const digest = crypto.subtle.digest.bind(crypto.subtle);
crypto.subtle.digest = (...args) =>
  new Promise((done) => setTimeout(done, 800)).then(() => digest(...args));
"""


def test_a_phrase_sent_before_the_hello_went_out_follows_it(pages: Pages) -> None:
    """The hello waits for the commitment's hash; a quick phrase sent on the open connection
    meanwhile goes out after it (the server takes nothing before the hello: the phrase was lost,
    now and then, when the hash came late on a busy machine)."""
    ana = pages.open("/")
    ana.context.add_init_script(SLOW_HASH)
    ana.reload()
    set_name(ana, "Ana")
    ana.select_option("#create-game", "heroes")
    ana.select_option("#seat-kind-1", "person")
    sent: list[str] = []
    ana.on("websocket", lambda ws: ws.on("framesent", lambda text: sent.append(str(text))))
    ana.click(".create-form button[type=submit]")
    ana.wait_for_url("**/table/*")
    ana.locator(".chat-panel").wait_for()
    ana.click(".chat-panel summary")
    ana.click(".chat-phrase[data-phrase=gl]")
    shows(ana, "Good luck")
    kinds = [json.loads(text)["type"] for text in sent]
    assert kinds.index("hello") < kinds.index("chat"), kinds


def test_text_is_shown_as_text_and_spectators_do_not_coach(pages: Pages) -> None:
    ana, table = signed_in_table(pages, "Chatty Ana", ("#create-chat", "text"))
    dealt(ana)
    alerts: list[str] = []
    ana.on("dialog", lambda dialog: (alerts.append(dialog.message), dialog.dismiss()))
    ana.click(".chat-panel summary")
    ana.fill("#chat-text", XSS)
    ana.press("#chat-text", "Enter")
    shows(ana, XSS)
    assert ana.locator(".chat-panel img").count() == 0 and alerts == []

    # a spectator on a phone: writes to the spectators' room; the seated never read it
    carla = pages.open(f"/table/{table}", viewport=PHONE, touch=True)
    dealt(carla)
    assert carla.evaluate("() => window.__ludoteca.seat") is None
    assert said(carla) == [], "spectators do not read the seats' room"
    board = carla.locator(".board-root").bounding_box()
    chat = carla.locator(".chat-panel").bounding_box()
    assert board and chat and chat["y"] >= board["y"] + board["height"], "below the board"
    carla.click(".chat-panel summary")
    assert "Sign in" in carla.inner_text(".chat-note"), "a guest is told why there is no text box"
    small = carla.evaluate(
        """() => [...document.querySelectorAll('.chat-panel button, .chat-panel summary')]
              .map((el) => el.getBoundingClientRect())
              .filter((r) => r.width < 40 || r.height < 40).length"""
    )
    assert small == 0, "every chat control is a 40 px tap target on a phone"
    carla.click(".chat-phrase[data-phrase=your_turn]")
    shows(carla, "Your turn!")
    ana.click(".chat-phrase[data-phrase=thinking]")
    shows(ana, "Thinking…")
    assert said(ana) == [XSS, "Thinking…"], "no spectator's word reaches a seat during the match"
    assert said(carla) == ["Your turn!"]


def test_a_signed_in_person_reports_another_s_message_from_the_chat(pages: Pages) -> None:
    ana, table = signed_in_table(pages, "Reporting Ana", ("#seat-kind-1", "person"))
    bia = pages.open(f"/table/{table}", locale="de-DE")
    bia.fill("#guest-name", "Bia")
    bia.click("[data-key='join-1']")
    dealt(ana)
    dealt(bia)
    open_chat(bia)
    bia.click("[data-phrase='oops']")
    shows(ana, "Oops")
    if not ana.locator(".chat-panel[open]").count():
        ana.click(".chat-panel summary")
    line = ana.locator(".chat-line", has_text="Oops")
    # a guest has no report button; a signed-in reader has one on others' messages only
    assert bia.locator(".chat-report").count() == 0
    line.locator(".chat-report").click()
    form = ana.locator(".chat-report-form")
    assert ana.evaluate("() => document.activeElement.name") == "reason"
    form.locator("select").select_option("spam")
    form.locator("input[name=note]").fill("again and again")
    form.locator("button[type=submit]").click()
    form.wait_for(state="detached")
    reports = ana.request.get(f"{pages.base}/api/me/export").json()["friends"]["reports_made"]
    assert [(r["kind"], r["reason"], r["note"]) for r in reports] == [
        ("message", "spam", "again and again")
    ]
    # one's own message has no report button
    ana.click("[data-phrase='thanks']")
    shows(ana, "Thanks")
    own = ana.locator(".chat-line", has_text="Thanks")
    assert own.locator(".chat-report").count() == 0
