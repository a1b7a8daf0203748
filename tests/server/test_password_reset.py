"""Password reset against a real server and a real SMTP server (aiosmtpd): the link mailed to the
account's confirmed address, whom it is for, a new password set with it (the rules of sign-up),
every other session ended, the link refused a second time and once its 30 minutes are over (the
service's clock moved), and the answers that must not tell who exists: the same status, body and
time for a name or an address nobody has, and limits counted alike.

docs/accounts.md#password-reset is the design, #threat-model names these tests."""

from __future__ import annotations

import random
import re
import statistics
import time
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from kit.env import seconds
from kit.notify import Mailbox, mailbox, text_of  # noqa: F401
from kit.servers import ThreadServer, free_port, server_settings
from kit.wait import eventually
from ludoteca.server.accounts.reset import RESET_SECONDS, PasswordResets, reset_digest
from ludoteca.server.storage.schema import password_resets

PASSWORD = "correct horse battery"
NEW_PASSWORD = "purple staple giraffe"
LINK = re.compile(r"(http://\S+/reset#t=(\S+))")


def start(url: str, box: Mailbox, **changes: Any) -> ThreadServer:
    port = free_port()
    settings = server_settings(
        url,
        smtp_host="127.0.0.1",
        smtp_port=box.port,
        smtp_tls="none",
        mail_from="ludoteca <accounts@ludoteca.test>",
        public_url=f"http://127.0.0.1:{port}",
        limit_login="10000/minute",
        limit_signup="10000/minute",
        **changes,
    )
    return ThreadServer(settings, port=port).start()


@pytest.fixture
def server(sqlite_url: str, mailbox: Mailbox) -> Iterator[ThreadServer]:  # noqa: F811
    srv = start(sqlite_url, mailbox)
    yield srv
    srv.stop()


OPENED: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while OPENED:
        OPENED.pop().close()


def page(srv: ThreadServer, **headers: str) -> httpx.Client:
    """As the site's own page: cookies kept, Origin sent."""
    OPENED.append(
        httpx.Client(
            base_url=srv.base, timeout=seconds(30), headers={"Origin": srv.base, **headers}
        )
    )
    return OPENED[-1]


def resets(srv: ThreadServer) -> PasswordResets:
    found = srv.app_state.resets
    assert found is not None
    return found


def with_address(srv: ThreadServer, box: Mailbox, name: str, address: str) -> httpx.Client:
    """A signed-up account whose address is confirmed (the link mailed to it opened)."""
    client = page(srv)
    made = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    assert client.put("/api/me/notify/mail", json={"address": address}).status_code == 202
    mail = eventually(lambda: box.to(address), 10, what="the confirmation mail")[-1]
    link = next(w for w in text_of(mail).split() if "/api/notify/confirm?t=" in w)
    assert httpx.get(link).status_code == 200
    return client


def reset_mail(box: Mailbox, address: str, count: int) -> EmailMessage:
    """The ``count``-th reset mail to ``address`` (waited for)."""
    eventually(
        lambda: len([m for m in box.to(address) if "/reset#t=" in text_of(m)]) >= count,
        10,
        what=f"reset mail {count} to {address}",
    )
    return [m for m in box.to(address) if "/reset#t=" in text_of(m)][count - 1]


def token_of(mail: EmailMessage) -> str:
    found = LINK.search(text_of(mail))
    assert found, text_of(mail)
    return found.group(2)


def settled(srv: ThreadServer, asked: int) -> None:
    """Wait until the service has handled ``asked`` requests (mailed or found nobody)."""
    sent = resets(srv).sent
    eventually(lambda: sent["handled"] >= asked, 10, what=f"{asked} resets handled ({sent})")


