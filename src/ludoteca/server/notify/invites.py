"""A friend's invitation to a table, by web push and e-mail, for a person who asked for them
(a device subscribed to the account's news, a confirmed address); the in-page notice is the
social feed's (``social/feed.py``)."""

from __future__ import annotations

import contextlib
import time

import httpx

from ludoteca.server.logs import log

from .mail import message, send_mail
from .notifier import PUSH_TIMEOUT, Notifier
from .push import BadSubscription, send_push
from .wording import words

INVITE_TTL = 3600  # a push of an invitation is worth delivering within the hour


async def tell_invite(notifier: Notifier, account_id: str, sender: str, table_id: str) -> None:
    """Tell the account that ``sender`` invites them to ``table_id``; failures are logged."""
    link = notifier.link(f"/table/{table_id}")
    if notifier.push_on:
        for target in await notifier.store.run(notifier.store.account_pushes, account_id):
            said = words(target.lang)
            payload = {
                "title": said["invite_title"].format(who=sender),
                "body": said["invite_body"].format(who=sender, link=link),
                "url": f"/table/{table_id}",
                "tag": f"invite-{table_id}",
                "deadline": time.time() + INVITE_TTL,
                "open": said["open"],
                "stop": said["stop"],
                "unsubscribe": notifier.link("/api/notify/unsubscribe?t=")
                + notifier.keys.sign("push", target.id),
            }
            async with httpx.AsyncClient(timeout=PUSH_TIMEOUT) as client:
                try:
                    await send_push(
                        client, notifier.keys, notifier.settings, target, payload, ttl=INVITE_TTL
                    )
                    notifier.sent["push"] += 1
                except (httpx.HTTPError, BadSubscription) as exc:
                    notifier.sent["failed"] += 1
                    log("push_failed", subscription=target.id, error=type(exc).__name__)
    if notifier.mail_on:
        mail = await notifier.store.run(notifier.store.mail_of, account_id)
        if mail is None or not mail.confirmed:
            return
        said = words(mail.lang)
        stop = notifier.link("/api/notify/unsubscribe?t=") + notifier.keys.sign("mail", account_id)
        body = "\n\n".join(
            (said["invite_body"].format(who=sender, link=link), said["mail_stop"].format(link=stop))
        )
        subject = said["invite_title"].format(who=sender)
        with contextlib.suppress(Exception):  # logged by the mail server's absence, not fatal
            await send_mail(
                notifier.settings, message(notifier.settings, mail.address, subject, body, stop)
            )
            notifier.sent["mail"] += 1
