"""Server settings, from the command line or ``LUDOTECA_*`` environment variables."""

from __future__ import annotations

import os
from dataclasses import dataclass


def _float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value else default


def _int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


DEFAULT_DB = "sqlite:///var/ludoteca.sqlite3"
DEFAULT_KEYS = "var/keys"


@dataclass(frozen=True, slots=True)
class Settings:
    db_url: str = DEFAULT_DB
    bot_delay: float = 0.8  # seconds a bot waits before acting, so people can follow
    away_grace: float = 5.0  # seconds the table waits for a seat that is away
    table_level: str = "medium"  # the bot that plays for a seat whose clock ran out
    fill_level: str = "medium"  # the bot that takes an empty seat at the start
    default_turn_seconds: int = 60
    min_turn_seconds: int = 5
    max_turn_seconds: int = 3600
    max_message_bytes: int = 4096  # one websocket message from a client
    rate_per_second: float = 10.0  # websocket messages per connection, sustained
    rate_burst: int = 20
    hello_timeout: float = 10.0
    bot_processes: int = 1  # worker processes for searching bots
    contribution_seconds: float = 10.0  # how long a start waits for the players' own seeds
    keys_dir: str | None = None  # the record-signing keys (None: one key for this process only)

    @classmethod
    def from_env(cls, db_url: str | None = None) -> Settings:
        base = cls()
        return cls(
            db_url=db_url or os.environ.get("LUDOTECA_DB") or DEFAULT_DB,
            bot_delay=_float("LUDOTECA_BOT_DELAY", base.bot_delay),
            away_grace=_float("LUDOTECA_AWAY_GRACE", base.away_grace),
            default_turn_seconds=_int("LUDOTECA_TURN_SECONDS", base.default_turn_seconds),
            min_turn_seconds=_int("LUDOTECA_MIN_TURN_SECONDS", base.min_turn_seconds),
            rate_per_second=_float("LUDOTECA_RATE", base.rate_per_second),
            rate_burst=_int("LUDOTECA_RATE_BURST", base.rate_burst),
            bot_processes=_int("LUDOTECA_BOT_PROCESSES", base.bot_processes),
            contribution_seconds=_float("LUDOTECA_CONTRIBUTION_SECONDS", base.contribution_seconds),
            keys_dir=os.environ.get("LUDOTECA_KEYS", DEFAULT_KEYS),
        )
