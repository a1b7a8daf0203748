"""The one ``MetaData`` every table of the schema is defined on."""

from __future__ import annotations

from sqlalchemy import MetaData

metadata = MetaData()
