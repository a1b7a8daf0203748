"""The analysis of a finished match (``docs/analysis.md``): for each decision of a person, the
estimated win chance of the action taken and of the best action, as ``hard`` finds them searching
that person's information set, with the mistakes marked.

Each decision is searched from a world sampled from the deciding seat's view only (the path every
bot's input takes, ``core.bot.decide``), so the analysis knows what the person knew and never the
hidden state; a fixed iteration budget (no clock) and a seed made from the match's public
commitment and the step make it the same on every machine, every time. A win chance is the mean
payoff (``Outcome.payoff``: a win 1, a shared result its share) of the searches' playouts that
began with that action.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ludoteca.core import Game, Match, MatchRecord, ReplayError
from ludoteca.core.record import RecordError, Step
from ludoteca.core.spec import JSON
from ludoteca.games import get

from .ismcts import search
from .levels import hard_options

ITERATIONS = 400
"""Search iterations per decision by default: more than ``hard`` reaches in its second at the
table in two of the three packaged games, fewer than in the third (``docs/bots.md``)."""

GRADES = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
"""How much win chance an action gave away against the best (at least), and what it is called."""

TOP = 5
"""Candidate actions listed per decision, by win chance (then the best and the taken action, if
they are not among them)."""


def grade(loss: float) -> str | None:
    """``blunder``, ``mistake`` or ``inaccuracy`` for a loss of win chance, None for a good move."""
    for name, least in GRADES:
        if loss >= least - 1e-9:
            return name
    return None


def decision_seed(commitment: str, version: int, seat: int) -> int:
    """The seed of one decision's search: from the match's commitment (public before anyone
    acted), the step and the seat, so the same record is analysed the same everywhere."""
    digest = hashlib.sha256(f"ludoteca-analysis\n{commitment}\n{version}\n{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class Position:
    """A decision to analyse: the step it made (1-based), who acted, how (``by``), the action's
    text, and the position it was taken in (the true state: only the seat's view of it is read)."""

    version: int
    seat: int
    by: str
    action: str
    state: Any


def positions(game: Game[Any, Any], record: MatchRecord) -> Iterator[Position]:
    """Every decision of a finished record, with the position before it; RecordError when the
    match is not over or a step does not replay."""
    try:
        deal = record.deal()
    except RecordError:
        raise RecordError("the match is not over: only a finished match is analysed") from None
    match = Match(game, record.params, deal, record.players)
    for version, step in enumerate(record.actions, 1):
        before = match.state  # the match moves on to a new state object: this one stays
        try:
            match.replay_steps([Step(step.seat, step.action, step.by)])
        except ReplayError as exc:
            raise RecordError(f"the record does not replay: {exc}") from None
        yield Position(version, step.seat, step.by, step.action, before)


def analyse_decision(
    game: Game[Any, Any], position: Position, *, iterations: int, seed: int
) -> JSON:
    """One decision: the win chance of the action taken and of the best one, from a search of
    ``iterations`` iterations in the seat's information set (never the hidden state)."""
    seat = position.seat
    rng = random.Random(seed)
    world = game.sample_world(position.state, seat, rng)  # the seat's view, as every bot's input
    taken = game.read_action(world, position.action)
    base: JSON = {"version": position.version, "seat": seat, "by": position.by}
    base["taken"] = {"action": position.action, "chance": None}
    actions = game.legal_actions(world)
    if len(actions) == 1:
        return base | {"forced": True, "best": None, "loss": 0.0, "grade": None, "candidates": []}
    found = search(game, world, seat, rng, hard_options(game, iterations), keep=(taken,))
    edges = found.root.edges

    def chance(action: Hashable) -> float:
        edge = edges.get(action)
        return round(edge.rewards[seat] / edge.visits, 4) if edge and edge.visits else 0.0

    best = found.choice  # what hard plays: overrules its prior only on paired evidence
    taken_chance, best_chance = chance(taken), chance(best)
    if taken_chance >= best_chance:
        best, best_chance = taken, taken_chance
    loss = round(max(0.0, best_chance - taken_chance), 4)
    ranked = sorted(edges, key=lambda a: (-chance(a), -edges[a].visits, str(a)))
    listed = ranked[:TOP] + [a for a in dict.fromkeys((best, taken)) if a not in ranked[:TOP]]
    return base | {
        "forced": False,
        "taken": {"action": position.action, "chance": taken_chance},
        "best": {"action": game.action_to_text(world, best), "chance": best_chance},
        "loss": loss,
        "grade": grade(loss),
        "candidates": [
            {
                "action": game.action_to_text(world, a),
                "chance": chance(a),
                "playouts": edges[a].visits,
            }
            for a in listed
        ],
        "iterations": found.iterations,
    }


def wanted(position: Position, seats: Sequence[int] | None) -> bool:
    """Whose decisions are analysed: a person's (``by`` player), or, when ``seats`` are named,
    every decision of those seats (a bot's too: how the CLI measures a simulated match)."""
    return position.by == "player" if seats is None else position.seat in seats


def analyse_positions(
    game: Game[Any, Any],
    commitment: str,
    found: Iterable[Position],
    *,
    iterations: int = ITERATIONS,
    seats: Sequence[int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[JSON]:
    """The analysed decisions among ``found``, in order (``wanted`` says which)."""
    decisions = []
    for position in found:
        if not wanted(position, seats):
            continue
        seed = decision_seed(commitment, position.version, position.seat)
        decisions.append(analyse_decision(game, position, iterations=iterations, seed=seed))
        if progress is not None:
            progress(len(decisions))
    return decisions


def summary(record: MatchRecord, decisions: list[JSON], iterations: int) -> JSON:
    """The analysis as the API, the page and ``ludoteca analyse --json`` give it: the decisions,
    each seat's totals, and the chart (per seat, the win chance after each of its analysed
    decisions, then the result)."""
    players = len(record.players)
    seats = sorted({d["seat"] for d in decisions})
    last = len(record.actions)
    outcome = record.outcome
    chart: JSON = {}
    totals: JSON = {}
    for seat in seats:
        mine = [d for d in decisions if d["seat"] == seat]
        judged = [d for d in mine if not d["forced"]]
        points = [[d["version"], d["taken"]["chance"]] for d in judged]
        if outcome is not None:
            points.append([last, round(outcome.canonical(players).payoff(seat, players), 4)])
        chart[str(seat)] = points
        totals[str(seat)] = {
            "decisions": len(judged),
            "forced": len(mine) - len(judged),
            "average_loss": round(sum(d["loss"] for d in judged) / len(judged), 4)
            if judged
            else 0.0,
        } | {name: sum(d["grade"] == name for d in judged) for name, _ in GRADES}
    return {
        "game": record.game,
        "table": record.table,
        "commitment": record.commitment,
        "engine": "hard",
        "iterations": iterations,
        "grades": dict(GRADES),
        "steps": last,
        "players": [p.to_json() for p in record.players],
        "outcome": outcome.to_json() if outcome else None,
        "seats": seats,
        "totals": totals,
        "chart": chart,
        "decisions": decisions,
    }


def analyse(
    game: Game[Any, Any],
    record: MatchRecord,
    *,
    iterations: int = ITERATIONS,
    seats: Sequence[int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> JSON:
    """The analysis of a finished record (``summary``); RecordError when it is not over or does
    not replay, ValueError for an iteration count below 1 or a seat the match does not have."""
    if iterations < 1:
        raise ValueError(f"the iterations must be at least 1, not {iterations}")
    for seat in seats or ():
        if not 0 <= seat < len(record.players):
            raise ValueError(
                f"seat {seat} is not a seat of this match (0-{len(record.players) - 1})"
            )
    found = positions(game, record)
    decisions = analyse_positions(
        game, record.commitment, found, iterations=iterations, seats=seats, progress=progress
    )
    return summary(record, decisions, iterations)


def analyse_json(data: Any, iterations: int = ITERATIONS) -> JSON:
    """``analyse`` of a record given as JSON (what the server's worker processes run)."""
    record = MatchRecord.from_json(data)
    return analyse(get(record.game), record, iterations=iterations)
