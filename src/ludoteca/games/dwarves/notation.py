"""Dwarves notation: action text and the JSON position (``docs/notation/dwarves.md``).

Action text: ``to 7``, ``trade ruby gold`` (give ruby, take gold), ``trade blind``,
``steal emerald``. Canonical text is lower case; parsing forgives case, spaces and commas, and also
takes ``grey``/``white``/``step``/``stay``, ``to <tile name>`` and stone colours.

The position is written by ``position_to_json`` and read and checked by ``position_from_json``,
which names the first field that is wrong.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ludoteca.core import JSON, InvalidActionError, InvalidPositionError, Stream

from .actions import BLIND, MOVES, STEALS, TRADES, Action, BlindTrade, Move, Trade
from .choices import routes
from .fortress import FACES, board, clash, tile_set
from .lineup import EXTRA, lineup
from .play import can_meet, figure_name
from .scoring import leaders
from .state import MEET, MOVE, OVER, PHASES, RACE_CAP, ROUND_CAP, DwarvesState, Result
from .stones import ALIASES, KINDS, NKINDS, stone_set, stones

ROUTE_WORDS = {"grey": "grey", "gray": "grey", "white": "white", "step": "step", "stay": "stay"}
EXPECTED = "expected e.g. 'to 7', 'grey', 'step', 'trade ruby gold', 'trade blind', 'steal emerald'"


def action_to_text(action: Action) -> str:
    """The canonical text of an action."""
    if isinstance(action, Move):
        return f"to {action.tile}"
    if isinstance(action, Trade):
        return f"trade {KINDS[action.give]} {KINDS[action.take]}"
    if isinstance(action, BlindTrade):
        return "trade blind"
    return f"steal {KINDS[action.take]}"


def action_fields(action: Action) -> tuple[str, JSON]:
    """The kind and named arguments of an action, for clients (``docs/protocol.md``): ``to``
    ``{"tile": 7}``, ``trade`` ``{"give": "ruby", "take": "gold"}`` or ``{"blind": true}``,
    ``steal`` ``{"take": "emerald"}``."""
    if isinstance(action, Move):
        return "to", {"tile": action.tile}
    if isinstance(action, Trade):
        return "trade", {"give": KINDS[action.give], "take": KINDS[action.take]}
    if isinstance(action, BlindTrade):
        return "trade", {"blind": True}
    return "steal", {"take": KINDS[action.take]}


def read_action(state: DwarvesState, text: str) -> Action:
    """The action a text names; InvalidActionError when the text is no action of the game.
    Syntax only: the state names tiles and resolves the route words (``grey``, ``step``...)."""
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
    if state.phase != MOVE:  # no route to follow now: any move gets the same answer from check
        return MOVES[0]
    return next(MOVES[t] for t, ways in routes(state).items() if way in ways)


def why_illegal(state: DwarvesState, action: Action) -> str:
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


# ---------------------------------------------------------------------------- position
ENDINGS = ("pool", "cap")


def position_to_json(state: DwarvesState) -> JSON:
    """The full position as JSON (the pool's order included)."""
    cast = state.lineup
    return {
        "game": "dwarves",
        "players": cast.players,
        "ring": list(state.board.tiles),
        "dwarves": [
            {
                "colour": cast.colours[d],
                "seat": None if cast.seats[d] == EXTRA else cast.seats[d],
                "tile": state.pos[d],
                "chest": stones(state.counts(d)),
            }
            for d in range(cast.size)
        ],
        "hobbit": state.hobbit,
        "dragon": {"tile": state.dragon, "hoard": stones(state.hoard)},
        "pool": [KINDS[k] for k in state.pool],
        "dice": {"grey": FACES[state.grey], "white": FACES[state.white]},
        "round": state.round,
        "start": cast.colours[state.start],
        "turn": None if state.phase == OVER else cast.colours[state.turn],
        "phase": PHASES[state.phase],
        "meet": [cast.colours[d] for d in state.queue],
        "result": None if state.result is None else dump_result(state, state.result),
        "rng": state.rng.to_json(),
    }


def dump_result(state: DwarvesState, result: Result) -> JSON:
    """The result: how the match ended, the tied figures, the race rounds and the winner."""
    return {
        "ended": result.ended,
        "tied": [figure_name(state, f) for f in result.tied],
        "race": [
            [
                {"figure": figure_name(state, f), "roll": FACES[face], "run": run}
                for f, face, run in played
            ]
            for played in result.race
        ],
        "picked": result.picked,
        "winner": figure_name(state, result.winner),
    }


def position_from_json(data: Any) -> DwarvesState:
    """A position from JSON; InvalidPositionError saying which field is wrong."""
    if not isinstance(data, dict):
        raise InvalidPositionError("a position is a JSON object")
    if data.get("game") != "dwarves":
        raise InvalidPositionError("field 'game' must be 'dwarves'")
    players = _number(data, "players", 2, 6)
    ring = board(_ring(data, players))
    state = DwarvesState.empty(ring, lineup(players), Stream.from_json(data.get("rng")))
    _figures(data, state)
    state.grey = _choice(_get(data, "dice", dict), "grey", "dice.", FACES)
    state.white = _choice(data["dice"], "white", "dice.", FACES)
    state.round = _number(data, "round", 1, ROUND_CAP)
    state.start = _player_dwarf(data, "start", state)
    state.phase = _choice(data, "phase", "", PHASES)
    meet = _get(data, "meet", list)
    if state.phase == OVER:
        if data.get("turn") is not None or meet:
            raise InvalidPositionError("a finished position has 'turn': null and 'meet': []")
        state.turn = -1
        state.result = _result(_get(data, "result", dict), state)
        return state
    state.turn = _player_dwarf(data, "turn", state)
    if data.get("result") is not None:
        raise InvalidPositionError("field 'result' must be null while the match runs")
    state.queue = _meet(meet, state)
    if (state.phase == MEET) != bool(state.queue):
        raise InvalidPositionError("field 'meet' is not empty exactly in the 'meet' phase")
    if state.phase == MEET and not can_meet(state, state.turn, state.queue[0]):
        raise InvalidPositionError(
            f"field 'meet': the {meet[0]} dwarf can neither trade nor be robbed"
        )
    return state


def _get(data: Any, key: str, kind: type, where: str = "") -> Any:
    """``data[key]``, checked to be of ``kind`` (a bool is no number here)."""
    if not isinstance(data, dict) or key not in data:
        raise InvalidPositionError(f"field '{where}{key}' is missing")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidPositionError(f"field '{where}{key}' must be a {kind.__name__}")
    return value


def _number(data: Any, key: str, low: int, high: int, where: str = "") -> int:
    value: int = _get(data, key, int, where)
    if not low <= value <= high:
        raise InvalidPositionError(f"field '{where}{key}' must be {low} to {high}, not {value}")
    return value


def _choice(data: Any, key: str, where: str, names: tuple[str, ...]) -> int:
    """The index of ``data[key]`` in ``names`` (die colours, phases, figures...)."""
    return _one_of(data.get(key) if isinstance(data, dict) else None, where + key, names)


def _one_of(value: Any, name: str, names: tuple[str, ...]) -> int:
    if value not in names:
        raise InvalidPositionError(f"field '{name}' must be one of {', '.join(names)}")
    return names.index(value)


def _stones(value: Any, name: str) -> list[int]:
    if not isinstance(value, list):
        raise InvalidPositionError(f"field '{name}' must be a list of stones")
    for i, stone in enumerate(value):
        if stone not in KINDS:
            raise InvalidPositionError(f"field '{name}[{i}]' must be one of {', '.join(KINDS)}")
    return [KINDS.index(stone) for stone in value]


def _ring(data: JSON, players: int) -> tuple[str, ...]:
    tiles = _get(data, "ring", list)
    expected = tile_set(players)
    if not all(isinstance(t, str) for t in tiles) or sorted(tiles) != list(expected):
        raise InvalidPositionError(f"field 'ring' must lay out the tiles {', '.join(expected)}")
    if (i := clash(tiles)) is not None:
        j = (i + 1) % len(tiles)
        raise InvalidPositionError(f"field 'ring': neighbours {i} and {j} have the same colour")
    return tuple(tiles)


def _figures(data: JSON, state: DwarvesState) -> None:
    """Dwarves, hobbit, dragon and pool; together they hold the whole set of stones."""
    cast = state.lineup
    last = state.board.size - 1
    held: Counter[int] = Counter()
    dwarves = _get(data, "dwarves", list)
    if len(dwarves) != cast.size:
        raise InvalidPositionError(f"field 'dwarves' must list {cast.size} dwarves")
    for d, entry in enumerate(dwarves):
        where = f"dwarves[{d}]."
        seat = None if cast.seats[d] == EXTRA else cast.seats[d]
        if _get(entry, "colour", str, where) != cast.colours[d] or entry.get("seat", -1) != seat:
            raise InvalidPositionError(
                f"field 'dwarves[{d}]' must be the {cast.colours[d]} dwarf, seat {seat}"
                " (the dwarves are listed in turn order)"
            )
        state.pos[d] = _number(entry, "tile", 0, last, where)
        for k in _stones(_get(entry, "chest", list, where), f"{where}chest"):
            state.chest[d * NKINDS + k] += 1
            held[k] += 1
    state.hobbit = _number(data, "hobbit", 0, last)
    dragon = _get(data, "dragon", dict)
    state.dragon = _number(dragon, "tile", 0, last, "dragon.")
    for k in _stones(_get(dragon, "hoard", list, "dragon."), "dragon.hoard"):
        state.hoard[k] += 1
        held[k] += 1
    state.pool = _stones(_get(data, "pool", list), "pool")
    held.update(state.pool)
    whole = stone_set(cast.players)
    if [held[k] for k in range(NKINDS)] != list(whole):
        raise InvalidPositionError(
            "chests, hoard and pool must hold the whole set of stones: "
            + ", ".join(f"{n} {KINDS[k]}" for k, n in enumerate(whole))
        )
    if state.hobbit in state.pos or state.hobbit == state.dragon:
        raise InvalidPositionError("field 'hobbit': the hobbit never shares a tile")


def _player_dwarf(data: JSON, key: str, state: DwarvesState) -> int:
    dwarf = state.lineup.index.get(str(data.get(key)))
    if dwarf is None or state.lineup.seats[dwarf] == EXTRA:
        raise InvalidPositionError(f"field '{key}' must be the colour of a player's dwarf")
    return dwarf


def _meet(meet: list[Any], state: DwarvesState) -> list[int]:
    """The dwarves still to meet: the last of those on the mover's tile, in turn order."""
    here = state.pos[state.turn]
    there = [d for d in state.lineup.others[state.turn] if state.pos[d] == here]
    queue = [state.lineup.index.get(str(c), -1) for c in meet]
    if queue and queue != there[len(there) - len(queue) :]:
        names = ", ".join(state.lineup.colours[d] for d in there) or "none"
        raise InvalidPositionError(
            f"field 'meet' must end the dwarves on the mover's tile in turn order ({names})"
        )
    return queue


def _result(value: JSON, state: DwarvesState) -> Result:
    figures = (*state.lineup.colours, "dragon")
    ended = ENDINGS[_choice(value, "ended", "result.", ENDINGS)]
    tied = tuple(
        _one_of(f, f"result.tied[{i}]", figures)
        for i, f in enumerate(_get(value, "tied", list, "result."))
    )
    if tied != leaders(state):
        raise InvalidPositionError("field 'result.tied' must list the best-scoring figures")
    rounds = []
    for n, played in enumerate(_get(value, "race", list, "result.")):
        if not isinstance(played, list) or n >= RACE_CAP:
            raise InvalidPositionError(f"field 'result.race' holds at most {RACE_CAP} lists")
        entries = []
        for i, roll in enumerate(played):
            where = f"result.race[{n}][{i}]."
            entries.append(
                (
                    _choice(roll, "figure", where, figures),
                    _choice(roll, "roll", where, FACES),
                    _number(roll, "run", 0, RACE_CAP * state.board.size, where),
                )
            )
        rounds.append(tuple(entries))
    picked = _get(value, "picked", bool, "result.")
    winner = _choice(value, "winner", "result.", figures)
    if winner not in tied or (len(tied) > 1) != bool(rounds):
        raise InvalidPositionError("field 'result': a tie is raced, and a tied figure wins")
    return Result(ended, tied, tuple(rounds), picked, winner)
