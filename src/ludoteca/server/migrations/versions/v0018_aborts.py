"""Aborts: who aborted which table when, for the daily limit on aborts (docs/protocol.md#aborting).
An ended table's outcome (stored in ``tables.outcome``) says how it ended.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "aborts",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("who", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_index("ix_aborts_who_at", "aborts", ["who", "at"])


def downgrade() -> None:
    op.drop_index("ix_aborts_who_at", table_name="aborts")
    op.drop_table("aborts")
