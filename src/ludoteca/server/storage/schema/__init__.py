"""The database schema at the newest revision, as SQLAlchemy tables.

The migrations (``ludoteca/server/migrations``) are what create and change a database; this is
what the code queries, and the migration test checks that a database brought to head by them
matches it exactly. Change both together (see docs/storage.md).
"""

from __future__ import annotations

from .accounts import (
    account_devices,
    account_seats,
    accounts,
    challenges,
    notify_emails,
    passkeys,
    password_resets,
    push_subscriptions,
    rated_tables,
    rating_changes,
    ratings,
    released_names,
    sessions,
)
from .base import metadata
from .people import (
    audit_log,
    blocks,
    chat_messages,
    chat_settings,
    follows,
    friend_invites,
    operators,
    presence,
    reports,
    sanctions,
    social_settings,
)
from .tables import (
    aborts,
    actions,
    analyses,
    prelude,
    publog_entries,
    publog_heads,
    rematches,
    searches,
    seats,
    tables,
)

__all__ = [
    "aborts",
    "account_devices",
    "account_seats",
    "accounts",
    "actions",
    "analyses",
    "audit_log",
    "blocks",
    "challenges",
    "chat_messages",
    "chat_settings",
    "follows",
    "friend_invites",
    "metadata",
    "notify_emails",
    "operators",
    "passkeys",
    "password_resets",
    "prelude",
    "presence",
    "publog_entries",
    "publog_heads",
    "push_subscriptions",
    "rated_tables",
    "rating_changes",
    "ratings",
    "released_names",
    "rematches",
    "reports",
    "sanctions",
    "searches",
    "seats",
    "sessions",
    "social_settings",
    "tables",
]
