"""Tables by status, newest first: one index for the lobby's pages and the expiry of open tables.

It replaces the index on status alone, which it covers.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_tables_status_created_at", "tables", ["status", "created_at", "id"])
    op.drop_index("ix_tables_status", table_name="tables")


def downgrade() -> None:
    op.create_index("ix_tables_status", "tables", ["status"])
    op.drop_index("ix_tables_status_created_at", table_name="tables")
