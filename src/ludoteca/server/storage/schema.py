"""The database schema at the newest revision, as SQLAlchemy tables.

The migrations (``ludoteca/server/migrations``) are what create and change a database; this is
what the code queries, and the migration test checks that a database brought to head by them
matches it exactly. Change both together (see docs/storage.md).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("params", Text, nullable=False),
    Column("seed", String(128), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("turn_seconds", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("started_at", Float),
    Column("turn_started_at", Float),
    Column("version", Integer, nullable=False, default=0),
    Column("outcome", Text),
    # 1: ``seed`` is the match seed itself; 2: it is the server's secret, mixed with the
    # players' contributions (``seats.contribution``) into the seed when the match is dealt;
    # 3: the same, each contribution revealed against its commitment (``seats.commitment``).
    # Tables stored before formats existed are format 1 (revision 0002).
    Column("format", Integer, nullable=False, default=1, server_default="1"),
    # who opened the table: a digest of the client's address, for the cap on open tables per
    # address across processes (revision 0004; None for tables started at once)
    Column("owner", String(32)),
    # when a starting table closed its commitments and opened the reveals (revision 0005)
    Column("revealing_at", Float),
    # the table's pace (revision 0007): "real-time" or "turn-based", each seat's reserve, and
    # when a turn-based table must act next at the latest (the deadlines loop reads it by index)
    Column("pace", String(16), nullable=False, default="real-time", server_default="real-time"),
    Column("reserve_seconds", Integer, nullable=False, default=0, server_default="0"),
    Column("due_at", Float),
    # the lobby's listing and the expiry of open tables: by status, newest first (revision 0003)
    Index("ix_tables_status_created_at", "status", "created_at", "id"),
    Index("ix_tables_due_at", "due_at"),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # open | human | bot
    Column("name", String(64), nullable=False),
    Column("level", String(16)),
    Column("token_hash", String(64)),
    Column("away", Boolean, nullable=False, default=False),
    Column("contribution", String(64)),
    # format 3 (revision 0005): the seat's commitment, then with its reveal the salt
    Column("commitment", String(64)),
    Column("salt", String(32)),
    # turn-based (revision 0007): timeouts in a row, reserve drawn, the step a bot took over after
    Column("timeouts", Integer, nullable=False, default=0, server_default="0"),
    Column("reserve_used", Float, nullable=False, default=0.0, server_default="0"),
    Column("bot_from", Integer),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("by", String(8), nullable=False),
    Column("at", Float, nullable=False),
)

# Format 5 (revision 0017): every event of a table from its creation to the deal, in order
# (docs/fairness.md#the-prelude); ``event`` is the event's JSON.
prelude = Table(
    "prelude",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("event", Text, nullable=False),
)

# A rematch offered at the end of a table (revision 0012): the new table's id, each seat's
# answer and the hash of the token each person who accepted holds there (JSON lists, by seat of
# the finished table); ``version`` fences every write (docs/protocol.md#rematch).
rematches = Table(
    "rematches",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("new_table", String(32), nullable=False),
    Column("state", String(16), nullable=False),  # offered | accepted | declined | lapsed
    Column("offered_by", Integer, nullable=False),
    Column("offered_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("answers", Text, nullable=False),
    Column("hashes", Text, nullable=False),
    Column("rated", Boolean, nullable=False, default=False),
    Column("reason", Text),
    Column("version", Integer, nullable=False, default=0),
)

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

# --------------------------------------------------------- match analyses (revision 0009)
# The queue of finished matches to analyse and, once done, the analysis (docs/analysis.md). A job
# is claimed by one worker with an UPDATE that re-checks its status; one whose worker died
# (``running`` and claimed long ago) may be claimed again.
analyses = Table(
    "analyses",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("status", String(8), nullable=False),  # queued | running | done | failed
    Column("queued_at", Float, nullable=False),
    Column("claimed_at", Float),
    Column("attempts", Integer, nullable=False, default=0),
    Column("result", Text),  # the analysis (JSON) once done; why not, once failed
    Column("done_at", Float),
    Index("ix_analyses_status_queued_at", "status", "queued_at"),
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

# ------------------------------------------------------ the public log of tables (revision 0011)
# An append-only Merkle log (docs/log.md): each entry's index is dense (0, 1, 2, … with no gap,
# whatever the number of processes appending) and one table has at most one entry of each kind
# (``table`` when its commitments closed, then its end: ``over``, ``expired``, ``gone``). A tree
# head, once signed for a size, is kept: the server never signs two roots for one size.
publog_entries = Table(
    "publog_entries",
    metadata,
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("table_id", String(32), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("leaf", Text, nullable=False),
    Column("leaf_hash", String(64), nullable=False),
    Column("at", Float, nullable=False),
    Index("ux_publog_entries_table_id_kind", "table_id", "kind", unique=True),
)

publog_heads = Table(
    "publog_heads",
    metadata,
    Column("size", Integer, primary_key=True, autoincrement=False),
    Column("root", String(64), nullable=False),
    Column("signature", String(128), nullable=False),
    Column("key_id", String(16), nullable=False),
    Column("signed_at", Float, nullable=False),
)
