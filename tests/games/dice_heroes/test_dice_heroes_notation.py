"""Action text, legal actions, the JSON position, the observation and sampled worlds."""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest
from dice_heroes_helpers import GAME, load, position, seat

from ludoteca.core import IllegalActionError, InvalidActionError, InvalidPositionError

FIVE_DICE = position(
    seats=[seat(troop=(3, 1, 0), tableau=(0, 2, 3)), seat()],
    dice=("white:coin", "white:sword1", "white:coin", "yellow:x", "yellow:coin"),
)


def _five() -> Any:
    return load(FIVE_DICE)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("stop", ()),
        ("  STOP ", ()),
        ("reroll 1 3 5", (1, 3, 5)),
        ("Reroll 5, 1 ,3", (1, 3, 5)),
        ("re-roll 3;1", (1, 3)),
        ("reroll 2", (2,)),
        ("reroll all", (1, 2, 3, 5)),
        ("REROLL ALL", (1, 2, 3, 5)),
    ],
)
def test_parse_is_forgiving_and_gives_the_canonical_action(text: str, action: Any) -> None:
    state = _five()
    assert GAME.check(state, text) == action
    canonical = GAME.action_to_text(state, action)
    assert canonical == ("stop" if not action else "reroll " + " ".join(map(str, action)))
    assert GAME.check(state, canonical) == action


@pytest.mark.parametrize(
    ("text", "error", "says"),
    [
        ("", InvalidActionError, "empty"),
        ("reroll", InvalidActionError, "which dice"),
        ("reroll ,", InvalidActionError, "which dice"),
        ("reroll 1 1", InvalidActionError, "twice"),
        ("reroll 3 1 3", InvalidActionError, "twice"),
        ("reroll 0", InvalidActionError, "from 1"),
        ("reroll -1", InvalidActionError, "not a die number"),
        ("reroll one", InvalidActionError, "not a die number"),
        ("reroll all 1", InvalidActionError, "not a die number"),
        ("stop 1", InvalidActionError, "nothing after"),
        ("keep 1", InvalidActionError, "unknown action"),
        ("reroll 6", IllegalActionError, "no die 6"),
        ("reroll 9999999", IllegalActionError, "no die"),
        ("reroll " + "9" * 5000 + " x", InvalidActionError, "not a die number"),
        ("reroll 4", IllegalActionError, "locked"),
        ("reroll 2 4", IllegalActionError, "locked"),
    ],
)
def test_bad_action_texts_raise_clear_errors(text: str, error: type[Exception], says: str) -> None:
    state = _five()
    before = GAME.to_json(state)
    with pytest.raises(error, match=says):
        GAME.apply_text(state, text)
    assert GAME.to_json(state) == before


def test_legal_actions_are_stop_then_every_set_of_unlocked_dice_by_size() -> None:
    state = _five()
    actions = GAME.legal_actions(state)
    assert actions[0] == ()
    rest = actions[1:]
    assert rest == sorted(rest, key=lambda a: (len(a), a))
    assert len(rest) == 2**4 - 1 and len(set(rest)) == len(rest)
    assert set().union(*map(set, rest)) == {1, 2, 3, 5}
    assert (4,) not in actions  # die 4 is locked


def test_no_actions_once_the_match_is_over() -> None:
    data = position(
        players=3,
        posters=[],
        seats=[
            seat(posters=(5, 10, 10)),
            seat(posters=(10, 10)),
            seat(posters=(10, 15)),
        ],
        to_move=None,
        roll=0,
        dice=(),
    )
    state = GAME.from_json(data)
    assert GAME.legal_actions(state) == [] and GAME.to_move(state) is None
    with pytest.raises(IllegalActionError):
        GAME.check(state, "stop")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0, 2) and outcome.scores == (25, 20, 25)


