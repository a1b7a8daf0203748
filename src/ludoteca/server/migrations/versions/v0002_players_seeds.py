"""Players' seeds (record format 2): each table's format, each seat's contribution.

Tables stored before this are format 1 (their ``seed`` is the match seed); a format-2 table's
``seed`` is the server's secret, mixed with the seats' contributions when the match is dealt.
A database made by ``create_all`` with these columns but no ``alembic_version`` table counts as
this revision.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("format", sa.Integer(), nullable=False, server_default="1"))
    op.add_column("seats", sa.Column("contribution", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("contribution")
    with op.batch_alter_table("tables") as tables:
        tables.drop_column("format")
