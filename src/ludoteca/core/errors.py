"""The errors every game raises, so callers can tell bad input from a bad moment.

Both action errors are ``ValueError`` subclasses (as python-chess does it) and are raised before
anything changes: a state is never touched by a rejected action.
"""


class LudotecaError(Exception):
    """Base of every error this package raises on purpose."""

    code = "bad_request"
    """The stable error code a server answers with for it (``docs/protocol.md``)."""


class InvalidActionError(LudotecaError, ValueError):
    """The action text (or object) is malformed: it is not an action of this game at all."""

    code = "invalid_action"


class IllegalActionError(LudotecaError, ValueError):
    """The action is well formed but not allowed here (wrong moment, wrong seat, a rule)."""

    code = "illegal_action"


class MatchOverError(IllegalActionError):
    """The match is over: no action is legal any more."""

    code = "match_over"


class NotYourTurnError(IllegalActionError):
    """A seat acted while another seat is to move."""

    code = "not_your_turn"


class StaleVersionError(IllegalActionError):
    """The action was chosen on a version of the match that has since moved on."""

    code = "stale_version"


class ReplayError(LudotecaError, ValueError):
    """A stored or recorded step does not apply: ``step`` is its 1-based number."""

    def __init__(self, step: int, message: str) -> None:
        super().__init__(f"step {step}: {message}")
        self.step = step

    code = "table_broken"


class InvalidPositionError(LudotecaError, ValueError):
    """A JSON position does not describe a position of this game."""


class InvalidParamsError(LudotecaError, ValueError):
    """Match parameters (player count, options) that the game does not accept."""

    code = "bad_request"


class NoAnchorsError(LudotecaError, LookupError):
    """A game declares no fixed ratings for its bots (``Game.anchors``), so a match against
    them cannot be rated: never a borrowed default."""


class UnknownGameError(LudotecaError, KeyError):
    """No game is registered under that identifier."""

    code = "no_game"

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else "unknown game"
