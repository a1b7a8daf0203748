"""'Your turn' notifications against a real server: pushes that a push service on 127.0.0.1
receives and a device's keys decrypt, mail that an SMTP server receives, and the attacks the
routes must stand (no subscription without the seat's token or the session, no cross-site
request, no forged unsubscribe link, no push to an arbitrary host, rate limits).

The turn is announced the way the table does it (``Services.turns.turn_began``), from the test's
thread: the notifier hands it to the server's loop."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from kit.client import two_people_table
from kit.env import seconds
from kit.notify import Device, Mailbox, PushService, mailbox, push_service, text_of  # noqa: F401
from kit.servers import ThreadServer, free_port, server_settings
from kit.wait import eventually
from ludoteca.games import all_games
from ludoteca.server.accounts.rows import memory_engine
from ludoteca.server.accounts.rules import RuleError, check_address
from ludoteca.server.accounts.store import AccountStore
from ludoteca.server.config import Settings
from ludoteca.server.notify.notifier import SENDERS
from ludoteca.server.notify.push import BadSubscription, allowed_endpoint
from ludoteca.server.notify.store import MAX_PUSH_PER_ACCOUNT, MAX_PUSH_PER_SEAT, NotifyStore
from ludoteca.server.table.turns import TurnBegan

PASSWORD = "correct horse battery"
COUNT = 200
DEADLINE = 1_800_000_000.0  # 2027-01-15 08:00 UTC


def settings_for(url: str, port: int, smtp_port: int, **changes: Any) -> Settings:
    return server_settings(
        url,
        push=True,
        push_allow_loopback=True,
        smtp_host="127.0.0.1",
        smtp_port=smtp_port,
        smtp_tls="none",
        mail_from="ludoteca <turns@ludoteca.test>",
        public_url=f"http://127.0.0.1:{port}",
        limit_login="10000/minute",
        limit_signup="10000/minute",
        **changes,
    )


@pytest.fixture
def server(sqlite_url: str, mailbox: Mailbox) -> Iterator[ThreadServer]:  # noqa: F811
    port = free_port()
    srv = ThreadServer(settings_for(sqlite_url, port, mailbox.port), port=port).start()
    yield srv
    srv.stop()


OPENED: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while OPENED:
        OPENED.pop().close()


def client(srv: ThreadServer, **options: Any) -> httpx.Client:
    OPENED.append(httpx.Client(base_url=srv.base, timeout=seconds(30), **options))
    return OPENED[-1]


def page_client(srv: ThreadServer) -> httpx.Client:
    """As the site's own pages: cookies kept, Origin sent."""
    return client(srv, headers={"Origin": srv.base})


def signed_up(srv: ThreadServer, name: str) -> httpx.Client:
    client = page_client(srv)
    assert (
        client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
    )
    return client


def name_of(lang: str) -> str:
    return all_games()["heroes"].spec.name(lang)


def turn(srv: ThreadServer, table: str, seat: int, deadline: float = DEADLINE) -> None:
    srv.app_state.notifier.turn_began(TurnBegan(table, "heroes", seat, 3, deadline))


def wait_sent(srv: ThreadServer, kind: str, count: int, seconds: float = 10) -> None:
    sent = srv.app_state.notifier.sent
    eventually(lambda: sent[kind] >= count, seconds, what=f"{count} {kind} sent ({sent})")