# ----------------------------------------------------------------------------- the flow
def test_a_mailed_link_sets_a_new_password_once_and_ends_every_session(
    server: ThreadServer,
    mailbox: Mailbox,  # noqa: F811
) -> None:
    laptop = with_address(server, mailbox, "Ana", "ana@example.org")
    phone = page(server)
    assert phone.post("/api/session", json={"name": "ana", "password": PASSWORD}).status_code == 200
    stranger = page(server)

    asked = stranger.post("/api/password-reset", json={"who": "ANA", "lang": "de"})
    assert asked.status_code == 202, asked.text
    mail = reset_mail(mailbox, "ana@example.org", 1)
    assert mail["Subject"] == "Neues Passwort für ludoteca"
    assert mail["To"] == "ana@example.org"
    assert "Ana" in text_of(mail) and "30 Minuten" in text_of(mail)
    link, token = LINK.search(text_of(mail)).groups()  # type: ignore[union-attr]
    assert link.startswith(f"{server.base}/reset#t="), "the token rides in the fragment"
    # the database keeps a digest of the random part, never the token
    with server.app_state.accounts.store.engine.connect() as conn:
        rows = conn.execute(select(password_resets)).all()
    [row] = rows
    assert re.fullmatch(r"[0-9a-f]{64}", row.token) and row.token not in token
    assert row.expires_at - row.created_at == RESET_SECONDS
    assert httpx.get(f"{server.base}/reset").status_code == 200, "the page the link opens"

    # whom the link is for; a password the rules refuse changes nothing and keeps the link
    newcomer = page(server)
    assert newcomer.post("/api/password-reset/account", json={"token": token}).json() == {
        "name": "Ana"
    }
    for bad in ("short", "password1", "my name is ana"):
        refused = newcomer.post(
            "/api/password-reset/password", json={"token": token, "password": bad}
        )
        assert refused.status_code == 422 and refused.json()["error"] == "bad_password", bad
    assert laptop.get("/api/me").status_code == 200, "a refused password ends nothing"

    planted = "attacker-chosen-value-0123456789"  # session fixation: a cookie set beforehand
    newcomer.cookies.set("ludoteca_session", planted, domain="127.0.0.1")
    done = newcomer.post(
        "/api/password-reset/password", json={"token": token, "password": NEW_PASSWORD}
    )
    assert done.status_code == 200 and done.json() == {"name": "Ana"}
    assert newcomer.cookies["ludoteca_session"] != planted
    fixed = page(server)
    fixed.cookies.set("ludoteca_session", planted, domain="127.0.0.1")
    assert fixed.get("/api/me").status_code == 401, "the planted id never became a session"
    assert newcomer.get("/api/me").json()["name"] == "Ana", "the browser that set it is signed in"
    for old in (laptop, phone):
        assert old.get("/api/me").status_code == 401, "every other session ended"
    old_login = page(server).post("/api/session", json={"name": "ana", "password": PASSWORD})
    assert old_login.status_code == 401
    new_login = page(server).post("/api/session", json={"name": "ana", "password": NEW_PASSWORD})
    assert new_login.status_code == 200

    # used once: the same link is refused, and sets nothing
    again = page(server)
    for path, body in (
        ("/api/password-reset/account", {"token": token}),
        ("/api/password-reset/password", {"token": token, "password": "another fine phrase"}),
    ):
        refused = again.post(path, json=body)
        assert refused.status_code == 400 and refused.json()["error"] == "bad_reset_link"
    assert newcomer.get("/api/me").status_code == 200
    with server.app_state.accounts.store.engine.connect() as conn:
        assert conn.execute(select(password_resets)).all() == [], "no link left behind"


def test_a_link_is_refused_once_its_30_minutes_are_over_and_when_forged(
    server: ThreadServer,
    mailbox: Mailbox,  # noqa: F811
) -> None:
    with_address(server, mailbox, "Bruno", "Bruno@Example.org")
    asked = page(server).post("/api/password-reset", json={"who": "bruno@example.ORG"})
    assert asked.status_code == 202, "an address is matched whatever its case"
    token = token_of(reset_mail(mailbox, "Bruno@Example.org", 1))
    service = resets(server)
    made = time.time()
    client = page(server)

    def whose() -> httpx.Response:
        return client.post("/api/password-reset/account", json={"token": token})

    service.now = lambda: made + RESET_SECONDS - 5
    assert whose().status_code == 200, "still good at 29:55"
    service.now = lambda: made + RESET_SECONDS + 5
    assert whose().json()["error"] == "bad_reset_link"
    late = client.post(
        "/api/password-reset/password", json={"token": token, "password": NEW_PASSWORD}
    )
    assert late.status_code == 400 and late.json()["error"] == "bad_reset_link"
    service.now = time.time
    assert whose().status_code == 400, "an expired link tried once is gone"
    old = page(server).post("/api/session", json={"name": "Bruno", "password": PASSWORD})
    assert old.status_code == 200, "the password did not change"

    # forged: another random part, an altered signature, another link's token, no token
    page(server).post("/api/password-reset", json={"who": "Bruno"})
    good = token_of(reset_mail(mailbox, "Bruno@Example.org", 2))
    head, _, mac = good.partition(".")
    unsubscribe = server.app_state.notifier.keys.sign("mail", "x")
    for forged in (
        server.app_state.notifier.keys.sign("push", head),
        f"{head}.{mac[:-2]}AA",
        f"{head[:-2]}AA.{mac}",
        unsubscribe,
        "",
    ):
        refused = client.post("/api/password-reset/account", json={"token": forged})
        assert refused.status_code == 400 and refused.json()["error"] == "bad_reset_link", forged
    assert client.post("/api/password-reset/account", json={"token": good}).status_code == 200
    assert reset_digest(good) != reset_digest(head)


