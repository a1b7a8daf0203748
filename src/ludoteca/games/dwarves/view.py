"""The observation: the whole public position, as a web board needs it to draw everything.

Every seat sees the same (all chests are face up); the only hidden things are the order of the
face-down pool, shown as a count, and the future dice.
"""

from __future__ import annotations

from ludoteca.core import JSON

from .actions import MOVES, Action, Steal, Trade
from .choices import legal_actions, routes
from .fortress import FACES
from .lineup import EXTRA
from .notation import action_to_text, dump_result
from .scoring import figure_scores
from .state import MEET, MOVE, OVER, PHASES, ROUND_CAP, DwarvesState
from .stones import KINDS, stones

COLOURS = (*FACES, "grey")


def observation(state: DwarvesState, seat: int | None) -> JSON:
    """The public position, the same for every ``seat`` (``docs/notation/dwarves.md``,
    "Observation")."""
    board, cast = state.board, state.lineup
    scores = figure_scores(state)
    return {
        "ring": [
            {
                "tile": t,
                "kind": board.tiles[t],
                "colour": COLOURS[board.colour[t]],
                "name": board.names[t],
            }
            for t in range(board.size)
        ],
        "dwarves": [
            {
                "colour": cast.colours[d],
                "seat": None if cast.seats[d] == EXTRA else cast.seats[d],
                "extra": cast.seats[d] == EXTRA,
                "tile": state.pos[d],
                "chest": stones(state.counts(d)),
                "score": list(scores[d]),
            }
            for d in range(cast.size)
        ],
        "hobbit": state.hobbit,
        "dragon": {"tile": state.dragon, "hoard": stones(state.hoard), "score": list(scores[-1])},
        "pool": len(state.pool),
        "dice": {
            "grey": FACES[state.grey],
            "white": FACES[state.white],
            "doubles": state.grey == state.white,
        },
        "round": state.round,
        "round_cap": ROUND_CAP,
        "start": cast.colours[state.start],
        "turn": None if state.phase == OVER else cast.colours[state.turn],
        "phase": PHASES[state.phase],
        "pending": _pending(state),
        "result": None if state.result is None else dump_result(state, state.result),
    }


def _pending(state: DwarvesState) -> JSON | None:
    colours = state.lineup.colours
    if state.phase == MOVE:
        return {
            "choice": "move",
            "dwarf": colours[state.turn],
            "moves": [
                {"tile": t, "text": action_to_text(MOVES[t]), "ways": ways}
                for t, ways in routes(state).items()
            ],
        }
    if state.phase == MEET:
        return {
            "choice": "meet",
            "dwarf": colours[state.turn],
            "with": colours[state.queue[0]],
            "then": [colours[d] for d in state.queue[1:]],
            "options": [_option(a) for a in legal_actions(state)],
        }
    return None


def _option(action: Action) -> JSON:
    text = action_to_text(action)
    if isinstance(action, Trade):
        return {
            "text": text,
            "kind": "trade",
            "give": KINDS[action.give],
            "take": KINDS[action.take],
        }
    if isinstance(action, Steal):
        return {"text": text, "kind": "steal", "take": KINDS[action.take]}
    return {"text": text, "kind": "blind"}
