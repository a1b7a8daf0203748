"""The tables of people among themselves: friends, blocking, reports and the operator's desk
(docs/accounts.md, docs/moderation.md), and every table's chat (docs/protocol.md#chat)."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, Table, Text

from .base import metadata

# ------------------------------------- friends, blocking, reports, the operator's desk (0015)
# docs/accounts.md#friends-and-blocking and docs/moderation.md. A follow and a block are pairs
# of accounts; ``presence`` is each process's count of an account's live websockets (refreshed
# while they stay open, so a killed process's rows lapse); ``friend_invites`` is the inbox of
# table invitations, which each process reads past its own cursor for the people connected to it.
follows = Table(
    "follows",
    metadata,
    Column("follower_id", String(32), primary_key=True),
    Column("followed_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Index("ix_follows_followed_id", "followed_id"),
)

blocks = Table(
    "blocks",
    metadata,
    Column("blocker_id", String(32), primary_key=True),
    Column("blocked_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Index("ix_blocks_blocked_id", "blocked_id"),
)

social_settings = Table(
    "social_settings",
    metadata,
    Column("account_id", String(32), primary_key=True),
    Column("hide_online", Boolean, nullable=False),
)

presence = Table(
    "presence",
    metadata,
    Column("account_id", String(32), primary_key=True),
    Column("process", String(64), primary_key=True),
    Column("connections", Integer, nullable=False),
    Column("seen_at", Float, nullable=False),
)

friend_invites = Table(
    "friend_invites",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("from_id", String(32), nullable=False),
    Column("to_id", String(32), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_friend_invites_to_id_at", "to_id", "at"),
)

# A report keeps what it points at: a person, a table, or one chat message (its id, resolved
# by the chat when an operator opens it), and the table it was made at.
reports = Table(
    "reports",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("reporter_id", String(32), nullable=False),
    Column("kind", String(8), nullable=False),  # account, table, message
    Column("account_id", String(32)),  # the person reported (for a message: its author)
    Column("table_id", String(32)),
    Column("message_id", String(64)),
    Column("reason", String(16), nullable=False),
    Column("note", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("closed_at", Float),
    Column("closed_by", String(64)),
    Index("ix_reports_closed_at_at", "closed_at", "at"),
)

operators = Table(
    "operators",
    metadata,
    Column("account_id", String(32), primary_key=True),
    Column("granted_at", Float, nullable=False),
)

sanctions = Table(
    "sanctions",
    metadata,
    Column("account_id", String(32), primary_key=True),
    Column("kind", String(8), primary_key=True),  # mute, suspend
    Column("until", Float),  # None: for good
    Column("at", Float, nullable=False),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("operator", String(64), nullable=False),  # the operator's name (or "cli:NAME")
    Column("action", String(32), nullable=False),
    Column("target", String(128), nullable=False),
    Column("reason", Text, nullable=False),
    Column("at", Float, nullable=False),
)

# ---------------------------------------------------------------- table chat (revision 0016)
# What people say at a table (docs/protocol.md#chat): each message once, numbered in the order
# stored (``id``, over every table); ``room`` is "seats" (the people seated) or "spectators";
# ``phrase`` is a quick phrase's id, or ``text`` free text (plain, at most 200 characters);
# ``hidden`` by an operator: kept, shown to nobody. ``chat_settings`` holds the host's choice
# of free text at a table (no row: quick phrases only).
chat_messages = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False),
    Column("room", String(12), nullable=False),
    Column("seat", Integer),
    Column("account_id", String(32)),
    Column("name", String(64), nullable=False),
    Column("phrase", String(32)),
    Column("text", Text),
    Column("at", Float, nullable=False),
    Column("hidden", Boolean, nullable=False, default=False, server_default="0"),
    Index("ix_chat_messages_table_id_id", "table_id", "id"),
)

chat_settings = Table(
    "chat_settings",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("text", Boolean, nullable=False, default=False),
)
