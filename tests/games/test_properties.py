"""Properties of every engine (the toy game's too), for any seed and any sequence of legal choices,
searched by Hypothesis: a JSON round trip continues the same match, a seat's view depends only on
what it knows, checking a text never changes anything, and replaying a prefix of the steps gives
the match as it was at that version.

A match prefix is drawn as (game, players, seed, depth, choices): step ``i`` of ``depth`` takes
``legal[c % len(legal)]`` with ``c = choices[i % len(choices)]``, so every drawn sequence is a
legal one, reaches deep into long matches, and shrinks to simpler choices.
Derandomised, without a database: every run checks the same examples, in a few seconds.
"""

from __future__ import annotations

import contextlib
import json
import random
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludoteca.core import Game, IllegalActionError, InvalidActionError, LudotecaError, Match
from ludoteca.games import all_games
from toygame import GAME as TOY

GAMES: dict[str, Game[Any, Any]] = {**all_games(), TOY.spec.id: TOY}
STEPS = 300
PROPERTY = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@dataclass
class Prefix:
    game: Game[Any, Any]
    players: int
    seed: str
    depth: int
    choices: list[int]

    def play(self, upto: int | None = None) -> Match:
        """The match after the first ``upto`` steps (``depth`` by default), or at its end."""
        match = Match(self.game, {"players": self.players}, self.seed)
        for i in range(self.depth if upto is None else upto):
            seat = match.to_move
            if seat is None:
                break
            legal = match.legal(seat)
            match.act(seat, legal[self.choices[i % len(self.choices)] % len(legal)])
        return match


@st.composite
def prefixes(draw: st.DrawFn) -> Prefix:
    game = GAMES[draw(st.sampled_from(sorted(GAMES)))]
    players = draw(st.integers(game.spec.min_players, game.spec.max_players))
    seed = draw(st.text(min_size=1, max_size=12))
    depth = draw(st.integers(0, STEPS))
    choices = draw(st.lists(st.integers(0, 10_000), min_size=1, max_size=12))
    return Prefix(game, players, seed, depth, choices)


def dump(game: Game[Any, Any], state: Any) -> str:
    return json.dumps(game.to_json(state), sort_keys=True)


@PROPERTY
@given(prefixes(), st.lists(st.integers(0, 10_000), min_size=1, max_size=8))
def test_a_json_round_trip_continues_the_same_match(prefix: Prefix, more: list[int]) -> None:
    game = prefix.game
    state = prefix.play().state
    loaded = game.from_json(json.loads(json.dumps(game.to_json(state))))
    for choice in more:
        if game.is_over(state):
            break
        actions = game.legal_actions(state)
        assert game.legal_actions(loaded) == actions
        action = actions[choice % len(actions)]
        seen = [e.for_seat(None) for e in game.apply(state, action)]
        assert [e.for_seat(None) for e in game.apply(loaded, action)] == seen
        assert dump(game, loaded) == dump(game, state)


@PROPERTY
@given(prefixes(), st.integers(0, 2**32))
def test_a_seat_view_is_a_function_of_what_it_knows(prefix: Prefix, salt: int) -> None:
    """Two positions a seat cannot tell apart (a world sampled for it, and another sampled from
    that one) show it the same view and, when it is to move, the same legal actions."""
    game = prefix.game
    state = prefix.play().state
    rng = random.Random(salt)
    for seat in range(prefix.players):
        world = game.sample_world(state, seat, rng)
        other = game.sample_world(world, seat, rng)
        seen = game.observation(state, seat)
        assert game.observation(world, seat) == seen
        assert game.observation(other, seat) == seen
        assert json.loads(json.dumps(seen)) == seen
        if game.to_move(state) == seat:
            assert game.legal_actions(world) == game.legal_actions(state)


TEXTS = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["stop", "draw", "skip", "to 3", "reroll all", "discard 9", "trade blind"]),
)


@PROPERTY
@given(prefixes(), st.lists(TEXTS, min_size=1, max_size=6), st.integers(0, 5))
def test_checking_a_text_never_changes_anything(
    prefix: Prefix, texts: list[str], seat: int
) -> None:
    """``Game.check`` and ``Match.prepare`` return an action or raise one of the action errors,
    and leave the position, its stream and the match as they were."""
    match = prefix.play()
    game = match.game
    before = (dump(game, match.state), match.version, match.view(None))
    legal = set(game.legal_actions(match.state))
    for text in [*texts, *match.legal(match.to_move if match.to_move is not None else 0)[:2]]:
        with contextlib.suppress(InvalidActionError, IllegalActionError):
            assert game.check(match.state, text) in legal
        try:
            match.prepare(seat % prefix.players, text, match.version)
        except LudotecaError as exc:
            assert isinstance(exc, InvalidActionError | IllegalActionError)
        assert (dump(game, match.state), match.version, match.view(None)) == before


@PROPERTY
@given(prefixes(), st.integers(0, STEPS))
def test_replaying_a_prefix_gives_the_match_at_that_version(prefix: Prefix, cut: int) -> None:
    match = prefix.play()
    cut = min(cut, match.version)
    earlier = prefix.play(cut)
    assert earlier.version == cut
    again = Match.replay(prefix.game, match.params, prefix.seed, match.players, match.steps[:cut])
    assert dump(prefix.game, again.state) == dump(prefix.game, earlier.state)
    assert again.record() == earlier.record()
    for seat in [*range(prefix.players), None]:
        assert again.view(seat) == earlier.view(seat)
        assert again.legal(seat) == earlier.legal(seat)
