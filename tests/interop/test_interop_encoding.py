"""Action ids and tensors: the documented numbering, and clear errors outside it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludoteca.games import get
from ludoteca.interop.encoding import EncodingError, encoding, tensor


@pytest.mark.parametrize(
    ("game_id", "text", "expected"),
    [
        ("heroes", "draw", 0),
        ("heroes", "skip", 1),
        ("heroes", "place halfling a1", 2),
        ("heroes", "place halfling camp", 17),
        ("heroes", "place paladin camp", 129),
        ("heroes", "strike a1", 130),
        ("heroes", "strike c5", 144),
        ("dice-heroes", "stop", 0),
        ("dice-heroes", "reroll 1 3", 0b101),
        ("dice-heroes", "reroll 1 2 3 4 5 6 7 8 9", 511),
        ("dwarves", "to 13", 13),
        ("dwarves", "trade gold gold", 14),
        ("dwarves", "trade diamond diamond", 49),
        ("dwarves", "trade blind", 50),
        ("dwarves", "steal diamond", 56),
    ],
)
def test_documented_ids(game_id: str, text: str, expected: int) -> None:
    layout = encoding(game_id, get(game_id).spec.min_players)
    assert layout.ids[text] == expected
    assert layout.actions[expected] == text


@pytest.mark.parametrize("game_id", ["heroes", "dice-heroes", "dwarves"])
def test_every_legal_action_has_the_id_of_its_text(game_id: str) -> None:
    game = get(game_id)
    players = game.spec.max_players
    layout = encoding(game_id, players)
    rng = random.Random(0)
    state = game.new({"players": players}, "ids")
    while not game.is_over(state):
        legal = layout.legal(game, state)
        assert list(legal) == sorted(legal)
        assert len(legal) == len(game.legal_actions(state))
        for action_id, action in legal.items():
            assert layout.actions[action_id] == game.action_to_text(state, action)
        for seat in range(players):
            flat = tensor(layout, game, state, seat)
            assert flat.shape == (layout.size,) and flat.dtype == np.float32
            assert flat.min() >= 0.0 and flat[seat] == 1.0
        game.apply_unchecked(state, rng.choice(game.legal_actions(state)))


@pytest.mark.parametrize("game_id", ["heroes", "dice-heroes", "dwarves"])
def test_legal_ids_are_the_ids_of_the_legal_actions_in_their_order(game_id: str) -> None:
    # Dice Heroes keeps its ids per list, Heroes' rules find them with the actions (ascending,
    # for the adapter), Dwarves' name each list by its ids packed into a number: every way must
    # give the id of each action's text, beside the action.
    game = get(game_id)
    rng = random.Random(1)
    seen: set[int] = set()
    for match in range(40):
        players = (game.spec.min_players, game.spec.max_players)[match % 2]
        layout = encoding(game_id, players)
        state = game.new({"players": players}, f"ids-{match}")
        direct, code = layout.ascending_ids_of_state(), layout.code_of_state()
        while actions := game.legal_actions(state):
            ids, listed = layout.legal_ids(game, state)
            assert listed == actions
            assert ids == [layout.ids[game.action_to_text(state, a)] for a in actions]
            seen.update(ids)
            if direct is not None:
                ascending, by_id = direct(state)
                assert ascending == sorted(ids)
                assert dict(zip(ascending, by_id, strict=True)) == dict(
                    zip(ids, actions, strict=True)
                )
            if code is not None:  # the ids packed, six bits each after a leading 1
                assert code(state) == sum(i << 6 * n for n, i in enumerate(reversed([1, *ids])))
            game.step(state, rng.choice(actions))
    assert (layout.ascending_ids_of_state() is not None) == (game_id == "heroes")
    assert (layout.code_of_state() is not None) == (game_id == "dwarves")
    if game_id == "dwarves":  # six bits hold every id, so no two lists share a number
        assert len(layout.actions) <= 1 << 6
    if game_id == "heroes":  # a Fighter's strikes, a Ranger's or a Fighter's skip, a draw
        assert seen >= {0, 1} and seen & set(range(130, 145))


def test_errors_name_what_is_wrong() -> None:
    with pytest.raises(EncodingError, match="no research encoding for 'chess'"):
        encoding("chess", 2)

    class Renamed:
        """A game whose action texts the encoding does not know."""

        def action_to_text(self, state: object, action: object) -> str:
            return "fly"

    layout = encoding("heroes", 2)
    with pytest.raises(EncodingError, match="action 'fly' has no id"):
        layout.action_id(Renamed(), None, ("fly",))  # type: ignore[arg-type]
