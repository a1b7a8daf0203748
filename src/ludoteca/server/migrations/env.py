"""Alembic's entry point: run the revisions on the connection ``ludoteca.server.storage.migrate``
hands over (it holds the lock and the transaction), or on ``sqlalchemy.url`` when none is given."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from ludoteca.server.storage.engine import engine_for
from ludoteca.server.storage.schema import metadata

config = context.config


def run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


given: Connection | None = config.attributes.get("connection")
if given is not None:
    run(given)
else:
    engine = engine_for(config.get_main_option("sqlalchemy.url") or "")
    with engine.connect() as own:
        run(own)
    engine.dispose()
