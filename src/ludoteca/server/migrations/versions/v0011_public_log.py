"""The public log of tables (docs/log.md): its entries, with dense indexes and one entry per
table and kind, and the tree heads signed so far.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "publog_entries",
        sa.Column("idx", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("leaf", sa.Text(), nullable=False),
        sa.Column("leaf_hash", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("idx"),
    )
    op.create_index(
        "ux_publog_entries_table_id_kind", "publog_entries", ["table_id", "kind"], unique=True
    )
    op.create_table(
        "publog_heads",
        sa.Column("size", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("root", sa.String(64), nullable=False),
        sa.Column("signature", sa.String(128), nullable=False),
        sa.Column("key_id", sa.String(16), nullable=False),
        sa.Column("signed_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("size"),
    )


def downgrade() -> None:
    op.drop_table("publog_heads")
    op.drop_index("ux_publog_entries_table_id_kind", table_name="publog_entries")
    op.drop_table("publog_entries")
