"""Turn-based tables: a table's pace and reserve, when it must act next (indexed, for the
deadlines loop), and each seat's timeouts in a row, reserve drawn and bot takeover
(docs/turn-based.md).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("pace", sa.String(16), nullable=False, server_default="real-time")
    )
    op.add_column(
        "tables", sa.Column("reserve_seconds", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column("tables", sa.Column("due_at", sa.Float(), nullable=True))
    op.create_index("ix_tables_due_at", "tables", ["due_at"])
    op.add_column("seats", sa.Column("timeouts", sa.Integer(), nullable=False, server_default="0"))
    op.add_column(
        "seats", sa.Column("reserve_used", sa.Float(), nullable=False, server_default="0")
    )
    op.add_column("seats", sa.Column("bot_from", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_index("ix_tables_due_at", table_name="tables")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_from")
        batch.drop_column("reserve_used")
        batch.drop_column("timeouts")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("due_at")
        batch.drop_column("reserve_seconds")
        batch.drop_column("pace")