# ------------------------------------------------------------------------------ push
@pytest.mark.slow
def test_a_guests_seat_is_pushed_its_turn_encrypted_for_its_device_alone(
    server: ThreadServer,
    push_service: PushService,  # noqa: F811
) -> None:
    table, tokens = two_people_table(server.base)
    mine, other = push_service.device("bruno"), push_service.device("ana")
    http = client(server)
    offered = http.get("/api/notify").json()
    assert offered["push"] is True and offered["mail"] is True
    for device, token in ((mine, tokens[1]), (other, tokens[0])):
        made = http.post(
            "/api/notify/push",
            json={
                **device.subscription(),
                "lang": "de",
                "zone": "Europe/Berlin",
                "table": table,
                "token": token,
            },
        )
        assert made.status_code == 201, made.text

    turn(server, table, 1)
    wait_sent(server, "push", 1)
    [pushed] = push_service.to(mine)
    assert push_service.to(other) == [], "the other seat's device is told nothing"
    assert pushed.headers["content-encoding"] == "aes128gcm"
    assert pushed.headers["ttl"] == str(28 * 86400), "a deadline weeks away: four weeks at most"
    assert pushed.vapid_key() == offered["key"], "signed with the key browsers subscribed with"
    with pytest.raises(Exception):  # noqa: B017 - another device's keys cannot read it
        other.decrypt(pushed.body)
    payload = mine.decrypt(pushed.body)
    assert payload["title"] == f"Du bist dran: {name_of('de')}"
    assert table not in payload["body"], "the match is named by its game and people, not its id"
    assert "15.01.2027 09:00 (CET)" in payload["body"], "the deadline where the person is"
    assert payload["url"] == f"/table/{table}"

    # the link in the notification unsubscribes this device, and only with its signature
    link = payload["unsubscribe"]
    assert link.startswith(f"{server.base}/api/notify/unsubscribe?t=")
    forged = link[:-3] + ("AAA" if not link.endswith("AAA") else "BBB")
    assert http.post(forged).status_code == 403
    assert http.post(link, headers={"Accept": "application/json"}).status_code == 204
    turn(server, table, 1)
    turn(server, table, 0)
    wait_sent(server, "push", 2)
    assert len(push_service.to(mine)) == 1, "an unsubscribed device is told nothing more"
    assert len(push_service.to(other)) == 1


@pytest.mark.slow
def test_a_subscription_the_push_service_forgot_is_forgotten(
    server: ThreadServer,
    push_service: PushService,  # noqa: F811
) -> None:
    table, tokens = two_people_table(server.base)
    device = push_service.device()
    body = {**device.subscription(), "table": table, "token": tokens[0]}
    assert httpx.post(f"{server.base}/api/notify/push", json=body).status_code == 201
    push_service.status = 410
    turn(server, table, 0, time.time() + 3600)
    eventually(lambda: len(push_service.to(device)) == 1, 10, what="the push request")
    ttl = int(push_service.to(device)[0].headers["ttl"])
    assert 3500 < ttl <= 3600, "kept by the push service until the deadline"
    store = server.app_state.notifier.store
    eventually(lambda: store.targets(table, 0)[0] == [], 10, what="the subscription dropped")


