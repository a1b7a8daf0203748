"""E-mail through the configured SMTP server (``LUDOTECA_SMTP_*``): the 'your turn' mail with a
one-click unsubscribe (``List-Unsubscribe`` and ``List-Unsubscribe-Post``, RFC 8058), and the
mail that confirms an address is the account's."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import aiosmtplib

from ludoteca.server.config import Settings

TIMEOUT = 20.0


def message(
    settings: Settings, to: str, subject: str, text: str, unsubscribe: str | None = None
) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = settings.mail_from
    mail["To"] = to
    mail["Subject"] = subject
    mail["Message-ID"] = make_msgid(domain=settings.mail_from.rsplit("@", 1)[-1].strip("> "))
    mail["Auto-Submitted"] = "auto-generated"
    if unsubscribe:
        mail["List-Unsubscribe"] = f"<{unsubscribe}>"
        mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    mail.set_content(text)
    return mail


async def send_mail(settings: Settings, mail: EmailMessage) -> None:
    assert settings.smtp_host is not None
    await aiosmtplib.send(
        mail,
        hostname=settings.smtp_host,
        port=settings.smtp_port,
        username=settings.smtp_user,
        password=settings.smtp_password,
        use_tls=settings.smtp_tls == "tls",
        start_tls=settings.smtp_tls == "starttls",
        timeout=TIMEOUT,
    )
