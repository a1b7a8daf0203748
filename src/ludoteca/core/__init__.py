"""Game-agnostic contracts: the rules interface, errors, the seeded stream, records and bots."""

from .bot import Bot, decide
from .errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidParamsError,
    InvalidPositionError,
    LudotecaError,
    UnknownGameError,
)
from .fairness import commitment, derive_seed, fingerprint, seed_fingerprint
from .game import JSON, LANGUAGES, Event, Game, GameSpec, Outcome, State
from .match import Match, Prepared
from .record import MatchRecord, Player, RecordError, Step
from .rng import Stream
from .verify import Problem, Verdict, verify

__all__ = [
    "JSON",
    "LANGUAGES",
    "Bot",
    "Event",
    "Game",
    "GameSpec",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidParamsError",
    "InvalidPositionError",
    "LudotecaError",
    "Match",
    "MatchRecord",
    "Outcome",
    "Player",
    "Prepared",
    "Problem",
    "RecordError",
    "State",
    "Step",
    "Stream",
    "UnknownGameError",
    "Verdict",
    "commitment",
    "decide",
    "derive_seed",
    "fingerprint",
    "seed_fingerprint",
    "verify",
]
