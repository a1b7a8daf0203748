"""A dwarf's move: the four choices, doubles, and what the tile it ends on does."""

from __future__ import annotations

import itertools

from dwarves_table import chest, dice, load, offset_for, position

from ludoteca.games.dwarves import GAME
from ludoteca.games.dwarves.choices import routes
from ludoteca.games.dwarves.fortress import FACES


def test_next_tile_of_a_colour_skips_the_own_tile() -> None:
    # red stands on yellow tile 1; the other yellow tile is 6
    state = load(
        position(
            dwarves={"red": {"tile": 1}, "yellow": {"tile": 5}},
            dice={"grey": "yellow", "white": "blue"},
        )
    )
    assert GAME.legal_texts(state) == ["to 6", "to 3", "to 2", "to 1"]
    assert routes(state) == {6: ["grey"], 3: ["white"], 2: ["step"], 1: ["stay"]}


def test_the_only_tile_of_a_colour_means_staying() -> None:
    # tile 5 is the only orange tile
    state = load(
        position(
            dwarves={"red": {"tile": 5}, "green": {"tile": 10}},
            dice={"grey": "orange", "white": "purple"},
        )
    )
    assert routes(state) == {5: ["grey", "stay"], 11: ["white"], 6: ["step"]}
    assert GAME.legal_texts(state) == ["to 5", "to 11", "to 6"]


def test_moves_to_the_same_tile_are_listed_once_in_order_grey_white_step_stay() -> None:
    state = load(position(dwarves={"red": {"tile": 3}}, dice={"grey": "green", "white": "red"}))
    assert routes(state) == {4: ["grey", "step"], 7: ["white"], 3: ["stay"]}
    assert GAME.legal_texts(state) == ["to 4", "to 7", "to 3"]


def test_grey_tiles_are_reached_only_by_a_step() -> None:
    # the Secret Passage is tile 8; from 7 it is one step, from 6 no die colour reaches it
    for grey, white in itertools.permutations(FACES, 2):
        near = load(position(dwarves={"red": {"tile": 7}}, dice={"grey": grey, "white": white}))
        far = load(position(dwarves={"red": {"tile": 6}}, dice={"grey": grey, "white": white}))
        assert routes(near)[8] == ["step"]
        assert 8 not in routes(far)
        assert 0 not in routes(far)  # nor the Portal


def test_doubles_reach_every_tile_grey_included() -> None:
    state = load(position(dwarves={"red": {"tile": 3}}, dice={"grey": "blue", "white": "blue"}))
    assert GAME.legal_texts(state) == [f"to {t}" for t in (*range(4, 12), 0, 1, 2, 3)]
    assert routes(state)[9] == ["grey", "white", "doubles"]
    assert routes(state)[0] == ["doubles"]
    GAME.apply_text(state, "to portal")
    assert GAME.to_json(state)["dwarves"][0]["tile"] == 0


def test_the_hobbit_gives_the_top_stone_and_moves_counter_clockwise_to_a_free_tile() -> None:
    # red comes from 6 by doubles; yellow stands on 7, the dragon on 6
    data = position(
        dwarves={"red": {"tile": 6}, "yellow": {"tile": 7}},
        dragon={"tile": 6, "hoard": []},
        dice={"grey": "red", "white": "red"},
    )
    top = data["pool"][-1]
    state = load(data)
    events = GAME.apply_text(state, "to 8")
    after = GAME.to_json(state)
    assert chest(state, "red") == [top]
    assert after["pool"] == data["pool"][:-1]
    assert after["hobbit"] == 5  # 7 holds a dwarf, 6 the dragon
    shown = [e.for_seat(None) for e in events]
    assert {"kind": "gift", "dwarf": "red", "stone": top} in shown
    assert {"kind": "hobbit", "from": 8, "to": 5} in shown


def test_with_an_empty_pool_the_hobbit_gives_nothing_but_still_moves() -> None:
    data = position(
        dwarves={"red": {"tile": 7, "chest": ["gold"]}},
        dragon={"tile": 0, "hoard": []},
        round=5,
    )
    data["dragon"]["hoard"] = data["pool"]
    data["pool"] = []
    state = load(data)
    GAME.apply_text(state, "step")
    assert chest(state, "red") == ["gold"]
    assert GAME.to_json(state)["hobbit"] == 7


def test_a_dwarf_landing_on_the_dragon_loses_a_random_stone() -> None:
    # red holds gold, ruby, ruby: a draw of 0 of 3 takes the gold, 1 or 2 a ruby
    for draw, lost in ((0, "gold"), (1, "ruby"), (2, "ruby")):
        state = load(
            position(
                dwarves={"red": {"tile": 3, "chest": ["gold", "ruby", "ruby"]}},
                dragon={"tile": 4, "hoard": []},
                dice={"grey": "yellow", "white": "red"},
                rng={"seed": "dwarves-test", "used": offset_for((3, draw))},
            )
        )
        events = GAME.apply_text(state, "step")
        assert GAME.to_json(state)["dragon"]["hoard"] == [lost]
        assert len(chest(state, "red")) == 2
        assert events[1].for_seat(None) == {"kind": "bite", "dwarf": "red", "stone": lost}


def test_staying_resolves_the_tile_again() -> None:
    state = load(
        position(
            dwarves={
                "red": {"tile": 4, "chest": ["gold"]},
                "green": {"tile": 4, "chest": ["ruby"]},
            },
            dice={"grey": "yellow", "white": "red"},
        )
    )
    GAME.apply_text(state, "stay")
    assert GAME.to_json(state)["phase"] == "meet"
    assert GAME.legal_texts(state) == ["trade gold ruby"]


def test_the_dragon_bites_before_the_dwarves_met_trade() -> None:
    state = load(
        position(
            dwarves={
                "red": {"tile": 3, "chest": ["gold"]},
                "green": {"tile": 4, "chest": ["ruby"]},
            },
            dragon={"tile": 4, "hoard": []},
            dice={"grey": "yellow", "white": "red"},
        )
    )
    GAME.apply_text(state, "to 4")
    # red lost its only stone first: nothing left to trade, and green has too few to be robbed
    assert chest(state, "red") == []
    assert chest(state, "green") == ["ruby"]
    assert GAME.to_json(state)["dragon"]["hoard"] == ["gold"]
    assert GAME.to_json(state)["turn"] == "yellow"


def test_the_turn_passes_in_turn_order_with_fresh_dice() -> None:
    used = offset_for(*dice("purple", "green"))
    state = load(position(rng={"seed": "dwarves-test", "used": used}))
    events = GAME.apply_text(state, "stay")
    after = GAME.to_json(state)
    assert (after["turn"], GAME.to_move(state)) == ("yellow", 1)
    assert after["dice"] == {"grey": "purple", "white": "green"}
    assert events[-1].for_seat(None) == {
        "kind": "roll",
        "figure": "yellow",
        "grey": "purple",
        "white": "green",
    }