# ------------------------------------------------------------------- telling nobody who
def test_the_answer_is_the_same_status_body_and_time_whoever_is_named(
    sqlite_url: str,
    mailbox: Mailbox,  # noqa: F811
) -> None:
    """60 rounds; each asks once, in a shuffled order, for a name and an address that have an
    account with a confirmed address, and for a name and an address nobody has (each kind the
    same one every time, so that the limits' windows are alike). The wall time of each answer is
    measured; the mailing happens after the answer, and the next ask waits until it is done.
    A shared machine's load comes in bursts, so each time is read against the median of its
    own round; the medians of those shares must lie within a factor of 1.3 of each other (and
    the plain medians are printed)."""
    srv = start(sqlite_url, mailbox, limit_reset="10000/hour", limit_reset_mail="10000/hour")
    try:
        with_address(srv, mailbox, "Carla", "carla@example.org")
        client = page(srv)
        asked = {
            "name": "Carla",
            "address": "carla@example.org",
            "unknown name": "Nobody",
            "unknown address": "nobody@example.org",
        }
        rng = random.Random(36)
        wall: dict[str, list[float]] = {k: [] for k in asked}
        share: dict[str, list[float]] = {k: [] for k in asked}
        answers = set()
        handled = 0
        for _ in range(60):
            order = list(asked)
            rng.shuffle(order)
            took = {}
            for kind in order:
                started = time.perf_counter()
                answer = client.post("/api/password-reset", json={"who": asked[kind]})
                took[kind] = time.perf_counter() - started
                answers.add((answer.status_code, answer.content, answer.headers.get("set-cookie")))
                handled += 1
                settled(srv, handled)
            middle = statistics.median(took.values())
            for kind, seconds_taken in took.items():
                wall[kind].append(seconds_taken)
                share[kind].append(seconds_taken / middle)
        assert len(answers) == 1, answers
        assert next(iter(answers))[0] == 202
        assert resets(srv).sent["mail"] == 120, "the known name and address were mailed each time"
        medians = {k: statistics.median(v) * 1000 for k, v in wall.items()}
        shares = {k: statistics.median(v) for k, v in share.items()}
        print(
            "\npassword reset asked, median of 60: "
            + ", ".join(f"{k} {ms:.2f} ms" for k, ms in medians.items())
            + "; against its round: "
            + ", ".join(f"{k} {x:.2f}" for k, x in shares.items())
        )
        assert max(shares.values()) / min(shares.values()) < 1.3, shares
    finally:
        srv.stop()


