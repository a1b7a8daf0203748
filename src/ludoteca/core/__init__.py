"""Game-agnostic contracts: the rules interface, errors, the seeded stream, records and bots."""

from .bot import decide
from .errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidParamsError,
    InvalidPositionError,
    LudotecaError,
    MatchOverError,
    NoAnchorsError,
    NotYourTurnError,
    ReplayError,
    StaleVersionError,
    UnknownGameError,
)
from .fairness import Deal, commitment, derive_seed, fingerprint, match_seed, seed_fingerprint
from .game import Bot, Game
from .match import Match, Prepared
from .outcome import Event, Outcome
from .record import MatchRecord, Player, RecordError, Step
from .rng import Stream
from .signing import Signature, SigningKey
from .spec import JSON, LANGUAGES, GameSpec
from .state import State
from .verify import Problem, Receipt, Verdict, verify

__all__ = [
    "JSON",
    "LANGUAGES",
    "Bot",
    "Deal",
    "Event",
    "Game",
    "GameSpec",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidParamsError",
    "InvalidPositionError",
    "LudotecaError",
    "Match",
    "MatchOverError",
    "MatchRecord",
    "NoAnchorsError",
    "NotYourTurnError",
    "Outcome",
    "Player",
    "Prepared",
    "Problem",
    "Receipt",
    "RecordError",
    "ReplayError",
    "Signature",
    "SigningKey",
    "StaleVersionError",
    "State",
    "Step",
    "Stream",
    "UnknownGameError",
    "Verdict",
    "commitment",
    "decide",
    "derive_seed",
    "fingerprint",
    "match_seed",
    "seed_fingerprint",
    "verify",
]
