"""Alembic migrations of the server's database (run them with ``ludoteca db upgrade``).

``versions/`` holds one file per revision; docs/storage.md says how to add one.
"""
