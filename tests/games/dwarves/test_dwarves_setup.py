"""Set-up: the ring and its neighbour swap, start tiles, the start player, the deal, seats."""

from __future__ import annotations

from collections import Counter

import pytest
from dwarves_table import RING

from ludoteca.core import Stream
from ludoteca.games.dwarves import GAME
from ludoteca.games.dwarves.fortress import FACES, board, clash, colour_of, settle, tile_set
from ludoteca.games.dwarves.lineup import lineup
from ludoteca.games.dwarves.stones import KINDS


def test_the_fortress_has_twelve_tiles_and_fourteen_with_the_expansion() -> None:
    base = Counter(tile_set(4))
    assert base == {
        "yellow": 2,
        "red": 2,
        "blue": 2,
        "green": 2,
        "orange": 1,
        "purple": 1,
        "portal": 1,
        "passage": 1,
    }
    assert Counter(tile_set(5)) == base + Counter(["orange", "purple"])
    assert tile_set(2) == tile_set(3) == tile_set(4)
    assert tile_set(6) == tile_set(5)


def test_identical_neighbours_are_swapped_apart_scanning_clockwise() -> None:
    ring = ["yellow", "yellow", "red", "blue"]
    assert settle(ring)
    assert ring == ["yellow", "red", "yellow", "blue"]
    # the Portal and the Secret Passage count as identical grey tiles; the circle wraps
    ring = ["portal", "red", "blue", "passage"]
    assert settle(ring)
    assert ring == ["red", "portal", "blue", "passage"]


def test_the_swap_is_bounded_when_a_ring_cannot_settle() -> None:
    ring = ["yellow", "yellow", "yellow", "red"]
    assert not settle(ring, passes=5)
    assert clash(ring) is not None


@pytest.mark.parametrize("players", [2, 4, 6])
def test_laid_rings_never_have_identical_neighbours(players: int) -> None:
    for k in range(200):
        state = GAME.new({"players": players}, f"ring-{k}")
        tiles = state.board.tiles
        assert sorted(tiles) == list(tile_set(players))
        assert all(
            colour_of(tiles[i]) != colour_of(tiles[(i + 1) % len(tiles)]) for i in range(len(tiles))
        )


def test_the_next_tile_table_of_the_test_ring() -> None:
    ring = board(tuple(RING))
    yellow, orange = FACES.index("yellow"), FACES.index("orange")
    assert ring.nxt[1][yellow] == 6
    assert ring.nxt[6][yellow] == 1
    assert ring.nxt[5][orange] == 5  # the only orange tile: stay
    assert ring.nxt[7][orange] == 5
    assert ring.names[:3] == ("portal", "yellow 1", "red 1")
    assert ring.names[5:9] == ("orange", "yellow 2", "red 2", "secret passage")


def test_set_up_draws_in_the_documented_order() -> None:
    """Re-deal by hand from the seed: tiles, neighbour swap, pool, 3 stones per dwarf in turn
    order, then the start player's dice (grey, white)."""
    for seed in ("a", "b", "c"):
        rng = Stream(seed)
        tiles = list(tile_set(4))
        rng.shuffle(tiles)
        while not settle(tiles):
            rng.shuffle(tiles)
        pool = [k for k, n in enumerate((5, 5, 5, 5, 5, 1)) for _ in range(n)]
        rng.shuffle(pool)
        chests = [sorted(pool.pop() for _ in range(3)) for _ in range(4)]
        grey, white = rng.below(6), rng.below(6)
        state = GAME.new({"players": 4}, seed)
        data = GAME.to_json(state)
        assert data["ring"] == tiles
        assert data["pool"] == [KINDS[k] for k in pool]
        assert [d["chest"] for d in data["dwarves"]] == [[KINDS[k] for k in c] for c in chests]
        assert data["dice"] == {"grey": FACES[grey], "white": FACES[white]}
        assert data["rng"]["used"] == rng.used


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_figures_start_on_their_marks(players: int) -> None:
    for k in range(30):
        state = GAME.new({"players": players}, f"marks-{k}")
        data = GAME.to_json(state)
        ring = data["ring"]
        portal = ring.index("portal")
        assert data["hobbit"] == ring.index("passage")
        assert data["dragon"]["tile"] == portal
        for dwarf in data["dwarves"]:
            ahead = [(portal + d) % len(ring) for d in range(1, len(ring))]
            assert dwarf["tile"] == next(t for t in ahead if ring[t] == dwarf["colour"])
            assert len(dwarf["chest"]) == 3
        assert len(data["pool"]) == (31 if players >= 5 else 26) - 3 * len(data["dwarves"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_player_is_the_first_players_dwarf_clockwise_from_the_hobbit(
    players: int,
) -> None:
    skipped_an_extra = False
    for k in range(60):
        data = GAME.to_json(GAME.new({"players": players}, f"first-{k}"))
        size = len(data["ring"])
        by_tile = {d["tile"]: d for d in data["dwarves"]}
        ahead = [
            by_tile[t] for i in range(1, size) if (t := (data["hobbit"] + i) % size) in by_tile
        ]
        first = next(d for d in ahead if d["seat"] is not None)
        skipped_an_extra |= ahead[0]["seat"] is None
        assert data["start"] == data["turn"] == first["colour"]
        assert GAME.to_move(GAME.from_json(data)) == first["seat"]
    assert skipped_an_extra or players == 4


def test_seats_and_turn_order_with_extra_dwarves() -> None:
    assert list(zip(lineup(2).colours, lineup(2).seats, strict=True)) == [
        ("red", 0),
        ("green", -1),
        ("yellow", 1),
        ("blue", -1),
    ]
    assert list(zip(lineup(3).colours, lineup(3).seats, strict=True)) == [
        ("red", 0),
        ("blue", -1),
        ("yellow", 1),
        ("green", 2),
    ]
    assert lineup(6).colours == ("red", "yellow", "green", "blue", "orange", "purple")
    assert lineup(6).seats == (0, 1, 2, 3, 4, 5)


def test_the_expansion_adds_a_stone_of_each_kind() -> None:
    data = GAME.to_json(GAME.new({"players": 6}, "expansion"))
    stones = Counter(data["pool"])
    for dwarf in data["dwarves"]:
        stones.update(dwarf["chest"])
    assert stones == {"gold": 6, "ruby": 6, "sapphire": 6, "emerald": 6, "garnet": 6, "diamond": 1}
