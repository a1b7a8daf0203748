"""Our games inside OpenSpiel, checked by OpenSpiel's own tests.

``pyspiel.random_sim_test`` is OpenSpiel's C++ simulation test (clone, legal actions sorted and
empty for others, masks, chance outcomes, utility bounds, the maximum game length, serialisation).
The imperfect-information checks are the test methods of OpenSpiel's ``api_test`` run unchanged
on sampled states of our games (that suite only enumerates small games itself).
"""

from __future__ import annotations

import itertools
import pickle
import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from open_spiel.integration_tests import api_test as openspiel_api
from open_spiel.python.algorithms import ismcts, mcts

from ludoteca.games import get
from ludoteca.games.dice_heroes.dice import FACES, ROLL
from ludoteca.interop import openspiel
from ludoteca.interop.chance import Position, roll
from ludoteca.interop.moves import CHANCE, TERMINAL
from ludoteca.interop.openspiel_entry import BY_NAME, EXPLICIT, SAMPLED

# (short name, players, sampled states): the smallest and largest table of each game (Dice Heroes
# also with explicit chance: ``name:explicit``) for OpenSpiel's API checks; the counts keep
# tests/interop within a minute on a busy 2-core machine (a 6-player Dwarves match is the slowest).
TABLES = [
    ("ludoteca_heroes", 2, 200),
    ("ludoteca_dice_heroes", 3, 150),
    ("ludoteca_dice_heroes:explicit", 2, 200),
    ("ludoteca_dice_heroes:explicit", 4, 200),
    ("ludoteca_dwarves", 2, 200),
    ("ludoteca_dwarves", 6, 80),
]
CASES = [  # six dwarves play 235 actions a match: those checks run in make test only
    pytest.param(*table, id=f"{table[0]}-{table[1]}", marks=[pytest.mark.slow] * (table[1] == 6))
    for table in TABLES
]


def every_table() -> list[tuple[str, int]]:
    """Every registered game at every player count it allows, with each chance it offers."""
    found = []
    for short_name, entry in BY_NAME.items():
        spec = get(entry.game_id).spec
        names = [short_name]
        if entry.offers_explicit:
            names = [f"{short_name}:{SAMPLED}", f"{short_name}:{EXPLICIT}"]
        found += [(n, p) for n in names for p in range(spec.min_players, spec.max_players + 1)]
    return found


# OpenSpiel's simulation test at every table: a few matches each (a busy machine plays about one
# a second at four players); two players in the fast lane, more in make test. Five matches are
# what it took to meet a shared win of four Dice Heroes players, whose returns summed to 1.5;
# Dwarves' larger tables play fewer (a match of six took 14 s on a busy machine).
SIMS = 5
FEWER_SIMS = {("ludoteca_dwarves", 4): 2, ("ludoteca_dwarves", 5): 1, ("ludoteca_dwarves", 6): 1}
EVERY_TABLE = [
    pytest.param(
        name,
        players,
        FEWER_SIMS.get((name, players), SIMS),
        id=f"{name}-{players}",
        marks=[pytest.mark.slow] * (players > 2),
    )
    for name, players in every_table()
]

# (suite class of openspiel_api, test method); not bound to module names, or pytest would collect
# the suite classes themselves
FULL, PARTIAL = "EnforceAPIOnFullTreeBase", "EnforceAPIOnPartialTreeBase"
API_CHECKS = [
    (FULL, "test_current_player_infosets_no_overlap_between_players"),
    (PARTIAL, "test_private_information_contents"),
    (PARTIAL, "test_legal_actions_returns_empty_list_on_opponent"),
    (PARTIAL, "test_observations_raises_error_on_invalid_player"),
    (PARTIAL, "test_sequence_lengths"),
    (PARTIAL, "test_no_invalid_public_observations"),
]


