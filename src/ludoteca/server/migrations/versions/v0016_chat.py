"""Table chat: the messages said at each table (quick phrases or free text, the seats' room and
the spectators'), and each table's choice of free text (docs/protocol.md#chat).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("room", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_chat_messages_table_id_id", "chat_messages", ["table_id", "id"])
    op.create_table(
        "chat_settings",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("text", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("table_id"),
    )


def downgrade() -> None:
    op.drop_index("ix_chat_messages_table_id_id", table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_table("chat_settings")