# ------------------------------------------------------------------------------ accounts
@pytest.mark.slow
def test_an_account_is_told_on_every_device_and_by_confirmed_mail_with_one_click_unsubscribe(
    server: ThreadServer,
    push_service: PushService,  # noqa: F811
    mailbox: Mailbox,  # noqa: F811
) -> None:
    table, tokens = two_people_table(server.base)
    bruno = signed_up(server, "bruno")
    kept = bruno.post("/api/me/seats", json={"seats": [{"table": table, "token": tokens[1]}]})
    assert kept.json()["kept"] == [{"table": table, "seat": 1}]
    phone, laptop = push_service.device("phone"), push_service.device("laptop")
    for device, lang in ((phone, "pt"), (laptop, "en")):
        made = bruno.post(
            "/api/notify/push",
            json={**device.subscription(), "lang": lang, "zone": "America/Sao_Paulo"},
        )
        assert made.status_code == 201, made.text

    set_mail = bruno.put(
        "/api/me/notify/mail",
        json={"address": "bruno@example.org", "lang": "pt", "zone": "America/Sao_Paulo"},
    )
    assert set_mail.status_code == 202, set_mail.text
    eventually(lambda: mailbox.to("bruno@example.org"), 10, what="the confirmation mail")
    turn(server, table, 1)
    wait_sent(server, "push", 2)
    assert server.app_state.notifier.sent["mail"] == 0, (
        "no turn mail before the address is confirmed"
    )
    [confirmation] = mailbox.to("bruno@example.org")
    assert confirmation["Subject"] == "Confirme seu endereço no ludoteca"
    link = next(w for w in text_of(confirmation).split() if "/api/notify/confirm?t=" in w)
    forged = link.replace("t=", "t=x", 1)
    assert httpx.get(forged).status_code == 400
    assert httpx.get(link).status_code == 200
    assert bruno.get("/api/me/notify").json() == {
        "mail": "bruno@example.org",
        "confirmed": True,
        "devices": 2,
    }

    turn(server, table, 1, DEADLINE + 86400)
    wait_sent(server, "mail", 1)
    wait_sent(server, "push", 4)
    assert [len(push_service.to(d)) for d in (phone, laptop)] == [2, 2]
    assert phone.decrypt(push_service.to(phone)[-1].body)["title"] == f"Sua vez: {name_of('pt')}"
    assert (
        laptop.decrypt(push_service.to(laptop)[-1].body)["title"] == f"Your turn: {name_of('en')}"
    )
    mail = mailbox.to("bruno@example.org")[-1]
    assert mail["Subject"] == f"Sua vez: {name_of('pt')}"
    assert "16/01/2027 05:00 (-03)" in text_of(mail), "the deadline in São Paulo"
    assert f"{server.base}/table/{table}" in text_of(mail)
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = mail["List-Unsubscribe"].strip("<>")
    assert parse_qs(urlsplit(unsubscribe).query)["t"]
    # opened in a browser, the link asks first (mail scanners open links): nothing changes yet
    asked = httpx.get(unsubscribe, headers={"Accept-Language": "pt-BR"})
    assert asked.status_code == 200 and 'method="post"' in asked.text
    assert "Parar estas notificações?" in asked.text
    assert bruno.get("/api/me/notify").json()["mail"] == "bruno@example.org"
    # RFC 8058: the mail client POSTs the form body, without cookies or Origin
    one_click = httpx.post(unsubscribe, data={"List-Unsubscribe": "One-Click"})
    assert one_click.status_code == 200
    assert bruno.get("/api/me/notify").json()["mail"] is None
    turn(server, table, 1)
    wait_sent(server, "push", 6)
    assert len(mailbox.to("bruno@example.org")) == 2, "no more mail once unsubscribed"

    # deleting the account deletes its devices too
    assert bruno.delete("/api/me").status_code == 204
    assert server.app_state.notifier.store.targets(table, 1) == ([], None)


def test_an_address_reveals_nothing_about_other_accounts_and_its_mails_are_rate_limited(
    sqlite_url: str,
    mailbox: Mailbox,  # noqa: F811
) -> None:
    port = free_port()
    settings = settings_for(sqlite_url, port, mailbox.port, limit_notify_mail="2/minute")
    srv = ThreadServer(settings, port=port).start()
    try:
        ana, bruno = signed_up(srv, "ana"), signed_up(srv, "bruno")
        body = {"address": "shared@example.org"}
        first, second = (
            ana.put("/api/me/notify/mail", json=body),
            bruno.put("/api/me/notify/mail", json=body),
        )
        assert first.status_code == second.status_code == 202
        assert first.json() == second.json(), "the same answer whoever else gave the address"
        assert ana.put("/api/me/notify/mail", json=body).status_code == 429
        for bad in ("not an address", "ana\x00@example.org", "ana\x7f@example.org"):
            refused = ana.put("/api/me/notify/mail", json={"address": bad})
            assert refused.status_code == 422 and refused.json()["error"] == "bad_request"
    finally:
        srv.stop()