def load(name: str, players: int) -> pyspiel.Game:
    """``short_name``, or ``short_name:chance`` for a chance other than the default."""
    short_name, _, chance = name.partition(":")
    params: dict[str, int | str] = {"players": players}
    if chance:
        params["chance"] = chance
    return pyspiel.load_game(short_name, params)


def play_states(game: pyspiel.Game, count: int, seed: int = 0) -> list[pyspiel.State]:
    """``count`` states met in uniformly random playouts (chance, decisions and ends).

    OpenSpiel's ``sample_some_states`` walks breadth-first, which never gets past the opening
    roll-off of Dice Heroes; playouts reach every phase of every game.
    """
    rng = random.Random(seed)
    found: list[pyspiel.State] = []
    while len(found) < count:
        state = game.new_initial_state()
        while len(found) < count:
            found.append(state.clone())
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return found


def test_registers_the_three_games() -> None:
    assert set(openspiel.registered()) >= {
        "ludoteca_heroes",
        "ludoteca_dice_heroes",
        "ludoteca_dwarves",
    }
    game = pyspiel.load_game("ludoteca_dwarves", {"players": 6})
    assert game.num_players() == 6
    assert str(game) == "ludoteca_dwarves(players=6,rng_seed=0)"


@pytest.mark.parametrize(("name", "players"), [("ludoteca_dwarves", 7), ("ludoteca_heroes", 3)])
def test_a_wrong_player_count_is_refused(name: str, players: int) -> None:
    with pytest.raises(Exception, match=f"not {players}"):
        load(name, players)


@pytest.mark.parametrize(
    ("name", "players", "length"),
    [
        ("ludoteca_heroes", 2, 120),
        ("ludoteca_dice_heroes", 3, 1000),
        ("ludoteca_dwarves", 2, 300 * 2 * 4),
        ("ludoteca_dwarves", 6, 300 * 6 * 6),
    ],
)
def test_each_game_declares_its_own_maximum_length(name: str, players: int, length: int) -> None:
    """The bound comes from the game's own ``max_length``, never another game's."""
    game = load(name, players)
    assert game.max_game_length() == length
    assert game.max_game_length() == get(BY_NAME[name].game_id).max_length(players)


def test_random_matches_stay_within_the_declared_length() -> None:
    """A few random matches of each game end well inside the bound OpenSpiel is told."""
    rng = random.Random(7)
    for name in ("ludoteca_heroes", "ludoteca_dice_heroes", "ludoteca_dwarves"):
        game = load(name, 2)
        for _ in range(3):
            state = game.new_initial_state()
            decisions = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.randrange(len(state.chance_outcomes())))
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    decisions += 1
            assert decisions <= game.max_game_length(), name


def test_declared_types() -> None:
    kinds = pyspiel.GameType
    heroes = load("ludoteca_heroes", 2).get_type()
    dice = load("ludoteca_dice_heroes", 2).get_type()
    exact_dice = load("ludoteca_dice_heroes:explicit", 2).get_type()
    dwarves = load("ludoteca_dwarves", 2).get_type()
    assert heroes.information == kinds.Information.IMPERFECT_INFORMATION
    assert heroes.chance_mode == kinds.ChanceMode.SAMPLED_STOCHASTIC
    assert dice.information == kinds.Information.PERFECT_INFORMATION
    assert dice.chance_mode == kinds.ChanceMode.SAMPLED_STOCHASTIC
    assert exact_dice.chance_mode == kinds.ChanceMode.EXPLICIT_STOCHASTIC
    assert exact_dice.information == kinds.Information.PERFECT_INFORMATION
    assert dwarves.information == kinds.Information.PERFECT_INFORMATION
    assert dwarves.chance_mode == kinds.ChanceMode.SAMPLED_STOCHASTIC
    assert dwarves.utility == kinds.Utility.GENERAL_SUM  # the dragon can beat everybody


