"""Accounts: people who sign in (password or passkeys), their sessions, the seats they hold, the
tables that are rated, their ratings per game and every change of them (docs/accounts.md).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(96), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_accounts_name_key", "accounts", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(255), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    op.create_table(
        "challenges",
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("challenge"),
    )
    op.create_table(
        "account_seats",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_index("ix_account_seats_account_id_at", "account_seats", ["account_id", "at"])
    op.create_table(
        "rated_tables",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("rated_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("shown", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "game"),
    )
    op.create_index("ix_ratings_game_shown", "ratings", ["game", "shown"])
    op.create_table(
        "rating_changes",
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "table_id"),
    )
    op.create_index("ix_rating_changes_account_id_at", "rating_changes", ["account_id", "at"])


def downgrade() -> None:
    for index, table in (
        ("ix_rating_changes_account_id_at", "rating_changes"),
        ("ix_ratings_game_shown", "ratings"),
        ("ix_account_seats_account_id_at", "account_seats"),
        ("ix_passkeys_account_id", "passkeys"),
        ("ix_sessions_account_id", "sessions"),
        ("ix_accounts_name_key", "accounts"),
    ):
        op.drop_index(index, table_name=table)
    for table in (
        "rating_changes",
        "ratings",
        "rated_tables",
        "account_seats",
        "challenges",
        "passkeys",
        "sessions",
        "accounts",
    ):
        op.drop_table(table)
