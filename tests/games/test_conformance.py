"""The conformance suite: every registered game, at every player count, keeps the rules contract."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from ludoteca.core import (
    Event,
    Game,
    IllegalActionError,
    InvalidActionError,
    Match,
    decide,
    verify,
)
from ludoteca.games import all_games, get

CASES = [
    pytest.param(game_id, n, id=f"{game_id}-{n}p")
    for game_id, game in all_games().items()
    for n in range(game.spec.min_players, game.spec.max_players + 1)
]


def dump(game: Game[Any, Any], state: Any) -> str:
    return json.dumps(game.to_json(state), sort_keys=True)


def playthrough(
    game: Game[Any, Any], players: int, seed: str, pick: random.Random
) -> Iterator[Match]:
    """A random match through the match authority, yielded after every step (the same object,
    moving on: clone its state to keep one)."""
    match = Match(game, {"players": players}, seed)
    yield match
    for _ in range(20_000):
        seat = match.to_move
        if seat is None:
            return
        match.act(seat, pick.choice(match.legal(seat)))
        yield match
    raise AssertionError("a random match did not end within 20,000 actions")


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_same_seed_same_match(game_id: str, players: int) -> None:
    game = get(game_id)
    runs = []
    for _ in range(2):
        runs.append(
            [dump(game, m.state) for m in playthrough(game, players, "same", random.Random(3))]
        )
    assert runs[0] == runs[1]
    other = [dump(game, m.state) for m in playthrough(game, players, "other", random.Random(3))]
    assert other[0] != runs[0][0], "a different seed must deal a different match"


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_actions_exist_exactly_while_someone_can_act(game_id: str, players: int) -> None:
    game = get(game_id)
    for k in range(20):
        for match in playthrough(game, players, f"alive-{k}", random.Random(k)):
            state = match.state
            actions = game.legal_actions(state)
            over = game.is_over(state)
            assert bool(actions) == (not over)
            assert (game.to_move(state) is None) == over
            assert len(set(actions)) == len(actions), "legal actions must be distinct"
        assert game.outcome(state) is not None


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_legal_action_applies_and_round_trips_as_text(game_id: str, players: int) -> None:
    game = get(game_id)
    for k in range(6):
        for match in playthrough(game, players, f"apply-{k}", random.Random(k)):
            state = match.state
            for action in game.legal_actions(state):
                text = game.action_to_text(state, action)
                assert game.parse_action(state, text) == action, text
                trial = state.clone()
                events = game.apply(trial, action)
                assert all(isinstance(e, Event) for e in events)
                json.dumps([e.for_seat(None) for e in events])


MALFORMED = ["", "   ", "xyzzy", "\x00", "🎲", "place", "reroll x y", "9" * 500, "move -1"]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_bad_actions_raise_and_change_nothing(game_id: str, players: int) -> None:
    game = get(game_id)
    seen_texts: set[str] = set()
    for k in range(8):
        for match in playthrough(game, players, f"bad-{k}", random.Random(k)):
            state = match.state
            before = dump(game, state)
            legal = set(game.legal_texts(state))
            seen_texts |= legal
            for text in MALFORMED:
                with pytest.raises((InvalidActionError, IllegalActionError)):
                    game.apply_text(state, text)
                assert dump(game, state) == before
            # well-formed texts that are legal elsewhere but not here
            for text in sorted(seen_texts - legal)[:25]:
                with pytest.raises((InvalidActionError, IllegalActionError)):
                    game.apply_text(state, text)
                assert dump(game, state) == before
        with pytest.raises(IllegalActionError):
            game.apply_text(state, sorted(seen_texts)[0])
        assert dump(game, state) == before


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_json_round_trip_continues_the_same_match(game_id: str, players: int) -> None:
    game = get(game_id)
    for k in range(5):
        pick = random.Random(k)
        for n, match in enumerate(playthrough(game, players, f"json-{k}", pick)):
            state = match.state
            data = game.to_json(state)
            loaded = game.from_json(json.loads(json.dumps(data)))
            assert game.to_json(loaded) == data
            assert game.legal_actions(loaded) == game.legal_actions(state)
            if n % 7 == 0 and not game.is_over(state):
                action = game.legal_actions(state)[0]
                a, b = state.clone(), loaded
                game.apply(a, action)
                game.apply(b, action)
                assert game.to_json(a) == game.to_json(b)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_views_show_each_seat_only_what_it_may_see(game_id: str, players: int) -> None:
    """Over many random matches, on the serialised view: a seat's view is a function of what that
    seat knows (a world resampled for it looks the same), and the seed shows only at the end."""
    game = get(game_id)
    for k in range(40):
        seed = f"secret-seed-{game_id}-{k}"
        pick = random.Random(k)
        for match in playthrough(game, players, seed, pick):
            state = match.state
            over = game.is_over(state)
            for seat in [*range(players), None]:
                text = json.dumps(match.view(seat))
                assert (seed in text) == over
                if seat is None or pick.random() > 0.3:
                    continue
                world = game.sample_world(state, seat, random.Random(pick.random()))
                assert world.rng.seed != state.rng.seed
                assert game.observation(world, seat) == game.observation(state, seat)
                assert game.info_key(world, seat) == game.info_key(state, seat)
                if game.to_move(state) == seat:
                    assert game.legal_actions(world) == game.legal_actions(state)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_sampled_worlds_depend_only_on_the_seat_information(game_id: str, players: int) -> None:
    """Sampling from the true state or from any world the seat cannot tell apart from it gives the
    same world for the same bot randomness: nothing hidden leaks into a bot's search."""
    game = get(game_id)
    for k in range(10):
        pick = random.Random(k)
        for match in playthrough(game, players, f"worlds-{k}", pick):
            state = match.state
            if game.is_over(state) or pick.random() > 0.25:
                continue
            for seat in range(players):
                lookalike = game.sample_world(state, seat, random.Random(k * 7919 + seat))
                a = game.sample_world(state, seat, random.Random(99))
                b = game.sample_world(lookalike, seat, random.Random(99))
                assert dump(game, a) == dump(game, b)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_bots_finish_matches_that_verify(game_id: str, players: int) -> None:
    from ludoteca.bots import RandomBot

    game = get(game_id)
    bot = RandomBot()
    for k in range(3):
        match = Match(game, {"players": players}, f"bots-{k}")
        rng = random.Random(k)
        while not game.is_over(match.state):
            seat = game.to_move(match.state)
            assert seat is not None
            action = decide(bot, game, match.state, seat, rng)
            match.act(seat, game.action_to_text(match.state, action), by="bot")
        verdict = verify(json.loads(match.record().dumps()), get)
        assert verdict.ok, verdict.problems
        assert verdict.outcome == match.outcome


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_heuristic_bot_plays_legal_actions(game_id: str, players: int) -> None:
    game = get(game_id)
    bot = game.heuristic_bot()
    for k in range(3):
        rng = random.Random(k)
        state = game.new({"players": players}, f"heuristic-{k}")
        while not game.is_over(state):
            seat = game.to_move(state)
            assert seat is not None
            action = decide(bot, game, state, seat, rng)
            assert action in game.legal_actions(state)
            game.apply(state, action)


def test_every_game_has_a_catalogue_entry_in_three_languages() -> None:
    for game in all_games().values():
        entry = game.catalogue()
        for lang in ("en", "pt", "de"):
            assert entry[lang]["name"], (game.spec.id, lang)
            assert game.spec.name(lang)
