"""The database schema at the newest revision, as SQLAlchemy tables.

The migrations (``ludoteca/server/migrations``) are what create and change a database; this is
what the code queries, and the migration test checks that a database brought to head by them
matches it exactly. Change both together (see docs/storage.md).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, MetaData, String, Table, Text

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("params", Text, nullable=False),
    Column("seed", String(128), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("turn_seconds", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("started_at", Float),
    Column("turn_started_at", Float),
    Column("version", Integer, nullable=False, default=0),
    Column("outcome", Text),
    # 1: ``seed`` is the match seed itself; 2: it is the server's secret, mixed with the
    # players' contributions (``seats.contribution``) into the seed when the match is dealt;
    # 3: the same, each contribution revealed against its commitment (``seats.commitment``).
    # Tables stored before formats existed are format 1 (revision 0002).
    Column("format", Integer, nullable=False, default=1, server_default="1"),
    # who opened the table: a digest of the client's address, for the cap on open tables per
    # address across processes (revision 0004; None for tables started at once)
    Column("owner", String(32)),
    # when a starting table closed its commitments and opened the reveals (revision 0005)
    Column("revealing_at", Float),
    # the lobby's listing and the expiry of open tables: by status, newest first (revision 0003)
    Index("ix_tables_status_created_at", "status", "created_at", "id"),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # open | human | bot
    Column("name", String(64), nullable=False),
    Column("level", String(16)),
    Column("token_hash", String(64)),
    Column("away", Boolean, nullable=False, default=False),
    Column("contribution", String(64)),
    # format 3 (revision 0005): the seat's commitment, then with its reveal the salt
    Column("commitment", String(64)),
    Column("salt", String(32)),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("by", String(8), nullable=False),
    Column("at", Float, nullable=False),
)
