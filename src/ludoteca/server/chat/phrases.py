"""What may be said at a table, with no I/O: the quick phrases (sent as ids, shown in each
reader's language by the client), the rules of free text, the two rooms and who reads which."""

from __future__ import annotations

import unicodedata

from ludoteca.server.messages import ErrorCode, Rejected

PHRASES = ("gg", "wp", "your_turn", "thinking", "brb", "oops", "thanks", "gl")
"""The quick phrases, in the order a client lists them: Good game, Well played, Your turn!,
Thinking…, Back in a minute, Oops, Thanks, Good luck (words in the web table's i18n files)."""

MAX_TEXT = 200
"""The most characters a free-text message may hold (after trimming)."""

SEATS = "seats"
SPECTATORS = "spectators"
ROOMS = (SEATS, SPECTATORS)


def room_of(seat: int | None) -> str:
    """The room a person writes to: the seated write to the seats' room, the others to the
    spectators'."""
    return SPECTATORS if seat is None else SEATS


def reads(room: str, seat: int | None, over: bool) -> bool:
    """Whether a reader (``seat`` None: a spectator) reads ``room``. Spectators never read the
    seats' room; the seated read the spectators' only once the match is over, so that nobody
    watching can coach a player during it."""
    if room == SEATS:
        return seat is not None
    return seat is None or over


def rooms_read(seat: int | None, over: bool) -> tuple[str, ...]:
    return tuple(room for room in ROOMS if reads(room, seat, over))


def _bad_character(character: str) -> bool:
    # control characters (newlines included), unassigned ones, and the invisible format
    # characters that reorder or hide text (bidirectional overrides, zero-width spaces…); the
    # zero-width joiner stays, as emoji sequences need it
    if character == "\u200d":
        return False
    return unicodedata.category(character) in ("Cc", "Cf", "Cs", "Co", "Cn")


def check(
    phrase: object, text: object, *, signed_in: bool, text_allowed: bool
) -> tuple[str | None, str | None]:
    """The message to store, as ``(phrase, text)`` with exactly one of them set; refused with a
    clear error (and nothing stored) when it breaks a rule."""
    if (phrase is None) == (text is None):
        raise Rejected(ErrorCode.BAD_CHAT, "send either a quick phrase (phrase) or text, not both")
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in PHRASES:
            raise Rejected(ErrorCode.BAD_CHAT, f"phrase must be one of {', '.join(PHRASES)}")
        return phrase, None
    if not isinstance(text, str):
        raise Rejected(ErrorCode.BAD_CHAT, "text must be a string")
    if not text_allowed:
        raise Rejected(
            ErrorCode.CHAT_PHRASES_ONLY,
            "this table's host allows quick phrases only: send a phrase",
        )
    if not signed_in:
        raise Rejected(ErrorCode.NOT_SIGNED_IN, "sign in to write free text (phrases need not)")
    cleaned = unicodedata.normalize("NFC", text).strip()
    if not cleaned:
        raise Rejected(ErrorCode.BAD_CHAT, "text is blank")
    if len(cleaned) > MAX_TEXT:
        raise Rejected(ErrorCode.BAD_CHAT, f"text may be at most {MAX_TEXT} characters")
    if any(_bad_character(c) for c in cleaned):
        raise Rejected(ErrorCode.BAD_CHAT, "text may hold one line of printable characters only")
    return None, cleaned
