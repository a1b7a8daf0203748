"""Action text: ``to 7``, ``trade ruby gold`` (give ruby, take gold), ``trade blind``,
``steal emerald``. Canonical text is lower case; parsing forgives case, spaces and commas, and also
takes ``grey``/``white``/``step``/``stay``, ``to <tile name>`` and stone colours."""

from __future__ import annotations

from ludoteca.core import IllegalActionError, InvalidActionError

from .actions import BLIND, MOVES, STEALS, TRADES, Action, BlindTrade, Move, Trade
from .choices import legal, routes
from .lineup import EXTRA
from .state import MEET, MOVE, OVER, DwarvesState
from .stones import ALIASES, KINDS

ROUTE_WORDS = {"grey": "grey", "gray": "grey", "white": "white", "step": "step", "stay": "stay"}
EXPECTED = "expected e.g. 'to 7', 'grey', 'step', 'trade ruby gold', 'trade blind', 'steal emerald'"


def action_text(action: Action) -> str:
    """The canonical text of an action."""
    if isinstance(action, Move):
        return f"to {action.tile}"
    if isinstance(action, Trade):
        return f"trade {KINDS[action.give]} {KINDS[action.take]}"
    if isinstance(action, BlindTrade):
        return "trade blind"
    return f"steal {KINDS[action.take]}"


def parse(state: DwarvesState, text: str) -> Action:
    """The legal action a text stands for; InvalidActionError when the text is no action of the
    game, IllegalActionError (saying why) when it is one but not allowed now."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is a text, not {type(text).__name__}")
    words = text.lower().replace(",", " ").split()
    if not words:
        raise InvalidActionError(f"empty action: {EXPECTED}")
    head, rest = words[0], words[1:]
    if head in ROUTE_WORDS and not rest:
        action = _route(state, ROUTE_WORDS[head])
    elif head == "to" and rest:
        action = MOVES[_tile(state, " ".join(rest))]
    elif (head == "trade" and rest in ([], ["blind"])) or words == ["blind"]:
        action = BLIND
    elif head == "trade" and len(rest) == 2:
        action = TRADES[_kind(rest[0])][_kind(rest[1])]
    elif head == "steal" and len(rest) == 1:
        action = STEALS[_kind(rest[0])]
    else:
        raise InvalidActionError(f"{text.strip()[:40]!r} is not an action: {EXPECTED}")
    if action not in legal(state):
        raise IllegalActionError(why_not(state, action))
    return action


def _kind(word: str) -> int:
    try:
        return ALIASES[word]
    except KeyError:
        raise InvalidActionError(
            f"no stone called {word[:20]!r}: the stones are {', '.join(KINDS)}"
        ) from None


def _tile(state: DwarvesState, name: str) -> int:
    board = state.board
    if name.isascii() and name.isdigit() and len(name) <= 3:
        tile = int(name)
        if tile < board.size:
            return tile
    elif name in board.names or name == "passage":
        return board.names.index("secret passage" if name == "passage" else name)
    raise InvalidActionError(
        f"no tile {name[:20]!r}: tiles are numbered 0 to {board.size - 1}"
        f" or named ({', '.join(board.names)})"
    )


def _route(state: DwarvesState, way: str) -> Action:
    if state.phase != MOVE:  # any move gets the same answer: there is no move to make now
        raise IllegalActionError(why_not(state, MOVES[0]))
    return next(MOVES[t] for t, ways in routes(state).items() if way in ways)


def why_not(state: DwarvesState, action: Action) -> str:
    """Why a well-formed action is not legal in this position."""
    if state.phase == OVER:
        return "the match is over"
    colours = state.lineup.colours
    mover = colours[state.turn]
    if isinstance(action, Move):
        if state.phase == MEET:
            met = colours[state.queue[0]]
            return f"the {mover} dwarf has moved: now it trades or steals with the {met} dwarf"
        ways = "; ".join(f"{t} by {'/'.join(w)}" for t, w in routes(state).items())
        return f"the {mover} dwarf cannot reach tile {action.tile} (it may go to {ways})"
    if state.phase == MOVE:
        return f"nobody to trade with yet: the {mover} dwarf moves first"
    other = state.queue[0]
    them = colours[other]
    extra = state.lineup.seats[other] == EXTRA
    mine, theirs = state.counts(state.turn), state.counts(other)
    if isinstance(action, Trade):
        if extra:
            return f"a trade with the extra {them} dwarf is blind: 'trade blind'"
        if not mine[action.give]:
            return f"the {mover} dwarf has no {KINDS[action.give]} to give"
        return f"the {them} dwarf has no {KINDS[action.take]}"
    if isinstance(action, BlindTrade):
        if not extra:
            return "only a trade with an extra dwarf is blind: name the stones ('trade ruby gold')"
        return "a trade needs a stone on both sides"
    if sum(theirs) - sum(mine) < 2:
        return (
            f"the {mover} dwarf may steal only from a dwarf with at least 2 stones more"
            f" ({mover} has {sum(mine)}, {them} has {sum(theirs)})"
        )
    return f"the {them} dwarf has no {KINDS[action.take]}"
