"""Ratings that one person cannot stop or farm (docs/accounts.md): one seat per account at a
table, the reason a rated table was not rated (and when rating it failed), the devices each
account signed in from, and the names of deleted accounts held for a while.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # an account at two seats of one table keeps the one it took first
    op.execute(
        "DELETE FROM account_seats WHERE EXISTS (SELECT 1 FROM account_seats AS o"
        " WHERE o.table_id = account_seats.table_id"
        " AND o.account_id = account_seats.account_id"
        " AND (o.at < account_seats.at"
        " OR (o.at = account_seats.at AND o.seat < account_seats.seat)))"
    )
    op.create_index(
        "ux_account_seats_table_id_account_id",
        "account_seats",
        ["table_id", "account_id"],
        unique=True,
    )
    op.add_column("rated_tables", sa.Column("not_rated", sa.Text(), nullable=True))
    op.add_column("rated_tables", sa.Column("failed_at", sa.Float(), nullable=True))
    op.create_index("ix_rated_tables_failed_at", "rated_tables", ["failed_at"])
    op.create_table(
        "account_devices",
        sa.Column("device", sa.String(64), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("device", "account_id"),
    )
    op.create_index("ix_account_devices_account_id", "account_devices", ["account_id"])
    op.create_table(
        "released_names",
        sa.Column("name_digest", sa.String(64), nullable=False),
        sa.Column("released_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("name_digest"),
    )


def downgrade() -> None:
    op.drop_table("released_names")
    op.drop_index("ix_account_devices_account_id", table_name="account_devices")
    op.drop_table("account_devices")
    op.drop_index("ix_rated_tables_failed_at", table_name="rated_tables")
    with op.batch_alter_table("rated_tables") as batch:
        batch.drop_column("failed_at")
        batch.drop_column("not_rated")
    op.drop_index("ux_account_seats_table_id_account_id", table_name="account_seats")
