"""The tables of play: tables, their seats and actions, rematches, the pairing pool's searches,
match analyses and the public log (docs/storage.md)."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, Table, Text

from .base import metadata

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
    # the table's pace (revision 0007): "real-time" or "turn-based", each seat's reserve, and
    # when a turn-based table must act next at the latest (the deadlines loop reads it by index)
    Column("pace", String(16), nullable=False, default="real-time", server_default="real-time"),
    Column("reserve_seconds", Integer, nullable=False, default=0, server_default="0"),
    Column("due_at", Float),
    # the lobby's listing and the expiry of open tables: by status, newest first (revision 0003)
    Index("ix_tables_status_created_at", "status", "created_at", "id"),
    Index("ix_tables_due_at", "due_at"),
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
    # turn-based (revision 0007): timeouts in a row, reserve drawn, the step a bot took over after
    Column("timeouts", Integer, nullable=False, default=0, server_default="0"),
    Column("reserve_used", Float, nullable=False, default=0.0, server_default="0"),
    Column("bot_from", Integer),
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

# Format 5 (revision 0017): every event of a table from its creation to the deal, in order
# (docs/fairness.md#the-prelude); ``event`` is the event's JSON.
prelude = Table(
    "prelude",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("event", Text, nullable=False),
)

# Aborts (revision 0018): who aborted which table when (a digest of the account, or of the
# address a guest played from), for the daily limit on aborts (docs/protocol.md#aborting).
aborts = Table(
    "aborts",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("who", String(64), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_aborts_who_at", "who", "at"),
)

# A rematch offered at the end of a table (revision 0012): the new table's id, each seat's
# answer and the hash of the token each person who accepted holds there (JSON lists, by seat of
# the finished table); ``version`` fences every write (docs/protocol.md#rematch).
rematches = Table(
    "rematches",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("new_table", String(32), nullable=False),
    Column("state", String(16), nullable=False),  # offered | accepted | declined | lapsed
    Column("offered_by", Integer, nullable=False),
    Column("offered_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("answers", Text, nullable=False),
    Column("hashes", Text, nullable=False),
    Column("rated", Boolean, nullable=False, default=False),
    Column("reason", Text),
    Column("version", Integer, nullable=False, default=0),
)

# The pairing pool (revision 0014): one row per search for people to play with; ``id`` is a
# digest of the search's id, ``seat_hash`` the hash of the seat token it gives once seated
# (docs/protocol.md#pairing). ``version`` fences every write; seating moves a whole group at once.
searches = Table(
    "searches",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),  # 0: any count the game allows
    Column("pace", String(16), nullable=False),
    Column("rated", Boolean, nullable=False, default=False),
    Column("bots_after", Float),  # None: keep waiting for people
    Column("bot_level", String(16), nullable=False),
    Column("name", String(64), nullable=False),
    Column("seat_hash", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("account", String(64)),
    Column("device", String(64)),
    Column("rating", Float),
    Column("state", String(16), nullable=False),  # waiting | seated | cancelled | expired
    Column("table_id", String(32)),
    Column("seat", Integer),
    Column("size", Integer),
    Column("level", String(16)),
    Column("ended_at", Float),
    Column("version", Integer, nullable=False, default=0),
    Index("searches_by_state_and_game", "state", "game"),
    Index("searches_by_table", "table_id"),
)

# --------------------------------------------------------- match analyses (revision 0009)
# The queue of finished matches to analyse and, once done, the analysis (docs/analysis.md). A job
# is claimed by one worker with an UPDATE that re-checks its status; one whose worker died
# (``running`` and claimed long ago) may be claimed again.
analyses = Table(
    "analyses",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("status", String(8), nullable=False),  # queued | running | done | failed
    Column("queued_at", Float, nullable=False),
    Column("claimed_at", Float),
    Column("attempts", Integer, nullable=False, default=0),
    Column("result", Text),  # the analysis (JSON) once done; why not, once failed
    Column("done_at", Float),
    Index("ix_analyses_status_queued_at", "status", "queued_at"),
)

# ------------------------------------------------------ the public log of tables (revision 0011)
# An append-only Merkle log (docs/log.md): each entry's index is dense (0, 1, 2, … with no gap,
# whatever the number of processes appending) and one table has at most one entry of each kind
# (``table`` when its commitments closed, then its end: ``over``, ``expired``, ``gone``). A tree
# head, once signed for a size, is kept: the server never signs two roots for one size.
publog_entries = Table(
    "publog_entries",
    metadata,
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("table_id", String(32), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("leaf", Text, nullable=False),
    Column("leaf_hash", String(64), nullable=False),
    Column("at", Float, nullable=False),
    Index("ux_publog_entries_table_id_kind", "table_id", "kind", unique=True),
)

publog_heads = Table(
    "publog_heads",
    metadata,
    Column("size", Integer, primary_key=True, autoincrement=False),
    Column("root", String(64), nullable=False),
    Column("signature", String(128), nullable=False),
    Column("key_id", String(16), nullable=False),
    Column("signed_at", Float, nullable=False),
)