# ------------------------------------------------------------------------------ attacks
@pytest.mark.slow
def test_subscribing_needs_the_seats_token_or_the_session_from_this_site(
    server: ThreadServer,
    push_service: PushService,  # noqa: F811
) -> None:
    table, _ = two_people_table(server.base)
    sub = push_service.device().subscription()
    http = client(server)
    assert http.post("/api/notify/push", json=sub).json()["error"] == "not_signed_in"
    wrong = http.post("/api/notify/push", json={**sub, "table": table, "token": "not-the-token"})
    assert wrong.status_code == 403 and wrong.json()["error"] == "bad_token"
    bruno = signed_up(server, "bruno")
    cookies = dict(bruno.cookies)
    for origin in ({"Origin": "https://evil.example"}, {}):
        across = httpx.post(
            f"{server.base}/api/notify/push", json=sub, cookies=cookies, headers=origin
        )
        assert across.status_code == 403 and across.json()["error"] == "bad_origin"
    assert (
        server.app_state.notifier.store.push_count(
            server.app_state.accounts.store.account_by_key("bruno").id
        )
        == 0
    )


@pytest.mark.slow
def test_a_subscription_names_a_push_service_and_nothing_else(server: ThreadServer) -> None:
    table, tokens = two_people_table(server.base)
    device = Device("https://127.0.0.1/")
    for endpoint in (
        "https://evil.example/push",
        "https://169.254.169.254/latest/meta-data",
        "http://fcm.googleapis.com/fcm/send/x",
        "https://fcm.googleapis.com:8443/fcm/send/x",
        "https://user@fcm.googleapis.com/fcm/send/x",
        "https://fcm.googleapis.com.evil.example/x",
        "file:///etc/passwd",
        "http://localhost:8000/api/tables",
    ):
        device.endpoint = endpoint
        body = {**device.subscription(), "table": table, "token": tokens[0]}
        refused = httpx.post(f"{server.base}/api/notify/push", json=body)
        assert refused.status_code == 422, (endpoint, refused.text)
    bad_keys = {**device.subscription(), "endpoint": "https://fcm.googleapis.com/fcm/send/x"}
    bad_keys["keys"] = {"p256dh": "AAAA", "auth": "AAAA"}
    refused = httpx.post(
        f"{server.base}/api/notify/push", json={**bad_keys, "table": table, "token": tokens[0]}
    )
    assert refused.status_code == 422

    # loopback only when the setting allows it; the push services' hosts by default
    default = Settings()
    assert allowed_endpoint("https://fcm.googleapis.com/fcm/send/abc", default)
    assert allowed_endpoint("https://updates.push.services.mozilla.com/wpush/v2/x", default)
    assert allowed_endpoint("https://web.push.apple.com/QGx", default)
    with pytest.raises(BadSubscription):
        allowed_endpoint("http://127.0.0.1:9000/push", default)
    assert allowed_endpoint(
        "http://127.0.0.1:9000/push", replace(default, push_allow_loopback=True)
    )


@pytest.mark.slow
def test_subscriptions_and_my_tables_are_rate_limited_per_address(
    sqlite_url: str,
    mailbox: Mailbox,  # noqa: F811
    push_service: PushService,  # noqa: F811
) -> None:
    port = free_port()
    srv = ThreadServer(
        settings_for(
            sqlite_url, port, mailbox.port, limit_notify="3/minute", limit_seats="2/minute"
        ),
        port=port,
    ).start()
    try:
        table, tokens = two_people_table(srv.base)
        body = {**push_service.device().subscription(), "table": table, "token": tokens[0]}
        answers = [
            httpx.post(f"{srv.base}/api/notify/push", json=body).status_code for _ in range(4)
        ]
        assert answers == [201, 201, 201, 429]
        seats = {"seats": [{"table": table, "token": tokens[0]}]}
        asked = [httpx.post(f"{srv.base}/api/seats", json=seats).status_code for _ in range(3)]
        assert asked == [200, 200, 429]
    finally:
        srv.stop()


