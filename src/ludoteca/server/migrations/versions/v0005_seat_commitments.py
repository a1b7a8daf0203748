"""Seats commit before they reveal (record format 3): each seat's commitment and salt, and when a
starting table closed its commitments and opened the reveals.

Tables stored before this keep their format (1 or 2); new tables are format 3.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("commitment", sa.String(64), nullable=True))
    op.add_column("seats", sa.Column("salt", sa.String(32), nullable=True))
    op.add_column("tables", sa.Column("revealing_at", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as tables:
        tables.drop_column("revealing_at")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("salt")
        seats.drop_column("commitment")
