"""The analysis of finished matches: the queue of matches to analyse and, once done, each
analysis, keyed by table (docs/analysis.md).

Revision ID: 0009
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("queued_at", sa.Float(), nullable=False),
        sa.Column("claimed_at", sa.Float(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("done_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_index("ix_analyses_status_queued_at", "analyses", ["status", "queued_at"])


def downgrade() -> None:
    op.drop_index("ix_analyses_status_queued_at", table_name="analyses")
    op.drop_table("analyses")
