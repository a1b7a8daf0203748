"""Password resets: the SHA-256 of each mailed link's token, its account and until when it may
be used (docs/accounts.md#password-reset).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "password_resets",
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("token"),
    )
    op.create_index("ix_password_resets_account_id", "password_resets", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_password_resets_account_id", table_name="password_resets")
    op.drop_table("password_resets")
