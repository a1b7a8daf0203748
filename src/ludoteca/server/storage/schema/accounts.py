"""The tables of accounts: people who sign in, their sessions, passkeys, seats, ratings, devices,
notifications and password resets (docs/accounts.md)."""

from __future__ import annotations

from sqlalchemy import Column, Float, Index, Integer, String, Table, Text

from .base import metadata

# ---------------------------------------------------------------- accounts (revision 0005)
# People who sign in, and what the server keeps about them: docs/accounts.md. A table's seats keep
# the display name the table showed; ``account_seats`` is the only link from a seat to a person.
accounts = Table(
    "accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),  # as shown (NFKC)
    Column("name_key", String(96), nullable=False),  # NFKC, case-folded: unique
    Column("password_hash", String(255)),  # argon2id; None for an account with passkeys only
    Column("created_at", Float, nullable=False),
    Index("ix_accounts_name_key", "name_key", unique=True),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String(64), primary_key=True),  # SHA-256 of the cookie's value, never the value
    Column("account_id", String(32), nullable=False),
    Column("created_at", Float, nullable=False),  # the absolute lifetime counts from here
    Column("seen_at", Float, nullable=False),  # the idle lifetime counts from here
    Index("ix_sessions_account_id", "account_id"),
)

passkeys = Table(
    "passkeys",
    metadata,
    Column("id", String(255), primary_key=True),  # the credential id, base64url
    Column("account_id", String(32), nullable=False),
    Column("public_key", Text, nullable=False),  # COSE key, base64url
    Column("sign_count", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("used_at", Float),
    Index("ix_passkeys_account_id", "account_id"),
)

challenges = Table(
    "challenges",
    metadata,
    Column("challenge", String(128), primary_key=True),  # base64url; used once
    Column("purpose", String(16), nullable=False),  # register | login
    Column("account_id", String(32)),  # adding a passkey to this account
    Column("name", String(64)),  # signing up with a passkey under this name
    Column("expires_at", Float, nullable=False),
)

account_seats = Table(
    "account_seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), nullable=False),
    Column(
        "token", String(64), nullable=False
    ),  # the seat's token, handed to the account's devices
    Column("at", Float, nullable=False),
    Index("ix_account_seats_account_id_at", "account_id", "at"),
    # one seat per account at a table (revision 0010): rating keys its changes on the pair
    Index("ux_account_seats_table_id_account_id", "table_id", "account_id", unique=True),
)

rated_tables = Table(
    "rated_tables",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("rated_at", Float),  # None until the match is over and rated (exactly once)
    # revision 0010: why the match moved no rating (it failed, or its accounts share a device)
    Column("not_rated", Text),
    Column("failed_at", Float),  # set when rating it failed: an operator's to look at
    Index("ix_rated_tables_failed_at", "failed_at"),
)

ratings = Table(
    "ratings",
    metadata,
    Column("account_id", String(32), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("shown", Float, nullable=False),  # mu - 3 sigma: what the leaderboard orders by
    Column("matches", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_ratings_game_shown", "game", "shown"),
)

rating_changes = Table(
    "rating_changes",
    metadata,
    Column("account_id", String(32), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Index("ix_rating_changes_account_id_at", "account_id", "at"),
)

# ------------------------------------------------- devices and released names (revision 0010)
# The browsers (a digest of a long-lived cookie) each account signed in from: accounts that share
# one are not rated against each other. A deleted account's name, as a digest, is held for a
# while so that re-registering it does not shed a rating (docs/accounts.md).
account_devices = Table(
    "account_devices",
    metadata,
    Column("device", String(64), primary_key=True),
    Column("account_id", String(32), primary_key=True),
    Column("seen_at", Float, nullable=False),
    Index("ix_account_devices_account_id", "account_id"),
)

released_names = Table(
    "released_names",
    metadata,
    Column("name_digest", String(64), primary_key=True),
    Column("released_at", Float, nullable=False),
)

# "Your turn" notifications (docs/turn-based.md): a device's push subscription, bound to an
# account (every seat it holds) or to one seat (a guest's, by its token); an account's address.
push_subscriptions = Table(
    "push_subscriptions",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("endpoint", Text, nullable=False),
    Column("p256dh", String(128), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("zone", String(64), nullable=False),
    Column("account_id", String(32)),
    Column("table_id", String(32)),
    Column("seat", Integer),
    Column("created_at", Float, nullable=False),
    Index("ix_push_subscriptions_account_id", "account_id"),
    Index("ix_push_subscriptions_table_id_seat", "table_id", "seat"),
)

notify_emails = Table(
    "notify_emails",
    metadata,
    Column("account_id", String(32), primary_key=True),
    Column("address", String(254), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("zone", String(64), nullable=False),
    Column("confirmed_at", Float),  # None until the link mailed to the address is opened
    Column("created_at", Float, nullable=False),
)

# A password reset asked for (revision 0013, docs/accounts.md#password-reset): the SHA-256 of the
# link's random token (never the token), the account, and until when it may be used (30 minutes).
# Used once: deleted when used, and with every other reset of the account.
password_resets = Table(
    "password_resets",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("account_id", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("ix_password_resets_account_id", "account_id"),
)