def test_positions_round_trip_through_json() -> None:
    data = copy.deepcopy(FIVE_DICE)
    state = GAME.from_json(json.loads(json.dumps(data)))
    assert GAME.to_json(state) == data


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(FIVE_DICE)
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.pop("seats"), "seats"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d.update(game="chess"), "game"),
        (lambda d: d.update(players=5), "players"),
        (lambda d: d.update(rng={"seed": 3}), "rng.seed"),
        (lambda d: d.update(posters=[15, 10]), "posters"),
        (lambda d: d.update(posters=[15]), "seats[].posters"),
        (lambda d: d["seats"][0]["troop"].update(white=4), "seats[0].troop.white"),
        (lambda d: d["seats"][1]["tableau"].update(red=2), "seats[1]"),
        (lambda d: d["seats"][1].update(coins=-1), "seats[1].coins"),
        (lambda d: d["seats"][0]["troop"].pop("red"), "seats[0].troop.red"),
        (lambda d: d["dice"][0].update(face="x"), "dice[0].face"),
        (lambda d: d["dice"][1].update(colour="blue"), "dice[1].colour"),
        (lambda d: d["dice"].reverse(), "dice"),
        (lambda d: d["dice"].pop(), "dice"),
        (lambda d: d.update(roll=3), "roll"),
        (lambda d: d.update(to_move=2), "to_move"),
        (lambda d: d.update(to_move=None), "to_move"),
        (lambda d: d.update(marker=True), "holder"),
        (lambda d: d.update(laid=[{"colour": "white", "face": "coin"}]), "holder"),
    ],
)
def test_invalid_positions_name_the_field(change: Any, field: str) -> None:
    with pytest.raises(InvalidPositionError, match="^" + re.escape(field) + "[: ]"):
        GAME.from_json(_broken(change))


@pytest.mark.parametrize(
    ("laid", "marker", "players", "field"),
    [
        (("white:coin",), False, 2, "laid[0].face"),
        ((), False, 2, "laid"),
        (("white:sword1",), True, 3, "marker"),
    ],
)
def test_invalid_posters_name_the_field(
    laid: tuple[str, ...], marker: bool, players: int, field: str
) -> None:
    seats = [seat() for _ in range(players)]
    seats[1] = seat(troop=(3 - len(laid), 0, 0))
    data = position(players=players, seats=seats, holder=1, laid=laid, marker=marker)
    with pytest.raises(InvalidPositionError, match="^" + re.escape(field) + "[: ]"):
        GAME.from_json(data)


def test_the_seat_to_move_cannot_still_hold_the_posters() -> None:
    data = position(seats=[seat(troop=(2, 0, 0)), seat()], holder=0, laid=("white:sword1",))
    data["dice"] = data["dice"][:2]
    with pytest.raises(InvalidPositionError, match=r"^holder"):
        GAME.from_json(data)


def test_observation_shows_the_whole_table_to_everyone() -> None:
    data = position(
        players=3,
        posters=[10, 10, 10, 10, 15],
        seats=[
            seat(troop=(3, 1, 0), tableau=(0, 2, 3), coins=4),
            seat(coins=2, posters=(5,)),
            seat(troop=(1, 0, 0), posters=(10,)),
        ],
        holder=2,
        laid=("white:sword2", "white:sword3"),
        roll=2,
        dice=("white:coin", "white:sword1", "white:coin", "yellow:x", "yellow:coin"),
    )
    state = GAME.from_json(data)
    views = [GAME.observation(state, s) for s in (None, 0, 1, 2)]
    assert all(v == views[0] for v in views)
    view = views[0]
    assert view["posters_left"] == [10, 10, 10, 10, 15]
    assert view["holder"] == 2 and view["laid_swords"] == 5
    assert [s["score"] for s in view["seats"]] == [4, 7, 10]
    assert view["seats"][2]["at_posters"] == {"white": 2, "yellow": 0, "red": 0}
    turn = view["turn"]
    assert (turn["seat"], turn["roll"], turn["rolls_left"]) == (0, 2, 1)
    assert (turn["swords"], turn["to_beat"], turn["would_lay"]) == (1, 5, False)
    assert [d["locked"] for d in turn["dice"]] == [False, False, False, True, False]
    json.dumps(GAME.observation(state, 0))


def test_sampled_worlds_keep_the_table_and_draw_fresh_dice() -> None:
    state = _five()
    world = GAME.sample_world(state, 0, random.Random(5))
    again = GAME.sample_world(state, 0, random.Random(5))
    assert world.rng.seed != state.rng.seed and world.rng.used == 0
    assert GAME.to_json(world) == GAME.to_json(again)
    shown, real = GAME.to_json(world), GAME.to_json(state)
    shown.pop("rng")
    real.pop("rng")
    assert shown == real
