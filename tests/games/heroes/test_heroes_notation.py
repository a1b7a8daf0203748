"""Action text, the JSON position, observations and sampled worlds."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from heroes_positions import load, play, position

from ludoteca.core import IllegalActionError, InvalidActionError, InvalidPositionError
from ludoteca.games.heroes import GAME
from ludoteca.games.heroes.position import DEFAULT_SEED
from ludoteca.games.heroes.rules import CAMP, PALADIN, ROGUE

# ------------------------------------------------------------------------------ action text


def test_texts_parse_forgivingly_and_format_canonically() -> None:
    state = load(hands={"gold": ["paladin", "rogue"]})
    assert GAME.check(state, "  PLACE   Paladin  B1 ") == ("place", PALADIN, 1)
    assert GAME.check(state, "Draw") == ("draw",)
    assert GAME.action_to_text(state, ("place", ROGUE, 13)) == "place rogue b5"
    assert GAME.action_to_text(state, ("place", ROGUE, CAMP)) == "place rogue camp"
    assert GAME.action_to_text(state, ("strike", 7)) == "strike b3"
    for text in GAME.legal_texts(state):
        assert GAME.action_to_text(state, GAME.check(state, text)) == text


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "empty action: expected 'draw', 'place <role> <room>'"),
        ("place knight b3", "unknown role 'knight': the roles are halfling, bard, ranger"),
        ("place paladin d9", "unknown room 'd9': the rooms are a1..c5"),
        ("place paladin", "expected 'place <role> <room>'"),
        ("strike camp", "a camp is never struck"),
        ("strike", "expected 'strike <room>'"),
        ("draw 2", "'draw' takes nothing after it"),
        ("fly b3", "unknown action 'fly'"),
        ("x" * 300, "..."),
    ],
)
def test_malformed_text_says_what_is_expected(text: str, says: str) -> None:
    state = load(hands={"gold": ["paladin"]})
    with pytest.raises(InvalidActionError) as caught:
        GAME.check(state, text)
    assert says in str(caught.value)
    assert len(str(caught.value)) < 200


def test_illegal_moments_are_explained() -> None:
    state = load(hands={"gold": ["bard"]})
    with pytest.raises(IllegalActionError, match="there is no trick to skip"):
        GAME.check(state, "skip")
    with pytest.raises(IllegalActionError, match="there is no Fighter strike pending"):
        GAME.check(state, "strike b2")


def test_a_strike_on_an_empty_or_own_room_is_explained() -> None:
    rooms = {"a1": ["gold bard"], "c1": ["blue halfling"]}
    state = load(rooms=rooms, hands={"gold": ["fighter"]})
    play(state, "place fighter b1")
    with pytest.raises(IllegalActionError, match="b2 is empty"):
        GAME.check(state, "strike b2")
    with pytest.raises(IllegalActionError, match="a1 is topped by your own hero"):
        GAME.check(state, "strike a1")


# ---------------------------------------------------------------------------- JSON position

EXAMPLE_ROOMS = {"b1": ["gold bard", "gold paladin"], "b2": ["blue halfling"], "c3": ["gold rogue"]}


def test_a_position_round_trips_and_rng_is_optional() -> None:
    data = position(rooms=EXAMPLE_ROOMS, hands={"gold": ["wizard"], "blue": ["cleric"]})
    state = GAME.from_json(data)
    written = GAME.to_json(state)
    assert written["rooms"] == EXAMPLE_ROOMS
    assert written["rng"] == {"seed": DEFAULT_SEED, "used": 0}
    again = GAME.from_json(json.loads(json.dumps(written)))
    assert GAME.to_json(again) == written
    assert GAME.legal_actions(again) == GAME.legal_actions(state)


def test_the_documented_example_loads() -> None:
    doc = Path(__file__).parents[3] / "docs" / "notation" / "heroes.md"
    text = doc.read_text(encoding="utf-8")
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    state = GAME.from_json(json.loads(block))
    assert GAME.to_json(state) == json.loads(block)


def _broken(change: dict[str, Any], **parts: Any) -> str:
    data = position(rooms=EXAMPLE_ROOMS, hands={"gold": ["wizard"]}, **parts)
    data.update(change)
    with pytest.raises(InvalidPositionError) as caught:
        GAME.from_json(data)
    return str(caught.value)


def test_bad_positions_name_the_bad_field() -> None:
    assert "rooms: no room 'd7'" in _broken({"rooms": {"d7": ["gold bard"]}})
    assert "rooms.b1[0]: unknown role 'knight'" in _broken({"rooms": {"b1": ["gold knight"]}})
    assert "rooms.b1[0]: 'red' is not a seat" in _broken({"rooms": {"b1": ["red bard"]}})
    message = _broken({"hands": {"gold": ["wizard", "bard"]}})
    assert "the gold group" in message and "25 heroes" in message
    assert "set_aside.blue: 3 heroes" in _broken({}, set_aside={"blue": ["bard"] * 3})
    assert "hands.gold: 9 heroes" in _broken({"hands": {"gold": ["bard"] * 9}})
    assert "sealed: no ward 'c3'" in _broken({"sealed": {"c3": "gold"}})
    assert "relics.gold: 3" in _broken({"relics": {"gold": 3, "blue": 0}})
    assert "to_move: 'green' is not a seat" in _broken({"to_move": "green"})
    assert "unknown field(s) colour" in _broken({"colour": "gold"})
    assert "rooms.b1: gold paladin cannot stand on blue paladin" in _broken(
        {"rooms": {"b1": ["blue paladin", "gold paladin"]}}
    )
    assert "pending.room: b1 is not topped by the fighter of gold" in _broken(
        {"pending": {"kind": "strike", "room": "b1"}}
    )


def test_a_complete_unsealed_ward_is_not_a_position() -> None:
    heroes = ["gold bard", "gold ranger", "gold fighter", "gold rogue"]
    rooms = {r: [h] for r, h in zip(("a1", "b1", "a2", "b2"), heroes, strict=True)}
    with pytest.raises(InvalidPositionError, match="ward a1 is topped all round by gold"):
        GAME.from_json(position(rooms=rooms, hands={"gold": ["wizard"]}))


def test_a_player_who_cannot_act_is_not_to_move() -> None:
    with pytest.raises(InvalidPositionError, match="gold can neither draw nor place"):
        GAME.from_json(position(hands={"gold": []}, reserves={"gold": []}))


# ------------------------------------------------------------------------------ observation


def test_observations_show_each_seat_what_it_may_see() -> None:
    state = load(rooms=EXAMPLE_ROOMS, hands={"gold": ["wizard", "bard"], "blue": ["cleric"]})
    gold, blue, watcher = (GAME.observation(state, s) for s in (0, 1, None))
    assert gold["hand"] == ["bard", "wizard"] and blue["hand"] == ["cleric"]
    assert watcher["hand"] is None
    assert gold["hand_counts"] == [2, 1]
    assert gold["set_aside"] is None and gold["set_aside_counts"] == [4, 4]
    b1 = gold["rooms"][1]
    assert b1["room"] == "b1"
    assert b1["stack"] == [{"owner": 0, "role": "bard"}, {"owner": 0, "role": "paladin"}]
    assert [r["room"] for r in gold["rooms"] if r["sanctuary"]] == ["a3", "c3"]
    assert gold["wards"][3] == {
        "ward": "b2",
        "rooms": ["b2", "c2", "b3", "c3"],
        "relics": 2,
        "sealed_by": None,
    }
    assert gold["seats"][1] == {"seat": 1, "name": "Blue", "camp": "south"}
    text = json.dumps(watcher)
    assert "wizard" not in text and "cleric" not in text


def test_the_set_aside_heroes_show_once_the_match_is_over() -> None:
    state = load(hands={"gold": ["cleric"], "blue": []}, reserves={"blue": []})
    play(state, "place cleric a1")
    shown = GAME.observation(state, None)["set_aside"]
    assert shown == [GAME.to_json(state)["set_aside"][s] for s in ("gold", "blue")]


def test_the_pending_choice_is_shown_and_the_ranger_options_only_to_its_player() -> None:
    state = load(rooms={"c1": ["blue halfling"]}, hands={"gold": ["fighter", "ranger", "bard"]})
    play(state, "place fighter b1")
    assert GAME.observation(state, 1)["pending"] == {
        "seat": 0,
        "room": "b1",
        "kind": "strike",
        "rooms": ["c1"],
    }
    play(state, "skip")
    play(state, "draw")
    play(state, "place ranger a1")
    mine, theirs = GAME.observation(state, 0)["pending"], GAME.observation(state, 1)["pending"]
    assert theirs == {"seat": 0, "room": "a1", "kind": "ranger"}
    assert mine["options"] == GAME.legal_texts(state)


def test_events_are_json_and_the_placed_event_names_the_covered_hero() -> None:
    state = load(rooms={"b1": ["blue bard"]}, hands={"gold": ["fighter"]})
    events = GAME.apply_text(state, "place fighter b1")
    assert events[0].for_seat(None) == {
        "kind": "placed",
        "seat": 0,
        "role": "fighter",
        "room": "b1",
        "covered": {"owner": 1, "role": "bard"},
    }
    json.dumps([e.for_seat(s) for e in events for s in (0, 1, None)])


# ---------------------------------------------------------------------------- sampled worlds


def test_a_sampled_world_keeps_what_the_seat_knows_and_redeals_the_rest() -> None:
    state = GAME.new(None, "sample")
    pick = random.Random(5)
    for _ in range(12):
        GAME.apply(state, pick.choice(GAME.legal_actions(state)))
    seat = 0
    world = GAME.sample_world(state, seat, random.Random(1))
    real, seen = GAME.to_json(state), GAME.to_json(world)
    for key in ("rooms", "discards", "relics", "sealed", "to_move", "pending"):
        assert seen[key] == real[key]
    assert seen["hands"]["gold"] == real["hands"]["gold"]
    assert len(seen["hands"]["blue"]) == len(real["hands"]["blue"])
    for name in ("gold", "blue"):
        assert len(seen["reserves"][name]) == len(real["reserves"][name])
        unseen_real = real["reserves"][name] + real["set_aside"][name]
        unseen_world = seen["reserves"][name] + seen["set_aside"][name]
        if name == "blue":
            unseen_real += real["hands"]["blue"]
            unseen_world += seen["hands"]["blue"]
        assert sorted(unseen_real) == sorted(unseen_world)
    assert world.rng.seed != state.rng.seed
    worlds = {
        json.dumps(GAME.to_json(GAME.sample_world(state, seat, random.Random(k)))) for k in range(5)
    }
    assert len(worlds) > 1


def test_a_sampled_world_ignores_the_hidden_parts() -> None:
    a = load(
        hands={"gold": ["bard"], "blue": ["paladin", "rogue"]},
        reserves={"blue": ["cleric", "halfling"]},
    )
    b = load(
        hands={"gold": ["bard"], "blue": ["cleric", "halfling"]},
        reserves={"blue": ["rogue", "paladin"]},
    )
    wa = GAME.sample_world(a, 0, random.Random(9))
    wb = GAME.sample_world(b, 0, random.Random(9))
    assert GAME.to_json(wa) == GAME.to_json(wb)


def test_the_terminal_picture_shows_the_board_and_only_the_seats_own_hand() -> None:
    rooms = {"b1": ["gold bard", "gold paladin"], "c3": ["blue rogue"]}
    state = load(rooms=rooms, hands={"gold": ["wizard"], "blue": ["cleric"]})
    gold = GAME.describe(state, 0)
    lines = gold.splitlines()
    assert lines[1].split() == ["1", ".", "G", "paladin", "+1", "."]
    assert lines[3].split() == ["3", "*.", ".", "*B", "rogue"]
    assert "your hand: wizard" in gold and "cleric" not in gold
    assert "your hand" not in GAME.describe(state, None)