def test_asking_is_limited_per_client_per_name_or_address_and_per_account(
    sqlite_url: str,
    mailbox: Mailbox,  # noqa: F811
) -> None:
    srv = start(
        sqlite_url,
        mailbox,
        limit_reset="8/hour",
        limit_reset_mail="2/hour",
        forwarded_allow_ips="127.0.0.1",
    )
    try:
        with_address(srv, mailbox, "Dora", "dora@example.org")
        here = page(srv, **{"X-Forwarded-For": "203.0.113.1"})

        def asks(who: str, n: int) -> list[tuple[int, str]]:
            said = []
            for _ in range(n):
                answer = here.post("/api/password-reset", json={"who": who})
                said.append((answer.status_code, re.sub(r"[0-9]+", "N", answer.text)))
            return said

        known, unknown = asks("Dora", 3), asks("Nobody", 3)
        assert [s for s, _ in known] == [202, 202, 429]
        assert known == unknown, "a name nobody has is counted and answered alike"
        settled(srv, 4)
        assert len([m for m in mailbox.to("dora@example.org") if "/reset#" in text_of(m)]) == 2

        # per account: asked by its address from elsewhere, the account's own window is full
        there = page(srv, **{"X-Forwarded-For": "203.0.113.2"})
        by_address = there.post("/api/password-reset", json={"who": "dora@example.org"})
        assert by_address.status_code == 202
        settled(srv, 5)
        assert resets(srv).sent["limited"] == 1
        assert len([m for m in mailbox.to("dora@example.org") if "/reset#" in text_of(m)]) == 2

        # per client address: two more names fill its 8, whoever they are
        assert [s for s, _ in asks("Edu", 1) + asks("Fia", 1)] == [202, 202]
        full = here.post("/api/password-reset", json={"who": "Gil"})
        assert full.status_code == 429 and full.json()["error"] == "rate_limited"
        assert int(full.headers["Retry-After"]) > 0
    finally:
        srv.stop()


# ------------------------------------------------------------------------ bad requests
def test_bad_requests_are_refused_with_a_reason_and_change_nothing(
    server: ThreadServer,
    mailbox: Mailbox,  # noqa: F811
) -> None:
    client = page(server)
    for body in (
        {"who": ""},
        {"who": "<script>alert(1)</script>"},
        {"who": "ana@localhost"},
        {"who": "ana@example.org\r\nBcc: all@example.org"},
        {"who": "x" * 300},
        {"who": 7},
        {"who": "ana", "extra": 1},
        {},
    ):
        refused = client.post("/api/password-reset", json=body)
        assert refused.status_code == 422, (body, refused.text)
        assert refused.json()["error"] in {"bad_request", "invalid_request"}, refused.text
        assert refused.json()["message"]
    for body in ({"token": "x" * 301}, {"token": "t", "password": "p" * 300}, {"token": None}):
        path = (
            "/api/password-reset/password" if "password" in body else "/api/password-reset/account"
        )
        assert client.post(path, json=body).status_code == 422
    assert resets(server).sent["handled"] == 0 and resets(server).queue.empty()
    assert mailbox.mails == []


def test_a_server_without_mail_has_no_reset(sqlite_url: str) -> None:
    srv = ThreadServer(server_settings(sqlite_url)).start()
    try:
        answer = httpx.post(
            f"{srv.base}/api/password-reset", json={"who": "ana"}, headers={"Origin": srv.base}
        )
        assert answer.status_code == 404 and answer.json()["error"] == "not_found"
    finally:
        srv.stop()


def test_another_site_cannot_ask_for_a_reset_nor_use_a_link(
    server: ThreadServer,
    mailbox: Mailbox,  # noqa: F811
) -> None:
    """Login CSRF through a reset: a page elsewhere that posts its owner's own link would sign
    the visitor in to the owner's account; refused as a cross-site sign-in is."""
    with_address(server, mailbox, "Eva", "eva@example.org")
    page(server).post("/api/password-reset", json={"who": "Eva"})
    token = token_of(reset_mail(mailbox, "eva@example.org", 1))
    evil = {"Origin": "https://evil.example"}
    referer = {"Referer": "https://evil.example/page"}
    for headers in (evil, referer):
        for path, body in (
            ("/api/password-reset", {"who": "Eva"}),
            ("/api/password-reset/account", {"token": token}),
            ("/api/password-reset/password", {"token": token, "password": NEW_PASSWORD}),
        ):
            across = httpx.post(f"{server.base}{path}", json=body, headers=headers)
            assert across.status_code == 403 and across.json()["error"] == "bad_origin", path
            assert "set-cookie" not in across.headers
    settled(server, 1)
    assert resets(server).sent["mail"] == 1, "no mail asked for from elsewhere"
    still = page(server).post("/api/password-reset/account", json={"token": token})
    assert still.status_code == 200, "the link still works from this site"
