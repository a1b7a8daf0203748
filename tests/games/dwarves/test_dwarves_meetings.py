"""Meeting other dwarves: trades, steals and their limit, and the extra dwarves of small tables."""

from __future__ import annotations

import pytest
from dwarves_table import chest, dice, load, offset_for, position

from ludoteca.core import IllegalActionError
from ludoteca.games.dwarves import GAME


def test_the_mover_trades_with_every_dwarf_met_in_turn_order_after_it() -> None:
    # green (third in turn order) lands on tile 6 where red and blue stand: blue comes first
    data = position(
        dwarves={
            "red": {"tile": 6, "chest": ["ruby", "sapphire"]},
            "green": {"tile": 4, "chest": ["gold", "gold"]},
            "blue": {"tile": 6, "chest": ["garnet"]},
        },
        dice={"grey": "yellow", "white": "red"},
        turn="green",
    )
    state = load(data)
    GAME.apply_text(state, "to 6")
    assert GAME.observation(state, None)["pending"]["with"] == "blue"
    assert GAME.observation(state, None)["pending"]["then"] == ["red"]
    assert GAME.legal_texts(state) == ["trade gold garnet"]
    events = GAME.apply_text(state, "trade gold garnet")
    assert events[0].for_seat(None) == {
        "kind": "trade",
        "dwarf": "green",
        "with": "blue",
        "give": "gold",
        "take": "garnet",
        "blind": False,
    }
    assert GAME.legal_texts(state) == [
        "trade gold ruby",
        "trade gold sapphire",
        "trade garnet ruby",
        "trade garnet sapphire",
    ]
    GAME.apply_text(state, "trade garnet sapphire")
    assert chest(state, "green") == ["gold", "sapphire"]
    assert chest(state, "red") == ["ruby", "garnet"]
    assert chest(state, "blue") == ["gold"]
    assert GAME.to_json(state)["turn"] == "blue"


def test_a_trade_may_swap_stones_of_the_same_kind() -> None:
    state = load(
        position(
            dwarves={"red": {"tile": 3, "chest": ["gold"]}, "blue": {"chest": ["gold"]}},
            dice={"grey": "yellow", "white": "red"},
        )
    )
    GAME.apply_text(state, "stay")
    assert GAME.legal_texts(state) == ["trade gold gold"]


def test_a_steal_needs_the_other_to_have_two_stones_more() -> None:
    met = {"tile": 4, "chest": ["gold", "gold", "ruby"]}
    allowed = load(
        position(
            dwarves={"red": {"tile": 3, "chest": ["sapphire"]}, "green": met},
            dice={"grey": "yellow", "white": "red"},
        )
    )
    GAME.apply_text(allowed, "step")
    assert "steal gold" in GAME.legal_texts(allowed)
    GAME.apply_text(allowed, "steal ruby")
    assert chest(allowed, "red") == ["ruby", "sapphire"]
    assert chest(allowed, "green") == ["gold", "gold"]  # afterwards no more than the victim

    refused = load(
        position(
            dwarves={"red": {"tile": 3, "chest": ["sapphire", "emerald"]}, "green": met},
            dice={"grey": "yellow", "white": "red"},
        )
    )
    GAME.apply_text(refused, "step")
    assert not [t for t in GAME.legal_texts(refused) if t.startswith("steal")]
    with pytest.raises(IllegalActionError, match="at least 2 stones more"):
        GAME.apply_text(refused, "steal gold")


def test_with_no_trade_and_no_steal_possible_nothing_is_asked() -> None:
    state = load(
        position(
            dwarves={"red": {"tile": 3}, "green": {"tile": 4, "chest": ["gold"]}},
            dice={"grey": "yellow", "white": "red"},
        )
    )
    GAME.apply_text(state, "step")
    assert GAME.to_json(state)["turn"] == "yellow"
    assert chest(state, "green") == ["gold"]


def test_an_empty_handed_dwarf_can_only_steal() -> None:
    state = load(
        position(
            dwarves={"red": {"tile": 3}, "green": {"tile": 4, "chest": ["gold", "ruby"]}},
            dice={"grey": "yellow", "white": "red"},
        )
    )
    GAME.apply_text(state, "step")
    assert GAME.legal_texts(state) == ["steal gold", "steal ruby"]


# Two players: turn order red (seat 0), green (extra), yellow (seat 1), blue (extra).


