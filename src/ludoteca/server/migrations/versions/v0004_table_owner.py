"""Who opened each table (a digest of the address, not the address itself), so the cap on open
tables per address holds across every server process.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("owner", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as tables:
        tables.drop_column("owner")
