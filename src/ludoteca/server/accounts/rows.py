"""The rows of the account store (``store``): accounts, sessions, passkeys, challenges, the seats
an account holds and a person's place in a rated match; the cookies a sign-in reads and what it
gives back (``Browser``, ``SignedIn``); and the account tables themselves."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import create_engine
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from ludoteca.server.storage.schema import (
    account_devices,
    account_seats,
    accounts,
    audit_log,
    blocks,
    challenges,
    follows,
    friend_invites,
    metadata,
    notify_emails,
    operators,
    passkeys,
    password_resets,
    presence,
    push_subscriptions,
    rated_tables,
    rating_changes,
    ratings,
    released_names,
    reports,
    sanctions,
    sessions,
    social_settings,
)

from .ratings import Rating

ACCOUNT_TABLES = [
    accounts,
    sessions,
    passkeys,
    challenges,
    account_seats,
    rated_tables,
    ratings,
    rating_changes,
    push_subscriptions,
    notify_emails,
    account_devices,
    released_names,
    password_resets,
    follows,
    blocks,
    social_settings,
    presence,
    friend_invites,
    reports,
    operators,
    sanctions,
    audit_log,
]
# the rows that are an account's: deleted with it, and (but challenges, subscriptions and the
# digests of reset links) exported
EXPORTED = (
    passkeys,
    sessions,
    account_seats,
    ratings,
    rating_changes,
    notify_emails,
    account_devices,
)
OWNED = (
    *EXPORTED,
    challenges,
    push_subscriptions,
    password_resets,
    social_settings,
    sanctions,
    presence,
    operators,
)
# the pairs an account is on either side of: deleted with it (``store.delete_account``)
PAIRS = ((follows, "follower_id", "followed_id"), (blocks, "blocker_id", "blocked_id"))


class NameTaken(Exception):
    """Another account has this name (after normalisation)."""


class NameHeld(NameTaken):
    """A deleted account had this name not long ago: it is free again at ``until``."""

    def __init__(self, name: str, until: float) -> None:
        super().__init__(name)
        self.until = until


class AlreadySeated(Exception):
    """The account already holds another seat of this table (``seat``)."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat}")
        self.seat = seat


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    password_hash: str | None
    created_at: float


@dataclass(frozen=True, slots=True)
class Session:
    id: str
    account: Account
    created_at: float
    seen_at: float


@dataclass(frozen=True, slots=True)
class Browser:
    """The cookies a browser signs in with: its session, which the new one replaces (so a
    planted one is never signed in), and its device cookie (``devices``)."""

    session: str | None = None
    device: str | None = None


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A sign-up or sign-in that succeeded: what the browser is given back as cookies."""

    account: Account
    token: str  # the new session's cookie value
    device: str  # the browser's device cookie (``devices``): the one it came with, or a new one


@dataclass(frozen=True, slots=True)
class Passkey:
    id: str
    account_id: str
    public_key: str
    sign_count: int


@dataclass(frozen=True, slots=True)
class Challenge:
    challenge: str
    purpose: str
    account_id: str | None
    name: str | None


@dataclass(frozen=True, slots=True)
class HeldSeat:
    table_id: str
    seat: int
    token: str
    at: float


@dataclass(frozen=True, slots=True)
class SeatRating:
    """One person's place in a finished rated match and their rating before it."""

    account_id: str
    seat: int
    before: Rating
    matches: int


def memory_engine() -> Engine:
    """An SQLite database in this process's memory with the account tables."""
    engine = create_engine(
        "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
    )
    metadata.create_all(engine, tables=ACCOUNT_TABLES)
    return engine
