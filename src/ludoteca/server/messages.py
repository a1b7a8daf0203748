"""The words of the table protocol shared by the server and docs/protocol.md: table status, seat
kinds, error codes, close codes, and the messages a client may send over a table's websocket.

A test checks that every error and close code here is documented in docs/protocol.md and that the
document names no code missing here.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, field_validator

from ludoteca.core import LudotecaError

MAX_SEATS = 8  # the most seats any table may have (every game's maximum is at most this)
MAX_NAME_INPUT = 64  # a name longer than this is refused before it is cleaned to 24 characters
MAX_TOKEN = 128
MAX_ACTION = 512


class Status(StrEnum):
    OPEN = "open"
    STARTING = "starting"  # waiting a few seconds for the players' commitments, then reveals
    PLAYING = "playing"
    OVER = "over"
    EXPIRED = "expired"  # nobody joined for too long: gone from the lobby, not playable


class SeatKind(StrEnum):
    OPEN = "open"
    HUMAN = "human"
    BOT = "bot"


class ErrorCode(StrEnum):
    """Every ``code`` (websocket) or ``error`` (HTTP) the server answers with."""

    # the lobby (HTTP)
    NO_TABLE = "no_table"
    NO_GAME = "no_game"
    BAD_REQUEST = "bad_request"
    BAD_TOKEN = "bad_token"
    NOT_OPEN = "not_open"
    SEAT_TAKEN = "seat_taken"
    TABLE_FULL = "table_full"
    ALREADY_SEATED = "already_seated"
    NOT_STARTED = "not_started"
    NOT_OVER = "not_over"
    NO_REMATCH = "no_rematch"
    NO_SEARCH = "no_search"
    NO_SEEK = "no_seek"
    SEEK_TAKEN = "seek_taken"
    OWN_SEEK = "own_seek"
    TOO_MANY_SEEKS = "too_many_seeks"
    TOO_LARGE = "too_large"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_TABLES = "too_many_tables"
    SERVER_BUSY = "server_busy"
    TABLE_BROKEN = "table_broken"
    BAD_CONTRIBUTION = "bad_contribution"
    BAD_COMMITMENT = "bad_commitment"
    BAD_REVEAL = "bad_reveal"
    COMMITMENTS_CLOSED = "commitments_closed"
    NOT_REVEALING = "not_revealing"
    ALREADY_DEALT = "already_dealt"
    NOT_FOUND = "not_found"
    NOT_ALLOWED = "not_allowed"
    # accounts (HTTP)
    NOT_SIGNED_IN = "not_signed_in"
    BAD_LOGIN = "bad_login"
    BAD_PASSKEY = "bad_passkey"
    BAD_NAME = "bad_name"
    BAD_PASSWORD = "bad_password"
    NAME_TAKEN = "name_taken"
    BAD_ORIGIN = "bad_origin"
    BAD_RESET_LINK = "bad_reset_link"
    NO_PLAYER = "no_player"
    SUSPENDED = "suspended"
    # friends, blocking, reports, the operator's desk (HTTP)
    BLOCKED = "blocked"
    MUTED = "muted"
    NOT_YOURSELF = "not_yourself"
    NOT_OPERATOR = "not_operator"
    NO_REPORT = "no_report"
    NO_MESSAGE = "no_message"
    # chat (websocket)
    BAD_CHAT = "bad_chat"
    CHAT_PHRASES_ONLY = "chat_phrases_only"
    # play (websocket)
    MATCH_OVER = "match_over"
    NOT_YOUR_TURN = "not_your_turn"
    INVALID_ACTION = "invalid_action"
    ILLEGAL_ACTION = "illegal_action"
    STALE_VERSION = "stale_version"
    RESIGN_LATER = "resign_later"
    NOT_ABORTABLE = "not_abortable"
    ABORT_LIMIT = "abort_limit"
    SPECTATOR = "spectator"
    NO_HELLO = "no_hello"
    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    BINARY = "binary"
    ALREADY_GREETED = "already_greeted"
    TOO_MANY_CONNECTIONS = "too_many_connections"


HTTP_STATUS: dict[ErrorCode, int] = {
    ErrorCode.NO_TABLE: 404,
    ErrorCode.NO_GAME: 404,
    ErrorCode.BAD_REQUEST: 422,
    ErrorCode.BAD_TOKEN: 403,
    ErrorCode.NOT_OPEN: 409,
    ErrorCode.SEAT_TAKEN: 409,
    ErrorCode.TABLE_FULL: 409,
    ErrorCode.ALREADY_SEATED: 422,
    ErrorCode.NOT_STARTED: 409,
    ErrorCode.NOT_OVER: 409,
    ErrorCode.NO_REMATCH: 409,
    ErrorCode.NO_SEARCH: 404,
    ErrorCode.NO_SEEK: 404,
    ErrorCode.SEEK_TAKEN: 409,
    ErrorCode.OWN_SEEK: 409,
    ErrorCode.TOO_MANY_SEEKS: 429,
    ErrorCode.MATCH_OVER: 409,
    ErrorCode.ALREADY_DEALT: 409,
    ErrorCode.BAD_CONTRIBUTION: 422,
    ErrorCode.BAD_COMMITMENT: 422,
    ErrorCode.BAD_REVEAL: 422,
    ErrorCode.COMMITMENTS_CLOSED: 409,
    ErrorCode.NOT_REVEALING: 409,
    ErrorCode.BAD_JSON: 400,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.NOT_ALLOWED: 405,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.TOO_MANY_TABLES: 429,
    ErrorCode.TOO_MANY_CONNECTIONS: 429,
    ErrorCode.NOT_SIGNED_IN: 401,
    ErrorCode.SUSPENDED: 403,
    ErrorCode.BLOCKED: 403,
    ErrorCode.MUTED: 403,
    ErrorCode.NOT_YOURSELF: 422,
    ErrorCode.NOT_OPERATOR: 403,
    ErrorCode.NO_REPORT: 404,
    ErrorCode.NO_MESSAGE: 404,
    ErrorCode.BAD_LOGIN: 401,
    ErrorCode.BAD_PASSKEY: 401,
    ErrorCode.BAD_NAME: 422,
    ErrorCode.BAD_PASSWORD: 422,
    ErrorCode.NAME_TAKEN: 409,
    ErrorCode.BAD_ORIGIN: 403,
    ErrorCode.BAD_RESET_LINK: 400,
    ErrorCode.NO_PLAYER: 404,
    ErrorCode.BAD_CHAT: 422,
    ErrorCode.CHAT_PHRASES_ONLY: 403,
    ErrorCode.SERVER_BUSY: 503,
    ErrorCode.TABLE_BROKEN: 503,
}


class Rejected(Exception):
    """An action or request refused: ``code`` is stable (the type checker holds it to the list
    above), ``message`` says why in plain words. Nothing changed."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    @classmethod
    def of(cls, exc: LudotecaError) -> Rejected:
        """A rules error as the server answers it: each carries its own code."""
        return cls(ErrorCode(exc.code), str(exc))