def test_every_table_is_simulated() -> None:
    assert ("ludoteca_heroes", 2) in every_table()
    assert ("ludoteca_dice_heroes:explicit", 4) in every_table()
    assert ("ludoteca_dice_heroes:sampled", 3) in every_table()
    assert [p for n, p in every_table() if n == "ludoteca_dwarves"] == [2, 3, 4, 5, 6]


@pytest.mark.parametrize(("name", "players", "sims"), EVERY_TABLE)
def test_random_sim_test(name: str, players: int, sims: int) -> None:
    """Among its checks: the returns lie within the declared bounds and, for a constant-sum
    game, sum to the declared utility sum."""
    game = load(name, players)
    # OpenSpiel serialises a sampled-stochastic game through Game::GetRNGState, which a Python
    # game cannot provide (pyspiel 2.0); explicit-chance games serialise by history and pickle.
    explicit = game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=sims, serialize=explicit, verbose=False)


@pytest.mark.parametrize(("name", "players", "states"), CASES)
def test_openspiel_api_checks(name: str, players: int, states: int) -> None:
    game = load(name, players)
    sampled = play_states(game, states)
    decisions = [s for s in sampled if not s.is_chance_node() and not s.is_terminal()]
    assert len(decisions) >= 20
    assert len({s.current_player() for s in decisions}) == players
    attrs = {
        "game": game,
        "game_name": name,
        "game_type": game.get_type(),
        "some_states": sampled,
        "all_states": sampled,
    }
    for base, method in API_CHECKS:
        type("Check", (getattr(openspiel_api, base),), attrs)(method).debug()


def test_heroes_hands_are_private_information() -> None:
    game = load("ludoteca_heroes", 2)
    private = game.make_py_observer(
        pyspiel.IIGObservationType(
            public_info=False,
            perfect_recall=False,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
        )
    )
    state = game.new_initial_state()
    mine, theirs = private.string_from(state, 0), private.string_from(state, 1)
    assert '"hand":' in mine and '"hand":' in theirs and mine != theirs


def test_dice_are_explicit_chance_nodes() -> None:
    game = load("ludoteca_dice_heroes:explicit", 3)
    state = game.new_initial_state()
    assert state.is_chance_node()  # the opening roll-off
    assert state.chance_outcomes() == [(face, pytest.approx(1 / 6)) for face in range(6)]
    rng = random.Random(2)
    nodes = []
    while state.is_chance_node():
        nodes.append(len(state.chance_outcomes()))
        state.apply_action(rng.randrange(nodes[-1]))
    # the set-up, a die at a time: the roll-off (three white dice per seat, again on a tie),
    # then the first turn's three white dice
    assert len(nodes) >= 3 * 3 + 3
    assert set(nodes) == {6}
    assert state.current_player() in (0, 1, 2)
    assert state.legal_actions()[0] == 0  # "stop" is id 0
    state.apply_action(0)  # stop: the next seat's roll is its three white dice, one node
    assert state.chance_outcomes() == list(roll(ROLL[0], 3).outcomes)
    assert len(state.chance_outcomes()) == 35  # multisets of five faces (a coin on two sides)


@pytest.mark.parametrize(("colour", "dice"), [(0, 1), (0, 3), (1, 2), (1, 3), (2, 3)])
def test_a_run_of_dice_has_the_exact_odds_of_rolling_them_one_by_one(
    colour: int, dice: int
) -> None:
    """Every sequence of single draws, counted by the faces it shows, against the run's node."""
    faces = ROLL[colour]
    counted = Counter(
        tuple(sorted(faces[v] for v in draws)) for draws in itertools.product(range(6), repeat=dice)
    )
    node = roll(faces, dice)
    shown = [tuple(faces[v] for v in draws) for draws in node.draws]
    assert all(list(f) == sorted(f) for f in shown)  # the run's dice show its faces ascending
    assert sorted(shown) == sorted(counted)  # one outcome per multiset, none twice
    assert [o for o, _ in node.outcomes] == list(range(len(shown)))
    for f, (_, p) in zip(shown, node.outcomes, strict=True):
        assert p == pytest.approx(counted[f] / 6**dice, abs=1e-15)
    assert sum(p for _, p in node.outcomes) == pytest.approx(1.0, abs=1e-12)
    distinct = len(set(FACES[("white", "yellow", "red")[colour]]))
    assert len(shown) == len(list(itertools.combinations_with_replacement(range(distinct), dice)))


