"""The dragon's move at the end of every round, after the last dwarf of the round."""

from __future__ import annotations

from dwarves_table import chest, dice, load, offset_for, position

from ludoteca.games.dwarves import GAME

# In these positions red starts the round, so blue (last in turn order) ends it by staying.


def test_on_doubles_the_dragon_goes_to_the_hobbit_takes_a_pool_stone_and_moves_on() -> None:
    used = offset_for(*dice("green", "green"))
    data = position(
        dwarves={"blue": {"tile": 7}},
        turn="blue",
        rng={"seed": "dwarves-test", "used": used},
    )
    top = data["pool"][-1]
    state = load(data)
    events = GAME.apply_text(state, "stay")
    after = GAME.to_json(state)
    assert after["dragon"] == {"tile": 6, "hoard": [top]}  # from the hobbit's 8, past blue on 7
    assert after["hobbit"] == 8  # the hobbit stays
    assert after["pool"] == data["pool"][:-1]
    moves = [(e.data["from"], e.data["to"]) for e in events if e.kind == "dragon"]
    assert moves == [(0, 8), (8, 6)]
    assert (after["round"], after["turn"]) == (2, "red")


def test_the_dragon_follows_the_grey_die_and_robs_every_dwarf_there() -> None:
    # grey green: from the Portal (0) to tile 4, where red, yellow and green stand; red's chest
    # is empty, yellow loses its only ruby, green one of two (draw 1 = sapphire)
    used = offset_for(*dice("green", "yellow"), (2, 1))
    state = load(
        position(
            dwarves={
                "red": {"tile": 4},
                "yellow": {"tile": 4, "chest": ["ruby"]},
                "green": {"tile": 4, "chest": ["gold", "sapphire"]},
                "blue": {"tile": 9},
            },
            turn="blue",
            rng={"seed": "dwarves-test", "used": used},
        )
    )
    events = GAME.apply_text(state, "stay")
    after = GAME.to_json(state)
    assert chest(state, "yellow") == []
    assert chest(state, "green") == ["gold"]
    assert after["dragon"] == {"tile": 3, "hoard": ["ruby", "sapphire"]}
    bites = [e.data["dwarf"] for e in events if e.kind == "bite"]
    assert bites == ["yellow", "green"]


def test_a_dragon_landing_on_a_free_tile_stays_there() -> None:
    used = offset_for(*dice("purple", "yellow"))
    state = load(position(turn="blue", rng={"seed": "dwarves-test", "used": used}))
    GAME.apply_text(state, "stay")
    assert GAME.to_json(state)["dragon"]["tile"] == 11


def test_the_dragon_on_the_only_tile_of_its_colour_stays_and_robs_there() -> None:
    used = offset_for(*dice("orange", "yellow"))
    state = load(
        position(
            dwarves={"green": {"tile": 5, "chest": ["garnet"]}},
            dragon={"tile": 5, "hoard": []},
            turn="blue",
            rng={"seed": "dwarves-test", "used": used},
        )
    )
    GAME.apply_text(state, "stay")
    after = GAME.to_json(state)
    assert after["dragon"] == {"tile": 4, "hoard": ["garnet"]}  # then on to a free tile
