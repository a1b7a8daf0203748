"""Action text, the JSON position, the observation and sampled worlds."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from dwarves_table import load, position

from ludoteca.core import IllegalActionError, InvalidActionError, InvalidPositionError
from ludoteca.games.dwarves import GAME
from ludoteca.games.dwarves.actions import BLIND, MOVES, STEALS, TRADES

MOVING = {
    "dwarves": {"red": {"tile": 3, "chest": ["gold"]}},
    "dice": {"grey": "green", "white": "red"},
}
MEETING = {
    "dwarves": {
        "red": {"tile": 4, "chest": ["gold", "ruby"]},
        "green": {"tile": 4, "chest": ["gold", "gold", "sapphire", "emerald"]},
    },
    "phase": "meet",
    "meet": ["green"],
}


def test_canonical_texts_round_trip() -> None:
    state = load(position(**MOVING))
    assert [GAME.action_to_text(state, a) for a in (MOVES[7], TRADES[1][0], BLIND, STEALS[3])] == [
        "to 7",
        "trade ruby gold",
        "trade blind",
        "steal emerald",
    ]


@pytest.mark.parametrize(
    ("text", "tile"),
    [
        ("to 4", 4),
        ("  TO   7 ", 7),
        ("grey", 4),
        ("Gray", 4),
        ("white", 7),
        ("step", 4),
        ("stay", 3),
    ],
)
def test_moves_parse_forgivingly_by_tile_or_by_way(text: str, tile: int) -> None:
    state = load(position(**MOVING))
    assert GAME.check(state, text) == MOVES[tile]


def test_doubles_take_tile_names() -> None:
    state = load(position(dwarves={"red": {"tile": 3}}, dice={"grey": "blue", "white": "blue"}))
    assert GAME.check(state, "to Portal") == MOVES[0]
    assert GAME.check(state, "to secret passage") == MOVES[8]
    assert GAME.check(state, "to passage") == MOVES[8]
    assert GAME.check(state, "to yellow 2") == MOVES[6]
    assert GAME.check(state, "to orange") == MOVES[5]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("trade ruby gold", TRADES[1][0]),
        ("Trade, RUBY, gold", TRADES[1][0]),
        ("trade red yellow", TRADES[1][0]),
        ("steal sapphire", STEALS[2]),
        ("steal blue", STEALS[2]),
    ],
)
def test_meeting_texts_take_kinds_or_their_colours(text: str, action: object) -> None:
    state = load(position(**MEETING))
    assert GAME.check(state, text) == action


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("fly", "not an action"),
        ("to 12", "no tile"),
        ("to 99999", "no tile"),
        ("to nowhere", "no tile"),
        ("trade ruby", "not an action"),
        ("steal", "not an action"),
        ("trade rock gold", "no stone"),
        ("to ²", "no tile"),
    ],
)
def test_malformed_texts_are_invalid(text: str, reason: str) -> None:
    state = load(position(**MOVING))
    with pytest.raises(InvalidActionError, match=reason):
        GAME.check(state, text)


@pytest.mark.parametrize(
    ("fields", "text", "reason"),
    [
        (
            MOVING,
            "to 9",
            r"cannot reach tile 9 \(it may go to 4 by grey/step; 7 by white; 3 by stay\)",
        ),
        (MOVING, "trade gold ruby", "moves first"),
        (MEETING, "to 5", "has moved: now it trades or steals with the green dwarf"),
        (MEETING, "stay", "has moved"),
        (MEETING, "trade sapphire gold", "the red dwarf has no sapphire to give"),
        (MEETING, "trade gold garnet", "the green dwarf has no garnet"),
        (MEETING, "trade blind", "only a trade with an extra dwarf is blind"),
        (MEETING, "steal garnet", "the green dwarf has no garnet"),
    ],
)
def test_illegal_actions_say_why(fields: dict[str, Any], text: str, reason: str) -> None:
    state = load(position(**fields))
    before = GAME.to_json(state)
    with pytest.raises(IllegalActionError, match=reason):
        GAME.apply_text(state, text)
    assert GAME.to_json(state) == before


def test_positions_round_trip_through_json() -> None:
    for players in (2, 3, 4, 5, 6):
        state = GAME.new({"players": players}, f"json-{players}")
        data = json.loads(json.dumps(GAME.to_json(state)))
        assert GAME.to_json(GAME.from_json(data)) == data


def broken(path: str, value: Any) -> dict[str, Any]:
    data = position(**MEETING)
    *parents, last = path.split(".")
    target: Any = data
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    if value is KeyError:
        del target[last]
    else:
        target[int(last) if last.isdigit() else last] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("game", "chess", "'game'"),
        ("players", 7, "'players' must be 2 to 6"),
        ("players", True, "'players' must be a int"),
        ("ring.1", "red", "'ring' must lay out"),
        (
            "ring",
            ["portal", "passage", *position()["ring"][1:8], *position()["ring"][9:]],
            "neighbours 0 and 1",
        ),
        ("dwarves.0.colour", "blue", "'dwarves\\[0\\]' must be the red dwarf"),
        ("dwarves.1.tile", 12, "'dwarves\\[1\\].tile' must be 0 to 11"),
        ("dwarves.1.chest", ["gold", "coal"], "'dwarves\\[1\\].chest\\[1\\]'"),
        ("pool", [], "the whole set of stones"),
        ("hobbit", 4, "never shares a tile"),
        ("dragon.hoard", KeyError, "'dragon.hoard' is missing"),
        ("dice.white", "grey", "'dice.white'"),
        ("turn", "blue", "meet"),
        ("meet", ["yellow"], "'meet' must end the dwarves on the mover's tile"),
        ("phase", "move", "'meet' is not empty exactly"),
        ("round", 0, "'round'"),
        ("start", "pink", "'start'"),
        ("rng", {"seed": 5}, "rng.seed"),
        ("result", {"winner": "red"}, "'result' must be null"),
    ],
)
def test_bad_positions_name_the_wrong_field(path: str, value: Any, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        GAME.from_json(broken(path, value))


def test_a_meeting_with_nothing_to_choose_is_refused() -> None:
    nothing = {"red": {"tile": 4, "chest": ["gold"]}, "green": {"tile": 4, "chest": []}}
    with pytest.raises(InvalidPositionError, match="neither trade nor be robbed"):
        GAME.from_json(position(**{**MEETING, "dwarves": nothing}))


def test_the_observation_shows_everything_public_and_the_pool_as_a_count() -> None:
    state = load(position(**MEETING))
    seen = GAME.observation(state, 0)
    assert seen == GAME.observation(state, None) == GAME.observation(state, 3)
    assert seen["pool"] == len(GAME.to_json(state)["pool"])
    assert seen["ring"][8] == {
        "tile": 8,
        "kind": "passage",
        "colour": "grey",
        "name": "secret passage",
    }
    assert seen["dwarves"][2] == {
        "colour": "green",
        "seat": 2,
        "extra": False,
        "tile": 4,
        "chest": ["gold", "gold", "sapphire", "emerald"],
        "score": [2, 4, 1, 1, 0, 0],
    }
    assert seen["dragon"] == {"tile": 0, "hoard": [], "score": [0, 0, 0, 0, 0, 0]}
    assert (seen["hobbit"], seen["round"], seen["turn"], seen["phase"]) == (8, 1, "red", "meet")
    assert seen["pending"]["with"] == "green"
    assert {"text": "steal emerald", "kind": "steal", "take": "emerald"} in seen["pending"][
        "options"
    ]
    assert {"text": "trade ruby gold", "kind": "trade", "give": "ruby", "take": "gold"} in seen[
        "pending"
    ]["options"]
    moving = GAME.observation(load(position(**MOVING)), 1)["pending"]
    assert moving == {
        "choice": "move",
        "dwarf": "red",
        "moves": [
            {"tile": 4, "text": "to 4", "ways": ["grey", "step"]},
            {"tile": 7, "text": "to 7", "ways": ["white"]},
            {"tile": 3, "text": "to 3", "ways": ["stay"]},
        ],
    }


def test_the_pool_order_is_hidden_and_resampled() -> None:
    data = position(**MOVING)
    shuffled = copy.deepcopy(data)
    random.Random(5).shuffle(shuffled["pool"])
    a, b = load(data), load(shuffled)
    assert GAME.observation(a, 1) == GAME.observation(b, 1)
    world = GAME.sample_world(a, 1, random.Random(7))
    assert sorted(world.pool) == sorted(a.pool)
    assert world.rng.seed != a.rng.seed
    assert GAME.to_json(world) == GAME.to_json(GAME.sample_world(b, 1, random.Random(7)))
    worlds = {tuple(GAME.sample_world(a, 1, random.Random(s)).pool) for s in range(5)}
    assert len(worlds) == 5