class TooMany(Rejected):
    """Refused for now: ask again after ``retry_after`` seconds (429 with ``Retry-After``)."""

    def __init__(self, code: ErrorCode, message: str, retry_after: float) -> None:
        super().__init__(code, message)
        self.retry_after = retry_after


def http_status(code: str) -> int:
    try:
        return HTTP_STATUS.get(ErrorCode(code), 400)
    except ValueError:
        return 400


class CloseCode(IntEnum):
    """Why the server closed a websocket."""

    GOING_AWAY = 1001  # the server is restarting
    INVALID_DATA = 1007  # a text frame that is not UTF-8 (closed by uvicorn)
    POLICY = 1008  # the client kept sending after being told to slow down
    TOO_BIG = 1009  # a frame larger than the limit (closed by uvicorn)
    BROKEN = 1011  # the table's stored match does not replay
    SERVICE_RESTART = 1012  # the process is stopping (closed by uvicorn on SIGTERM)
    TRY_LATER = 1013  # the client reads too slowly, or the server is full
    NOT_SIGNED_IN = 4401  # the personal feed needs a session
    NO_TABLE = 4404  # there is no such table
    NO_HELLO = 4408  # no hello in time


# ------------------------------------------------------------------ client messages (websocket)
class _Message(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Hello(_Message):
    type: Literal["hello"]
    token: Annotated[str | None, Field(max_length=MAX_TOKEN)] = None
    commitment: str | None = None  # applied as a ``commit`` before the first state


class Act(_Message):
    type: Literal["act"]
    action: Annotated[str, Field(max_length=MAX_ACTION)]
    version: StrictInt

    @field_validator("action")
    @classmethod
    def _not_blank(cls, action: str) -> str:
        if not action.strip():
            raise ValueError("the text of an action, not blank")
        return action


class Commit(_Message):
    type: Literal["commit"]
    commitment: object = None  # the table checks it (bad_commitment)


class Reveal(_Message):
    type: Literal["reveal"]
    seed: object = None  # the table checks both (bad_contribution, bad_reveal)
    salt: object = None


class Back(_Message):
    type: Literal["back"]


class Resign(_Message):
    type: Literal["resign"]


class Abort(_Message):
    type: Literal["abort"]


class Sync(_Message):
    type: Literal["sync"]


class Ping(_Message):
    type: Literal["ping"]


class Say(_Message):
    """A chat message: a quick phrase's id or free text (the chat checks both)."""

    type: Literal["chat"]
    phrase: object = None
    text: object = None
    ref: Annotated[str, Field(max_length=64)] | StrictInt | None = None  # echoed in the ack


ClientMessage = Hello | Act | Commit | Reveal | Back | Resign | Abort | Sync | Ping | Say
CLIENT_MESSAGES: TypeAdapter[ClientMessage] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")]
)
MESSAGE_TYPES = (
    "hello",
    "act",
    "commit",
    "reveal",
    "back",
    "resign",
    "abort",
    "sync",
    "ping",
    "chat",
)
