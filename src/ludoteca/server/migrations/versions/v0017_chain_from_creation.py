"""The prelude: every event of a table from its creation to the deal, in order, for record
format 5's chain from the table's creation (docs/fairness.md#the-prelude).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "prelude",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("event", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("prelude")
