"""The analysis of finished matches on the server (``docs/analysis.md``): the queue in the
database and the workers that drain it."""

from .queue import Analyst, MatchOverHook, NoAnalysis

__all__ = ["Analyst", "MatchOverHook", "NoAnalysis"]
