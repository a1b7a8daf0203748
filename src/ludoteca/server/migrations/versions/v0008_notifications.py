"""Notifications at turn-based tables: devices' push subscriptions (bound to an account or to a
guest's seat) and accounts' e-mail addresses (docs/turn-based.md).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("zone", sa.String(64), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_push_subscriptions_account_id", "push_subscriptions", ["account_id"])
    op.create_index(
        "ix_push_subscriptions_table_id_seat", "push_subscriptions", ["table_id", "seat"]
    )
    op.create_table(
        "notify_emails",
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("zone", sa.String(64), nullable=False),
        sa.Column("confirmed_at", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account_id"),
    )


def downgrade() -> None:
    op.drop_table("notify_emails")
    op.drop_index("ix_push_subscriptions_table_id_seat", table_name="push_subscriptions")
    op.drop_index("ix_push_subscriptions_account_id", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
