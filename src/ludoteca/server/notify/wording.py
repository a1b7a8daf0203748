"""The words of a notification in the person's language (pt, de, en): the game and the
opponents, who moved and what (the game's own sentences, as the person's seat sees the step), and
the deadline in their time zone (the one their browser said when they opted in). Never the
table's id: a person knows a match by its game and the people in it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from ludoteca.games import all_games
from ludoteca.server.table.turns import TurnBegan

LANGS = ("en", "pt", "de")

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Your turn: {game}",
        "title_against": "Your turn: {game} against {opponents}",
        "and": " and ",
        "moved": "{who} played: {move}",
        "moved_bot": "{who} (a bot) played: {move}",
        "timed_out": "{who}'s time ran out, so the table played for them: {move}",
        "moved_plain": "{who} has moved.",
        "begun": "The match has begun and you move first.",
        "body": "{news}\nPlay by {deadline}, or the table plays for you.",
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
        "reset_subject": "Set a new password for ludoteca",
        "reset_body": "Someone (you, we hope) asked to set a new password for the account "
        "{name}. Open this link within 30 minutes to choose one; it works once, and signs "
        "out every device signed in to the account:\n\n{link}\n\n"
        "If you did not ask for this, ignore this message: your password stays as it is.",
        "invite_title": "{who} invites you to a table",
        "invite_body": "{who} invites you to play. Open the table: {link}",
    },
    "pt": {
        "title": "Sua vez: {game}",
        "title_against": "Sua vez: {game} contra {opponents}",
        "and": " e ",
        "moved": "{who} jogou: {move}",
        "moved_bot": "{who} (um bot) jogou: {move}",
        "timed_out": "O tempo de {who} acabou, e a mesa jogou por essa pessoa: {move}",
        "moved_plain": "{who} já jogou.",
        "begun": "A partida começou e você joga primeiro.",
        "body": "{news}\nJogue até {deadline}, ou a mesa joga por você.",
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
        "reset_subject": "Defina uma nova senha no ludoteca",
        "reset_body": "Alguém (você, esperamos) pediu uma nova senha para a conta {name}. "
        "Abra este link em até 30 minutos para escolher uma; ele funciona uma vez e desconecta "
        "todos os aparelhos conectados à conta:\n\n{link}\n\n"
        "Se você não pediu isto, ignore esta mensagem: sua senha continua a mesma.",
        "invite_title": "{who} convida você para uma mesa",
        "invite_body": "{who} convida você para jogar. Abra a mesa: {link}",
    },
    "de": {
        "title": "Du bist dran: {game}",
        "title_against": "Du bist dran: {game} gegen {opponents}",
        "and": " und ",
        "moved": "{who} hat gespielt: {move}",
        "moved_bot": "{who} (ein Bot) hat gespielt: {move}",
        "timed_out": "Die Zeit von {who} ist abgelaufen, der Tisch hat für sie gespielt: {move}",
        "moved_plain": "{who} hat gezogen.",
        "begun": "Die Partie hat begonnen und du fängst an.",
        "body": "{news}\nSpiel bis {deadline}, sonst spielt der Tisch für dich.",
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
        "reset_subject": "Neues Passwort für ludoteca",
        "reset_body": "Jemand (hoffentlich du) möchte ein neues Passwort für das Konto {name} "
        "setzen. Öffne diesen Link innerhalb von 30 Minuten, um eines zu wählen; er gilt einmal "
        "und meldet alle Geräte ab, die bei dem Konto angemeldet sind:\n\n{link}\n\n"
        "Wenn du das nicht warst, beachte diese Nachricht nicht: dein Passwort bleibt, wie es ist.",
        "invite_title": "{who} lädt dich an einen Tisch ein",
        "invite_body": "{who} lädt dich zum Spielen ein. Öffne den Tisch: {link}",
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


MOST_SENTENCES = 4  # a step's events told in the message; the table shows the rest


def joined(names: list[str], lang: str) -> str:
    """ "Ana", "Ana and Bruno", "Ana, Bruno and Carla" in the person's language."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + words(lang)["and"] + names[-1]


def move_in_words(game: str, events: tuple[Mapping[str, Any], ...], lang: str) -> str:
    """A step's events as the game's own sentences (the ones the terminal and the log say)."""
    found = all_games().get(game)
    said = found.words(lang_of(lang)) if found else None
    if said is None:
        return ""
    sentences = [text for e in events if (text := said.sentence(e))]
    return " ".join(sentences[:MOST_SENTENCES])


def news(turn: TurnBegan, lang: str) -> str:
    """Who moved and what, or that the match has begun."""
    said = words(lang)
    if turn.mover is None or turn.mover >= len(turn.names):
        return said["begun"]
    who = turn.names[turn.mover]
    move = move_in_words(turn.game, turn.events, lang)
    if not move:
        return said["moved_plain"].format(who=who)
    key = {"bot": "moved_bot", "table": "timed_out"}.get(turn.by or "", "moved")
    return said[key].format(who=who, move=move)


def turn_message(turn: TurnBegan, lang: str, zone: str) -> Turn:
    found = all_games().get(turn.game)
    name = found.spec.name(lang_of(lang)) if found else turn.game
    said = words(lang)
    opponents = [n for seat, n in enumerate(turn.names) if seat != turn.seat]
    title = (
        said["title_against"].format(game=name, opponents=joined(opponents, lang))
        if opponents
        else said["title"].format(game=name)
    )
    body = said["body"].format(news=news(turn, lang), deadline=when(turn.deadline, lang, zone))
    return Turn(title, body)
