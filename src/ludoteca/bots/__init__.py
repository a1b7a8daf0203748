"""Game-agnostic bots and the levels people pick at a table."""

from ludoteca.core.spec import LEVELS

from .levels import make_bot
from .random_bot import RandomBot

__all__ = ["LEVELS", "RandomBot", "make_bot"]
