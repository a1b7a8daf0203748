"""ludoteca: an online table for board games, with verifiable shuffles."""

from . import native

__version__ = "0.1.0"

native.install()