@pytest.mark.slow
def test_the_table_is_never_held_up_by_a_slow_push_service(
    server: ThreadServer,
    push_service: PushService,  # noqa: F811
) -> None:
    """turn_began returns at once while the push service does not answer (the figures in
    docs/turn-based.md), and everything queued meanwhile goes out once it does."""
    table, tokens = two_people_table(server.base)
    body = {**push_service.device().subscription(), "table": table, "token": tokens[0]}
    assert httpx.post(f"{server.base}/api/notify/push", json=body).status_code == 201
    notifier = server.app_state.notifier
    push_service.slow.set()
    began = time.perf_counter()
    for _ in range(COUNT):
        notifier.turn_began(TurnBegan(table, "heroes", 0, 3, DEADLINE))
    per_call = (time.perf_counter() - began) / COUNT
    assert per_call < 0.001, per_call
    eventually(lambda: len(push_service.received) == SENDERS, 10, what="every sender waiting")
    # the server answers the lobby meanwhile: its loop is free
    assert httpx.get(f"{server.base}/api/tables/{table}", timeout=2).status_code == 200
    assert notifier.sent["push"] == 0
    push_service.slow.clear()
    push_service.released.set()
    began = time.perf_counter()
    wait_sent(server, "push", COUNT, 60)
    took = time.perf_counter() - began
    print(f"{COUNT} pushes sent in {took:.2f} s; turn_began {per_call * 1e6:.1f} µs a call")
    assert len(push_service.to(Device(body["endpoint"]))) == COUNT


@pytest.mark.slow
def test_the_in_memory_store_keeps_subscriptions_too(
    mailbox: Mailbox,  # noqa: F811
    push_service: PushService,  # noqa: F811
) -> None:
    port = free_port()
    srv = ThreadServer(settings_for("memory://", port, mailbox.port), port=port).start()
    try:
        table, tokens = two_people_table(srv.base)
        device = push_service.device()
        body = {**device.subscription(), "table": table, "token": tokens[1]}
        assert httpx.post(f"{srv.base}/api/notify/push", json=body).status_code == 201
        turn(srv, table, 1)
        eventually(lambda: push_service.to(device), 10, what="the push")
        assert device.decrypt(push_service.to(device)[0].body)["url"] == f"/table/{table}"
    finally:
        srv.stop()


@pytest.mark.parametrize(
    ("endpoint", "allowed"),
    [
        ("https://fcm.googleapis.com/fcm/send/abc", True),  # Chrome, Android, Opera, Samsung
        ("https://updates.push.services.mozilla.com/wpush/v2/x", True),  # Firefox
        ("https://web.push.apple.com/QGx", True),  # Safari
        ("https://wns2-par02p.notify.windows.com/w/?token=x", True),  # Edge on Windows
        # the rest of Google's APIs, some of which serve anyone's content, are no push service
        ("https://storage.googleapis.com/a-bucket/x", False),
        ("https://www.googleapis.com/upload/x", False),
        ("https://android.googleapis.com/gcm/send/x", False),
        ("https://push.services.mozilla.com/x", False),
        ("https://api.push.apple.com/3/device/x", False),
        ("https://notify.windows.com.evil.example/w", False),
    ],
)
def test_the_push_services_are_an_exact_list_of_hosts(endpoint: str, allowed: bool) -> None:
    if allowed:
        assert allowed_endpoint(endpoint, Settings()) == endpoint
    else:
        with pytest.raises(BadSubscription, match="not a push service"):
            allowed_endpoint(endpoint, Settings())


