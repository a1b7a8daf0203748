"""One table: its state and ledger, what each seat is shown, its life among several processes, its
one timer (bots and clocks), and the actions people send; the pure arithmetic of its pace and
clock; the commit-then-reveal of its seeds."""

from .audience import Listener
from .bot_runner import BotRunner
from .services import Services
from .table import Table
from .turns import TurnBegan, TurnHook

__all__ = ["BotRunner", "Listener", "Services", "Table", "TurnBegan", "TurnHook"]