def test_an_extra_dwarf_with_doubles_goes_to_the_hobbit() -> None:
    used = offset_for(*dice("blue", "blue"))
    state = load(
        position(2, dwarves={"green": {"tile": 10}}, rng={"seed": "dwarves-test", "used": used})
    )
    GAME.apply_text(state, "stay")  # red; then the extra green dwarf rolls doubles
    after = GAME.to_json(state)
    assert after["dwarves"][1]["tile"] == 8
    assert after["dwarves"][1]["chest"] == ["diamond"]  # the hobbit's gift, top of the pool
    assert after["turn"] == "yellow"


def test_an_extra_dwarf_steps_to_the_hobbit_when_it_is_next() -> None:
    used = offset_for(*dice("blue", "green"))
    state = load(
        position(2, dwarves={"green": {"tile": 7}}, rng={"seed": "dwarves-test", "used": used})
    )
    GAME.apply_text(state, "stay")
    assert GAME.to_json(state)["dwarves"][1]["tile"] == 8


def test_an_extra_dwarf_otherwise_follows_the_white_die() -> None:
    used = offset_for(*dice("blue", "green"))
    state = load(
        position(2, dwarves={"green": {"tile": 1}}, rng={"seed": "dwarves-test", "used": used})
    )
    GAME.apply_text(state, "stay")
    assert GAME.to_json(state)["dwarves"][1]["tile"] == 4  # next green; the grey die is ignored


def test_an_extra_dwarf_trades_blind_with_players_but_not_with_extra_dwarves() -> None:
    # After red stays, green (extra) follows white=yellow from 4 to 6, where yellow (a player's)
    # and blue (extra) stand. Draws: the dice, then one of green's 2 stones (1 = ruby), then one
    # of yellow's 3 (0 = gold).
    used = offset_for(*dice("blue", "yellow"), (2, 1), (3, 0))
    data = position(
        2,
        dwarves={
            "green": {"tile": 4, "chest": ["gold", "ruby"]},
            "yellow": {"tile": 6, "chest": ["gold", "sapphire", "sapphire"]},
            "blue": {"tile": 6, "chest": ["emerald"]},
        },
        rng={"seed": "dwarves-test", "used": used},
    )
    state = load(data)
    events = GAME.apply_text(state, "stay")
    trades = [e.for_seat(None) for e in events if e.kind == "trade"]
    assert trades == [
        {
            "kind": "trade",
            "dwarf": "green",
            "with": "yellow",
            "give": "ruby",
            "take": "gold",
            "blind": True,
        }
    ]
    assert chest(state, "green") == ["gold", "gold"]
    assert chest(state, "yellow") == ["ruby", "sapphire", "sapphire"]
    assert chest(state, "blue") == ["emerald"]


def test_an_extra_dwarf_never_steals() -> None:
    used = offset_for(*dice("blue", "yellow"))
    state = load(
        position(
            2,
            dwarves={"green": {"tile": 4}, "yellow": {"tile": 6, "chest": ["gold"] * 4}},
            rng={"seed": "dwarves-test", "used": used},
        )
    )
    events = GAME.apply_text(state, "stay")
    assert GAME.to_json(state)["dwarves"][1]["tile"] == 6
    assert not [e for e in events if e.kind in ("trade", "steal")]
    assert chest(state, "yellow") == ["gold"] * 4


def test_a_player_trades_blind_with_an_extra_dwarf_or_steals_the_stone_it_picks() -> None:
    state = load(
        position(
            2,
            dwarves={
                "red": {"tile": 3, "chest": ["sapphire"]},
                "green": {"tile": 4, "chest": ["gold", "gold", "ruby"]},
            },
            dice={"grey": "yellow", "white": "red"},
        )
    )
    GAME.apply_text(state, "step")
    assert GAME.legal_texts(state) == ["trade blind", "steal gold", "steal ruby"]
    with pytest.raises(IllegalActionError, match="blind"):
        GAME.apply_text(state, "trade sapphire gold")
    GAME.apply_text(state, "steal ruby")
    assert chest(state, "red") == ["ruby", "sapphire"]


def test_a_players_blind_trade_draws_its_own_stone_first() -> None:
    # red gives one of its 2 stones (1 = ruby) and takes one of green's 2 (0 = gold)
    used = offset_for((2, 1), (2, 0))
    state = load(
        position(
            2,
            dwarves={
                "red": {"tile": 3, "chest": ["gold", "ruby"]},
                "green": {"tile": 4, "chest": ["gold", "emerald"]},
            },
            dice={"grey": "yellow", "white": "red"},
            rng={"seed": "dwarves-test", "used": used},
        )
    )
    GAME.apply_text(state, "step")
    GAME.apply_text(state, "trade blind")
    assert chest(state, "red") == ["gold", "gold"]
    assert chest(state, "green") == ["ruby", "emerald"]
