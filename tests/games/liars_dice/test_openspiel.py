"""OpenSpiel's own ``liars_dice`` (C++) as the oracle of our rules: ``players: 2, rounds: one`` is
that game, for every dice count 1-5 and both bidding rules.

Random matches are played in both engines at once: the dice are those our stream rolls, handed to
OpenSpiel's chance nodes in the same order (seat 0's dice, then seat 1's); OpenSpiel has seat 0
always start, so the comparison fixes our drawn starter back to seat 0 before the first bid
(``docs/notation/liars-dice.md``). At every step both must name the same seat to move and the
same legal actions, as bids, in the same order; at the end the same terminal state (each cup
sorted, the bids and ``Liar``, as OpenSpiel writes it) and the same returns (our payoff 1 or 0 is
OpenSpiel's +1 or -1).
A sample runs in the fast lane (40 matches a setting); the whole (1,000 a setting, 10,000 in
all) under ``slow``."""

from __future__ import annotations

import random

import pytest

from ludoteca.games import get

pyspiel = pytest.importorskip("pyspiel")

GAME = get("liars-dice")
RULES = ("reset-face", "reset-quantity")
SETTINGS = [(dice, rule) for dice in range(1, 6) for rule in RULES]


def as_bids(texts: list[str]) -> list[tuple[int, int] | str]:
    """Our action texts (``bid 3 5``, ``liar``) and OpenSpiel's (``3-5``, ``Liar``) as one shape."""
    out: list[tuple[int, int] | str] = []
    for text in texts:
        if text.lower() == "liar":
            out.append("liar")
        elif text.startswith("bid "):
            q, f = text.split()[1:]
            out.append((int(q), int(f)))
        else:
            q, f = text.split("-")
            out.append((int(q), int(f)))
    return out


def play_both(dice: int, rule: str, seed: str, pick: random.Random) -> int:
    """One random match in both engines, compared at every step; returns its decisions."""
    params = {"players": 2, "dice": dice, "rounds": "one", "bidding": rule}
    ours = GAME.new(params, seed)
    ours.starter = ours.mover = 0  # OpenSpiel's seat 0 always starts
    theirs = pyspiel.load_game("liars_dice", {"numdice": dice, "bidding_rule": rule})
    state = theirs.new_initial_state()
    for hand in ours.hands:
        for face in hand:
            assert state.is_chance_node()
            state.apply_action(face - 1)
    decisions = 0
    while not state.is_terminal():
        assert GAME.to_move(ours) == state.current_player()
        legal = GAME.legal_actions(ours)
        texts = [GAME.action_to_text(ours, a) for a in legal]
        by_text = {state.action_to_string(a): a for a in state.legal_actions()}
        assert as_bids(texts) == as_bids(list(by_text)), (seed, decisions)
        k = pick.randrange(len(legal))
        GAME.apply(ours, legal[k])
        state.apply_action(list(by_text.values())[k])
        decisions += 1
    assert GAME.to_move(ours) is None and GAME.legal_actions(ours) == []
    outcome = GAME.outcome(ours)
    assert outcome is not None
    assert [2 * outcome.payoff(s, 2) - 1 for s in range(2)] == state.returns(), seed
    position = GAME.to_json(ours)
    bids = " ".join(f"{q}-{f}" for _, q, f in position["bids"])
    written = " ".join("".join(map(str, sorted(h))) for h in position["hands"]) + f" {bids} Liar"
    assert written == str(state), seed
    return decisions


def agree(matches: int, dice: int, rule: str) -> None:
    pick = random.Random(f"oracle-{dice}-{rule}")
    total = sum(play_both(dice, rule, f"oracle-{dice}-{rule}-{k}", pick) for k in range(matches))
    assert total >= 2 * matches  # every match: a bid and a challenge at least


@pytest.mark.parametrize(("dice", "rule"), SETTINGS)
def test_openspiel_agrees_on_a_sample(dice: int, rule: str) -> None:
    agree(40, dice, rule)


@pytest.mark.slow
@pytest.mark.parametrize(("dice", "rule"), SETTINGS)
def test_openspiel_agrees_on_ten_thousand_matches(dice: int, rule: str) -> None:
    agree(1000, dice, rule)


def test_the_comparison_would_see_a_wrong_rule() -> None:
    """The oracle is sharp: the same dice and bids under the other bidding rule disagree on the
    legal bids at once."""
    ours = GAME.new({"players": 2, "dice": 2, "rounds": "one", "bidding": "reset-face"}, "sharp")
    ours.starter = ours.mover = 0
    theirs = pyspiel.load_game("liars_dice", {"numdice": 2, "bidding_rule": "reset-quantity"})
    state = theirs.new_initial_state()
    for hand in ours.hands:
        for face in hand:
            state.apply_action(face - 1)
    GAME.apply_text(ours, "bid 2 3")
    state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(a) == "2-3"))
    mine = as_bids(GAME.legal_texts(ours))
    other = as_bids([state.action_to_string(a) for a in state.legal_actions()])
    assert mine != other


def test_the_adapter_loads_the_table_options() -> None:
    """``ludoteca_liars_dice`` takes the game's table options as OpenSpiel parameters (defaults
    from ``GameSpec.options``), plays that table, round-trips its states, refuses a bad option."""
    import ludoteca.interop.openspiel  # noqa: F401, PLC0415 (registers the games)
    from ludoteca.core import InvalidParamsError  # noqa: PLC0415

    default = pyspiel.load_game("ludoteca_liars_dice")
    assert default.get_parameters()["dice"] == 5
    assert default.get_parameters()["rounds"] == "last-standing"
    options = {"players": 3, "dice": 2, "rounds": "one", "bidding": "reset-quantity"}
    game = pyspiel.load_game("ludoteca_liars_dice", options)
    pick = random.Random(9)
    for _ in range(20):
        state = game.new_initial_state()
        assert [len(h) for h in state.position.state.hands] == [2, 2, 2]
        while not state.is_terminal():
            again = game.deserialize_state(state.serialize())
            assert again.legal_actions() == state.legal_actions()
            state.apply_action(pick.choice(state.legal_actions()))
        assert sorted(state.returns()) == [0.0, 0.5, 0.5]  # one round: the loser, two winners
    for bad in ({"dice": 9}, {"rounds": "two"}):
        with pytest.raises(InvalidParamsError):
            pyspiel.load_game("ludoteca_liars_dice", bad)
    with pytest.raises(pyspiel.SpielError, match="Wrong type"):  # OpenSpiel checks the types
        pyspiel.load_game("ludoteca_liars_dice", {"bidding": 1})
