"""The lobby: creating, joining, leaving and starting tables, which tables this process holds in
memory, the turn-based tables that sleep in the database, and the firing of their deadlines."""

from .deadlines import Deadlines
from .lobby import Lobby, SeatRequest
from .residency import Residency

__all__ = ["Deadlines", "Lobby", "Residency", "SeatRequest"]
