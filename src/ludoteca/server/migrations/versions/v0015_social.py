"""Friends, blocking, reports and the operator's desk: follows, blocks, the privacy setting,
presence, table invitations, reports, operators, sanctions and the audit log
(docs/accounts.md, docs/moderation.md).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def _id(name: str) -> sa.Column[str]:
    return sa.Column(name, sa.String(32), nullable=False)


def upgrade() -> None:
    op.create_table(
        "follows",
        _id("follower_id"),
        _id("followed_id"),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("follower_id", "followed_id"),
    )
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])
    op.create_table(
        "blocks",
        _id("blocker_id"),
        _id("blocked_id"),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("blocker_id", "blocked_id"),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])
    op.create_table(
        "social_settings",
        _id("account_id"),
        sa.Column("hide_online", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("account_id"),
    )
    op.create_table(
        "presence",
        _id("account_id"),
        sa.Column("process", sa.String(64), nullable=False),
        sa.Column("connections", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "process"),
    )
    op.create_table(
        "friend_invites",
        sa.Column("id", sa.Integer(), nullable=False),
        _id("from_id"),
        _id("to_id"),
        _id("table_id"),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_friend_invites_to_id_at", "friend_invites", ["to_id", "at"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), nullable=False),
        _id("reporter_id"),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("message_id", sa.String(64), nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("closed_at", sa.Float(), nullable=True),
        sa.Column("closed_by", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_reports_closed_at_at", "reports", ["closed_at", "at"])
    op.create_table(
        "operators",
        _id("account_id"),
        sa.Column("granted_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account_id"),
    )
    op.create_table(
        "sanctions",
        _id("account_id"),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("until", sa.Float(), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "kind"),
    )
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("operator", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(128), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    for name in (
        "audit_log",
        "sanctions",
        "operators",
        "reports",
        "friend_invites",
        "presence",
        "social_settings",
        "blocks",
        "follows",
    ):
        op.drop_table(name)
