"""ludoteca: an online table for board games, with verifiable shuffles."""

__version__ = "0.1.0"