def test_a_reroll_is_one_chance_node_per_colour_and_max_chance_outcomes_bounds_them() -> None:
    """Re-rolling dice of several colours: one node per colour, white, yellow, red, each of the
    multisets of that colour's dice, which then show the chosen faces in ascending order; no
    node of any match exceeds ``max_chance_outcomes``."""
    game = load("ludoteca_dice_heroes:explicit", 2)
    rng = random.Random(5)
    sizes: set[int] = set()
    checked = 0
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                sizes.add(len(outcomes))
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                state.apply_action(rng.choices(*zip(*outcomes, strict=True))[0])
                continue
            colours = state.position.state.colours
            everything = max(state.legal_actions())  # the mask of every die not showing X
            numbers = [n + 1 for n in range(len(colours)) if everything >> n & 1]
            runs = sorted({colours[n - 1] for n in numbers})
            if len(runs) == 1:
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            state.apply_action(everything)
            for colour in runs:
                dice = [n for n in numbers if colours[n - 1] == colour]
                node = roll(ROLL[colour], len(dice))
                assert state.is_chance_node() and state.position.roll is node
                outcome = rng.randrange(len(node.draws))
                state.apply_action(outcome)
                if colour != runs[-1]:  # the roll goes on: the stopped roll shows the faces
                    faces = state.position.stopped.faces
                    assert [faces[n - 1] for n in dice] == [
                        ROLL[colour][v] for v in node.draws[outcome]
                    ]
                    checked += 1
    assert checked >= 10
    assert max(sizes) <= game.max_chance_outcomes() == 56


@pytest.mark.parametrize("players", [2, 4])
def test_dice_heroes_has_sampled_chance_by_default(players: int) -> None:
    """By default (as with ``chance=sampled``) no chance nodes, the dice drawn inside actions
    from ``rng_seed``'s stream (OpenSpiel's simulation test runs on both: ``EVERY_TABLE``)."""
    game = load("ludoteca_dice_heroes", players)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    named = load("ludoteca_dice_heroes:sampled", players).get_type()
    assert named.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.max_chance_outcomes() == 0
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert not state.is_chance_node()
        state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == pytest.approx(1.0)


def test_chance_is_refused_where_the_game_has_no_such_mode() -> None:
    with pytest.raises(Exception, match="Unknown parameter 'chance'"):
        pyspiel.load_game("ludoteca_dwarves", {"chance": "sampled"})
    with pytest.raises(Exception, match="chance must be explicit or sampled, not 'dice'"):
        pyspiel.load_game("ludoteca_dice_heroes", {"chance": "dice"})


def test_the_compiled_bookkeeping_uses_openspiels_player_ids() -> None:
    assert int(pyspiel.PlayerId.CHANCE) == CHANCE
    assert int(pyspiel.PlayerId.TERMINAL) == TERMINAL


def test_the_same_rng_seed_deals_the_same_matches() -> None:
    def first_deals(seed: int) -> list[str]:
        game = pyspiel.load_game("ludoteca_heroes", {"rng_seed": seed})
        return [str(game.new_initial_state()) for _ in range(3)]

    assert first_deals(5) == first_deals(5)
    assert len(set(first_deals(5))) == 3
    assert first_deals(5) != first_deals(6)


