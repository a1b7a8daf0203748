"""The analysis of a finished match (``ludoteca.bots.analysis``, docs/analysis.md): it reads only
what the deciding person could see, it is the same every time, and it tells a careless player from
a careful one."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from bots_positions import find

from ludoteca.bots.analysis import (
    GRADES,
    Position,
    analyse,
    analyse_positions,
    grade,
    positions,
)
from ludoteca.bots.ismcts import ARMS, search
from ludoteca.bots.levels import hard_options
from ludoteca.core import Game, Match, MatchRecord, Player, RecordError
from ludoteca.games import all_games, get

ITERATIONS = 40  # small and fixed: the same numbers on every machine


def played(
    game: Game[Any, Any], seed: str, person: str = "medium", limit: int | None = None
) -> MatchRecord:
    """A finished two-seat match: seat 0 a person (played here by ``person``: the game's
    heuristic or random choices), seat 1 the heuristic bot."""
    match = Match(game, {"players": 2}, seed, [Player("Ana"), Player("Bot", True, "medium")])
    heuristic, rng = game.heuristic_bot(), random.Random(seed)
    while (seat := match.to_move) is not None:
        state = match.state
        if seat == 0 and person == "random":
            action = rng.choice(game.legal_actions(state))
        else:
            action = heuristic.choose(game, state.clone(), seat, rng)
        match.act(seat, game.action_to_text(state, action), "player" if seat == 0 else "bot")
    record = match.record()
    if limit is not None:
        record.actions = record.actions[:limit]
    return record


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_the_analysis_never_depends_on_the_hidden_state(game_id: str) -> None:
    """Two worlds that agree with everything the person knew at each decision — the rivals'
    hidden cards dealt anew, the face-down piles reordered, the dice to come rerolled — give the
    same analysis, number for number, for the same (record-derived) seeds."""
    game = get(game_id)
    record = played(game, f"hidden-{game_id}")
    true_world = [p for p in positions(game, record) if p.by == "player"][:8]
    other_world = []
    differ = 0
    for n, position in enumerate(true_world):
        twin = game.sample_world(position.state, position.seat, random.Random(7000 + n))
        assert game.observation(twin, position.seat) == game.observation(
            position.state, position.seat
        )
        differ += json.dumps(game.to_json(twin)) != json.dumps(game.to_json(position.state))
        other_world.append(replace(position, state=twin))
    assert differ >= len(true_world) // 2, "the twins must really hide something else"
    ours = analyse_positions(game, record.commitment, true_world, iterations=ITERATIONS)
    theirs = analyse_positions(game, record.commitment, other_world, iterations=ITERATIONS)
    assert ours == theirs
    assert any(not d["forced"] for d in ours)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_persons_decisions_are_analysed_and_the_chart_ends_at_the_result(game_id: str) -> None:
    game = get(game_id)
    record = played(game, f"shape-{game_id}")
    first = analyse(game, record, iterations=ITERATIONS)
    assert analyse(game, record, iterations=ITERATIONS) == first, "deterministic"
    persons = [n for n, s in enumerate(record.actions, 1) if s.by == "player"]
    assert [d["version"] for d in first["decisions"]] == persons
    assert first["seats"] == [0] and first["iterations"] == ITERATIONS
    for d in first["decisions"]:
        if d["forced"]:
            assert d["best"] is None and d["taken"]["chance"] is None
            continue
        taken, best = d["taken"]["chance"], d["best"]["chance"]
        assert 0.0 <= taken <= best <= 1.0
        assert d["loss"] == pytest.approx(best - taken, abs=1e-4)
        assert d["grade"] == grade(d["loss"])
        listed = {c["action"]: c for c in d["candidates"]}
        assert listed[d["taken"]["action"]]["chance"] == taken
        assert listed[d["taken"]["action"]]["playouts"] > 0, "the action taken is always searched"
        assert listed[d["best"]["action"]]["chance"] == best
    judged = [d for d in first["decisions"] if not d["forced"]]
    chart = first["chart"]["0"]
    assert chart[:-1] == [[d["version"], d["taken"]["chance"]] for d in judged]
    assert record.outcome is not None
    assert chart[-1] == [len(record.actions), record.outcome.payoff(0, 2)]
    totals = first["totals"]["0"]
    assert totals["decisions"] == len(judged)
    assert sum(totals[name] for name, _ in GRADES) == sum(d["grade"] is not None for d in judged)


@pytest.mark.slow  # twenty searched decisions in each of two Heroes & Relics matches
def test_a_careless_player_gives_away_more_than_a_careful_one() -> None:
    game = get("heroes")
    losses = {}
    for person in ("medium", "random"):
        record = played(game, "careless", person, limit=20)
        record.outcome = None  # cut short: no result to chart
        found = analyse_positions(
            game, record.commitment, positions_of(game, record), iterations=80
        )
        losses[person] = sum(d["loss"] for d in found) / len(found)
    assert losses["random"] > losses["medium"] + 0.03, losses


def positions_of(game: Game[Any, Any], record: MatchRecord) -> list[Position]:
    """The persons' positions of a record cut short (``positions`` wants a finished match)."""
    match = Match(game, record.params, record.seed or "", record.players)
    found = []
    for version, step in enumerate(record.actions, 1):
        if step.by == "player":
            found.append(Position(version, step.seat, step.by, step.action, match.state))
        match.act(step.seat, step.action, step.by)
    return found


def test_grades_follow_the_documented_thresholds() -> None:
    assert [grade(x) for x in (0.0, 0.049, 0.05, 0.099, 0.1, 0.199, 0.2, 0.9)] == [
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_bad_requests_are_refused_saying_why() -> None:
    game = get("dwarves")
    record = played(game, "refused")
    with pytest.raises(ValueError, match="seat 5 is not a seat"):
        analyse(game, record, seats=[5])
    with pytest.raises(ValueError, match="at least 1"):
        analyse(game, record, iterations=0)
    unfinished = Match(game, {"players": 2}, "refused").record()
    with pytest.raises(RecordError, match="not over"):
        analyse(game, unfinished)
    tampered = MatchRecord.from_json(record.to_json())
    tampered.actions[3] = replace(tampered.actions[3], action="pass")
    with pytest.raises(RecordError, match="does not replay"):
        analyse(game, tampered, iterations=5, seats=[0, 1])


def test_the_action_taken_is_compared_even_among_more_actions_than_the_root_compares() -> None:
    """Dice Heroes offers up to 512 actions and a search compares 16: ``keep`` puts the person's
    action among them, where a random draw of the others would often leave it out."""
    game = get("dice-heroes")
    state = find(game, 2, lambda s: len(game.legal_actions(s)) > 4 * ARMS)
    seat = game.to_move(state)
    assert seat is not None
    hint = game.heuristic_bot().choose(game, state.clone(), seat, random.Random(0))
    rare = [a for a in game.legal_actions(state) if a != hint][-1]
    left_out = 0
    for n in range(6):
        options = hard_options(game, 40)
        plain = search(game, state, seat, random.Random(n), options)
        kept = search(game, state, seat, random.Random(n), options, keep=(rare,))
        left_out += rare not in plain.root.edges
        assert rare in kept.root.edges and kept.root.edges[rare].visits > 0
        assert len(kept.root.edges) <= ARMS
    assert left_out > 0, "without keep, the draw leaves it out: the test shows keep matters"
