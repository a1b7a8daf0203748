"""The words of a notification in the person's language (pt, de, en), naming the game, the
table and the deadline in their time zone (the one their browser said when they opted in)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from ludoteca.games import all_games

LANGS = ("en", "pt", "de")

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Your turn: {game}",
        "body": "Table {table}. Play by {deadline}, or the table plays for you.",
        "open": "Open the table",
        "stop": "Stop these notifications",
        "mail_stop": "Stop these e-mails: {link}",
        "confirm_subject": "Confirm your address for ludoteca",
        "confirm_body": "Open this link to be told by e-mail when it is your turn: {link}\n\n"
        "If you did not ask for this, ignore this message: nothing will be sent.",
        "confirmed": "Your address is confirmed: you will be told when it is your turn.",
        "unsubscribe_ask": "Stop these notifications?",
        "unsubscribed": "Done: you will not get these notifications any more.",
        "bad_link": "This link is not valid (or was already used).",
    },
    "pt": {
        "title": "Sua vez: {game}",
        "body": "Mesa {table}. Jogue até {deadline}, ou a mesa joga por você.",
        "open": "Abrir a mesa",
        "stop": "Parar estas notificações",
        "mail_stop": "Parar estes e-mails: {link}",
        "confirm_subject": "Confirme seu endereço no ludoteca",
        "confirm_body": "Abra este link para receber um e-mail quando for a sua vez: {link}\n\n"
        "Se você não pediu isto, ignore esta mensagem: nada será enviado.",
        "confirmed": "Endereço confirmado: você será avisado quando for a sua vez.",
        "unsubscribe_ask": "Parar estas notificações?",
        "unsubscribed": "Pronto: você não receberá mais estas notificações.",
        "bad_link": "Este link não é válido (ou já foi usado).",
    },
    "de": {
        "title": "Du bist dran: {game}",
        "body": "Tisch {table}. Spiel bis {deadline}, sonst spielt der Tisch für dich.",
        "open": "Tisch öffnen",
        "stop": "Diese Benachrichtigungen abbestellen",
        "mail_stop": "Diese E-Mails abbestellen: {link}",
        "confirm_subject": "Bestätige deine Adresse bei ludoteca",
        "confirm_body": "Öffne diesen Link, um per E-Mail zu hören, wann du dran bist: {link}\n\n"
        "Wenn du das nicht angefordert hast, ignoriere diese Nachricht: es wird nichts gesendet.",
        "confirmed": "Deine Adresse ist bestätigt: du erfährst, wann du dran bist.",
        "unsubscribe_ask": "Diese Benachrichtigungen abbestellen?",
        "unsubscribed": "Erledigt: du bekommst diese Benachrichtigungen nicht mehr.",
        "bad_link": "Dieser Link ist nicht gültig (oder wurde schon benutzt).",
    },
}

DATES = {"en": "%Y-%m-%d %H:%M", "pt": "%d/%m/%Y %H:%M", "de": "%d.%m.%Y %H:%M"}
ZONES = available_timezones()


def lang_of(lang: str | None) -> str:
    return lang if lang in LANGS else "en"


def zone_of(zone: str | None) -> str:
    """An IANA time zone the server knows, else UTC."""
    return zone if zone in ZONES else "UTC"


def words(lang: str) -> dict[str, str]:
    return WORDS[lang_of(lang)]


def when(deadline: float, lang: str, zone: str) -> str:
    """The deadline as a date and time where the person is, with the zone's name."""
    try:
        place = ZoneInfo(zone_of(zone))
    except ZoneInfoNotFoundError:
        place = ZoneInfo("UTC")
    moment = datetime.fromtimestamp(deadline, UTC).astimezone(place)
    return f"{moment.strftime(DATES[lang_of(lang)])} ({moment.tzname()})"


@dataclass(frozen=True, slots=True)
class Turn:
    """A 'your turn' message: title and body in one language."""

    title: str
    body: str


def turn_message(game: str, table_id: str, deadline: float, lang: str, zone: str) -> Turn:
    found = all_games().get(game)
    name = found.spec.name(lang_of(lang)) if found else game
    said = words(lang)
    return Turn(
        said["title"].format(game=name),
        said["body"].format(table=table_id, deadline=when(deadline, lang, zone)),
    )