def test_resample_keeps_the_information_state_and_changes_the_hidden_hands() -> None:
    game = load("ludoteca_heroes", 2)
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.current_player() != 1:
        state.apply_action(rng.choice(state.legal_actions()))
    key = state.information_state_string(1)
    worlds = [state.resample_from_infostate(1, rng.random) for _ in range(8)]
    assert all(w.information_state_string(1) == key for w in worlds)
    assert all(w.legal_actions() == state.legal_actions() for w in worlds)
    assert len({w.information_state_string(0) for w in worlds}) > 1  # Gold's hand is redrawn


def test_an_illegal_action_is_refused() -> None:
    game = load("ludoteca_heroes", 2)
    state = game.new_initial_state()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    before = str(state)
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(illegal)
    assert str(state) == before


@pytest.mark.parametrize("explicit", [False, True])
def test_positions_survive_pickle_mid_match(explicit: bool) -> None:
    name = "ludoteca_dice_heroes:explicit" if explicit else "ludoteca_dwarves"
    game = load(name, 3)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(25):
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    copy = pickle.loads(pickle.dumps(state.position))
    assert isinstance(copy, Position)
    assert copy.to_json() == state.position.to_json()
    if explicit:
        restored = pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state)
        )[1]
        assert str(restored) == str(state)


def test_ismcts_runs_on_a_game_typed_imperfect_for_it() -> None:
    game = openspiel.load_typed_imperfect("ludoteca_dwarves", {"players": 3, "rng_seed": 4})
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    rng = np.random.RandomState(4)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.4, 8, random_state=rng)
    state = game.new_initial_state()
    assert bot.step(state) in state.legal_actions()
    with pytest.raises(ValueError, match="no game 'ludoteca_chess'"):
        openspiel.load_typed_imperfect("ludoteca_chess")


@pytest.mark.parametrize("short_name", ["ludoteca_heroes", "ludoteca_dwarves"])
def test_actions_played_from_python_reach_openspiels_record_in_order(short_name: str) -> None:
    """With sampled chance ``apply_action`` plays in Python and notes the action for C++: the
    history, move number and serialisation read as if every action had gone through C++, when
    the two ways are mixed, across clones and children, and after a refused action."""
    players = 3 if short_name == "ludoteca_dwarves" else 2
    python_way = pyspiel.load_game(short_name, {"players": players, "rng_seed": 7})
    cpp_way = pyspiel.load_game(short_name, {"players": players, "rng_seed": 7})
    state, reference = python_way.new_initial_state(), cpp_way.new_initial_state()
    assert state.is_initial_state()
    rng = random.Random(5)
    clones: list[tuple[pyspiel.State, pyspiel.State]] = []
    step = 0
    while not reference.is_terminal():
        action = rng.choice(reference.legal_actions())
        pyspiel.State.apply_action(reference, action)  # C++ ApplyAction, always eager
        if step % 7 == 3:
            pyspiel.State.apply_action(state, action)  # C++ after Python: must come after it
        elif step % 11 == 5:
            state = state.child(action)
        else:
            state.apply_action(action)
        assert not state.is_initial_state()
        assert state.move_number() == reference.move_number()
        if step % 5 == 0:
            assert state.history() == reference.history()
        if step % 9 == 2:
            clones.append((state.clone(), reference.clone()))
        step += 1

    def pairs(s: pyspiel.State) -> list[tuple[int, int]]:
        return [(h.player, h.action) for h in s.full_history()]

    assert pairs(state) == pairs(reference)
    assert state.history_str() == reference.history_str()
    assert str(state) == str(reference)
    assert state.returns() == reference.returns()
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(0)
    assert state.history() == reference.history()
    for copy, copied in clones:  # a clone keeps its own notes: it plays on apart
        while not copied.is_terminal():
            action = rng.choice(copied.legal_actions())
            copy.apply_action(action)
            pyspiel.State.apply_action(copied, action)
        assert copy.history() == copied.history()
        assert str(copy) == str(copied)
    restored = python_way.deserialize_state(state.serialize())
    assert restored.history() == reference.history()
    assert str(restored) == str(reference)
