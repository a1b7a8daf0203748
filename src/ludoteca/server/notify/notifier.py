"""The real ``TurnHook``: told that a person's turn began, it queues the news and returns at once;
one task in the background finds whom to tell (the seat's devices, its account's devices and
confirmed address) and sends, so a slow push service or mail server never holds a table up.
A full queue drops the news (logged) rather than grow without bound. Encryption and signing run
on a worker thread, so even the CPU work of a push is off the tables' event loop."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import httpx

from ludoteca.server.config import Settings
from ludoteca.server.logs import log
from ludoteca.server.table.turns import TurnBegan

from .keys import NotifyKeys
from .mail import message, send_mail
from .push import BadSubscription, send_push
from .store import MailTarget, NotifyStore, PushTarget
from .wording import turn_message, words

PUSH_TIMEOUT = 10.0
GONE = (404, 410)  # the push service forgot the subscription: so do we
GUEST_DAYS = 60  # a guest's subscription is forgotten this many days after it was made
SWEEP_SECONDS = 3600.0
SENDERS = 8  # turns being sent at once


def offer(settings: Settings, keys: NotifyKeys) -> dict[str, object]:
    """What the server sends (``GET /api/notify``, and inline in the page): push with the key
    browsers subscribe with, and whether mail."""
    return {
        "push": settings.push,
        "key": keys.public_key if settings.push else None,
        "mail": bool(settings.smtp_host and settings.public_url),
    }


class Notifier:
    def __init__(self, store: NotifyStore, keys: NotifyKeys, settings: Settings) -> None:
        self.store = store
        self.keys = keys
        self.settings = settings
        self.queue: asyncio.Queue[TurnBegan] = asyncio.Queue(maxsize=settings.notify_queue)
        self._client: httpx.AsyncClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop ``run`` sends from
        self.sent = {"push": 0, "mail": 0, "dropped": 0, "failed": 0}

    @property
    def push_on(self) -> bool:
        return self.settings.push

    @property
    def mail_on(self) -> bool:
        """Mail needs an SMTP server and the public address its links name."""
        return bool(offer(self.settings, self.keys)["mail"])

    def link(self, path: str) -> str:
        """An address on this server: absolute when the public address is known."""
        return (self.settings.public_url or "").rstrip("/") + path

    # -------------------------------------------------------------------------- the hook
    def turn_began(self, turn: TurnBegan) -> None:
        """Queue the news (from the sending loop, or handed to it from any other thread)."""
        if not (self.push_on or self.mail_on):
            return
        loop = self._loop
        try:
            here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is not None and (loop is None or here is loop):
            self._queue(turn)  # the table's own loop (``run`` may not have started yet)
        elif loop is not None:
            loop.call_soon_threadsafe(self._queue, turn)

    def _queue(self, turn: TurnBegan) -> None:
        try:
            self.queue.put_nowait(turn)
        except asyncio.QueueFull:
            self.sent["dropped"] += 1
            log("notify_dropped", table=turn.table_id, seat=turn.seat)

    async def run(self) -> None:
        """Send what is queued, several turns at once (a slow push service or mail server holds
        one sender, not the others); sweep old guests' subscriptions."""
        self._loop = asyncio.get_running_loop()
        slots = asyncio.Semaphore(SENDERS)
        sending: set[asyncio.Task[None]] = set()
        swept = 0.0
        while True:
            turn = await self.queue.get()
            await slots.acquire()
            task = asyncio.create_task(self._send(turn, slots))
            sending.add(task)
            task.add_done_callback(sending.discard)
            if time.time() - swept > SWEEP_SECONDS:
                swept = time.time()
                await self.store.run(self.store.sweep, swept - GUEST_DAYS * 86400)

    async def _send(self, turn: TurnBegan, slots: asyncio.Semaphore) -> None:
        try:
            await self.tell(turn)
        except Exception as exc:  # one turn's failure must not stop the others
            self.sent["failed"] += 1
            log("notify_failed", table=turn.table_id, error=type(exc).__name__)
        finally:
            slots.release()
            self.queue.task_done()

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
        await asyncio.to_thread(self.store.close)

    # ---------------------------------------------------------------------------- sending
    async def tell(self, turn: TurnBegan) -> None:
        pushes, mail = await self.store.run(self.store.targets, turn.table_id, turn.seat)
        if self.push_on:
            for target in pushes:
                await self._push(turn, target)
        if self.mail_on and mail is not None:
            await self._mail(turn, mail)

    async def _push(self, turn: TurnBegan, target: PushTarget) -> None:
        said = words(target.lang)
        text = turn_message(turn, target.lang, target.zone)
        payload: dict[str, Any] = {
            "title": text.title,
            "body": text.body,
            "url": f"/table/{turn.table_id}",
            "tag": f"turn-{turn.table_id}",
            "deadline": turn.deadline,
            "open": said["open"],
            "stop": said["stop"],
            "unsubscribe": self.link("/api/notify/unsubscribe?t=")
            + self.keys.sign("push", target.id),
        }
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=PUSH_TIMEOUT, follow_redirects=False)
        try:
            ttl = int(turn.deadline - time.time())
            status = await send_push(
                self._client, self.keys, self.settings, target, payload, ttl=ttl
            )
        except (httpx.HTTPError, BadSubscription) as exc:
            self.sent["failed"] += 1
            log("push_failed", subscription=target.id, error=type(exc).__name__)
            return
        if status in GONE:
            await self.store.run(self.store.drop_push, target.id)
            log("push_gone", subscription=target.id)
        elif status >= 300:
            self.sent["failed"] += 1
            log("push_failed", subscription=target.id, status=status)
        else:
            self.sent["push"] += 1

    async def _mail(self, turn: TurnBegan, target: MailTarget) -> None:
        text = turn_message(turn, target.lang, target.zone)
        stop = self.link("/api/notify/unsubscribe?t=") + self.keys.sign("mail", target.account_id)
        said = words(target.lang)
        body = "\n\n".join(
            (text.body, self.link(f"/table/{turn.table_id}"), said["mail_stop"].format(link=stop))
        )
        await send_mail(
            self.settings, message(self.settings, target.address, text.title, body, stop)
        )
        self.sent["mail"] += 1

    async def reset_mail(self, address: str, lang: str, name: str, token: str) -> None:
        """Mail a password reset's link (docs/accounts.md#password-reset): the token rides in
        the address's fragment, which browsers never send to a server nor in a Referer."""
        said = words(lang)
        link = self.link("/reset#t=") + token
        body = said["reset_body"].format(name=name, link=link)
        await send_mail(self.settings, message(self.settings, address, said["reset_subject"], body))

    async def confirm(self, account_id: str, address: str, lang: str) -> None:
        """Mail the link that confirms ``address`` is the account's (valid for a day)."""
        expires = int(time.time()) + 86400
        token = self.keys.sign("confirm", f"{account_id}|{expires}|{address}")
        link = self.link("/api/notify/confirm?t=") + token
        said = words(lang)
        mail = message(
            self.settings, address, said["confirm_subject"], said["confirm_body"].format(link=link)
        )
        with contextlib.suppress(Exception):  # the answer is the same whether it went or not
            await send_mail(self.settings, mail)