def test_a_seat_and_an_account_keep_their_newest_devices_up_to_a_cap() -> None:
    """150 subscriptions for one seat meant about 51 pushes a turn: a seat keeps its
    MAX_PUSH_PER_SEAT newest devices and an account its MAX_PUSH_PER_ACCOUNT newest, the oldest
    forgotten as a new one comes (a new phone is told; the one it replaced, no more)."""
    store = NotifyStore(memory_engine())
    people = AccountStore(store.engine)
    lia = people.create_account("Lia", "lia", None, 0.0)

    def subscribe(n: int, **scope: Any) -> str:
        endpoint = f"https://fcm.googleapis.com/fcm/send/{n}"
        return store.add_push((endpoint, "p", "a"), "en", "UTC", float(n), **scope)

    seat_ids = [subscribe(n, seat=("T1", 0)) for n in range(MAX_PUSH_PER_SEAT + 3)]
    told, _ = store.targets("T1", 0)
    assert sorted(t.id for t in told) == sorted(seat_ids[-MAX_PUSH_PER_SEAT:])
    assert store.targets("T1", 1) == ([], None)
    for n in range(MAX_PUSH_PER_ACCOUNT + 5):
        subscribe(100 + n, account_id=lia.id)
    assert store.push_count(lia.id) == MAX_PUSH_PER_ACCOUNT
    people.hold_seat(lia.id, "T2", 1, "token", 0.0)
    told, _ = store.targets("T2", 1)
    assert sorted(int(t.endpoint.rsplit("/", 1)[1]) for t in told) == list(
        range(105, 100 + MAX_PUSH_PER_ACCOUNT + 5)
    )
    # the same device again replaces itself, and the seat's devices are not the account's
    subscribe(114, account_id=lia.id)
    assert store.push_count(lia.id) == MAX_PUSH_PER_ACCOUNT
    assert len(store.targets("T1", 0)[0]) == MAX_PUSH_PER_SEAT
    store.close()


@pytest.mark.parametrize(
    ("address", "good"),
    [
        ("ana@example.org", True),
        ("  ana.maria+turns@mail.example.co.uk ", True),
        ("zoë@example.org", True),
        ("ana\x00@example.org", False),  # NUL
        ("ana\x1b[31m@example.org", False),  # ESC
        ("ana\x7f@example.org", False),  # DEL
        ("ana\u200b@example.org", False),  # a zero-width space
        ("ana@example.org\r\nBcc: everyone@example.org", False),
        ("ana maria@example.org", False),
        ("ana@@example.org", False),
        (".ana@example.org", False),
        ("ana..maria@example.org", False),
        ("ana@example", False),
        ("ana@-example.org", False),
        ("ana@exa_mple.org", False),
        ("a" * 65 + "@example.org", False),
        ("ana@" + "a" * 250 + ".org", False),
        ("not an address", False),
    ],
)
def test_an_address_is_checked_by_one_rule(address: str, good: bool) -> None:
    if good:
        assert check_address(address) == address.strip()
    else:
        with pytest.raises(RuleError):
            check_address(address)


def test_the_settings_are_read_from_the_environment_and_a_bad_one_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert Settings.from_env().push is False and Settings.from_env().smtp_host is None
    for name, value in {
        "LUDOTECA_PUSH": "1",
        "LUDOTECA_PUSH_CONTACT": "ops",
        "LUDOTECA_SMTP_HOST": "mail.example",
        "LUDOTECA_SMTP_TLS": "maybe",
        "LUDOTECA_LIMIT_NOTIFY": "lots",
    }.items():
        monkeypatch.setenv(name, value)
    settings = Settings.from_env()
    assert settings.push and settings.smtp_host == "mail.example"
    assert settings.problems() == [
        "LUDOTECA_LIMIT_NOTIFY is 'N/second', 'N/minute', 'N/hour' or 'N/day', not 'lots'",
        "LUDOTECA_SMTP_TLS is starttls, tls or none, not 'maybe'",
        "LUDOTECA_PUSH_CONTACT is mailto: or https:, not 'ops'",
        "LUDOTECA_SMTP_HOST needs LUDOTECA_PUBLIC_URL: mail links name it",
    ]
