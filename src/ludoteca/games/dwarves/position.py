"""The JSON position (``docs/notation/dwarves.md``): written by ``dump``, read and checked by
``load``, which names the first field that is wrong."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ludoteca.core import JSON, InvalidPositionError, Stream

from .board import FACES, board, clash, tile_set
from .lineup import EXTRA, lineup
from .play import can_meet, figure_name
from .scoring import leaders
from .state import MEET, OVER, PHASES, RACE_CAP, ROUND_CAP, DwarvesState, Result
from .stones import KINDS, NKINDS, stone_set, stones

ENDINGS = ("pool", "cap")


def dump(state: DwarvesState) -> JSON:
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


def load(data: Any) -> DwarvesState:
    """A position from JSON; InvalidPositionError saying which field is wrong."""
    if not isinstance(data, dict):
        raise InvalidPositionError("a position is a JSON object")
    if data.get("game") != "dwarves":
        raise InvalidPositionError("field 'game' must be 'dwarves'")
    players = _number(data, "players", 2, 6)
    ring = board(_ring(data, players))
    state = DwarvesState(ring, lineup(players), Stream.from_json(data.get("rng")))
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
