"""The conformance suite: every game (the toy game of ``tests/toygame`` included), at every player
count, keeps the rules contract, played through the match authority (``Match``) as the server plays
it; the rules primitives on bare positions (``apply``, JSON, ``sample_world``) are checked too.

Random matches are long for some games (six dwarves); the costlier checks run on a sample of the
steps, drawn from the same seeded ``random.Random`` as the match, so every run checks the same."""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from kit.matches import random_end
from ludoteca.bots import RandomBot
from ludoteca.core import (
    Event,
    Game,
    IllegalActionError,
    InvalidActionError,
    Match,
    MatchOverError,
    NotYourTurnError,
    ReplayError,
    StaleVersionError,
    Step,
    UnknownGameError,
    decide,
    verify,
)
from ludoteca.games import all_games
from toygame import GAME as TOY

GAMES: dict[str, Game[Any, Any]] = {**all_games(), TOY.spec.id: TOY}
CASES = [
    # five and six seats only in the whole suite (``slow``): the largest tables cost the fast
    # lane most, and every rule they exercise is met at four seats too
    pytest.param(game_id, n, id=f"{game_id}-{n}p", marks=[pytest.mark.slow] if n > 4 else [])
    for game_id, game in GAMES.items()
    for n in range(game.spec.min_players, game.spec.max_players + 1)
]


def lookup(game_id: str) -> Game[Any, Any]:
    try:
        return GAMES[game_id]
    except KeyError:
        raise UnknownGameError(game_id) from None


def dump(game: Game[Any, Any], state: Any) -> str:
    return json.dumps(game.to_json(state), sort_keys=True)


def snapshot(match: Match) -> str:
    """Everything a match is and shows: position, version, steps, every seat's view and legal
    texts, the record."""
    seats = [*range(len(match.players)), None]
    return json.dumps(
        {
            "position": match.game.to_json(match.state),
            "version": match.version,
            "views": [match.view(s) for s in seats],
            "legal": [match.legal(s) for s in seats],
            "record": match.record().to_json(),
        },
        sort_keys=True,
    )


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
    game = GAMES[game_id]
    runs = []
    for _ in range(2):
        runs.append(
            [dump(game, m.state) for m in playthrough(game, players, "same", random.Random(3))]
        )
    assert runs[0] == runs[1]
    other = [dump(game, m.state) for m in playthrough(game, players, "other", random.Random(3))]
    assert other[0] != runs[0][0], "a different seed must deal a different match"


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_quiet_path_plays_the_same_match(game_id: str, players: int) -> None:
    """``new``/``start`` and ``step`` (no events built) give the very position that
    ``new_with_events`` and ``apply_unchecked`` give, step by step, streams included."""
    game = GAMES[game_id]
    for seed in ("quiet-1", "quiet-2"):
        pick = random.Random(seed)
        loud, _ = game.new_with_events({"players": players}, seed)
        quiet = game.new({"players": players}, seed)
        assert dump(game, quiet) == dump(game, loud)
        while actions := game.legal_actions(loud):
            action = pick.choice(actions)
            game.apply_unchecked(loud, action)
            game.step(quiet, action)
            assert dump(game, quiet) == dump(game, loud)
            assert game.legal_actions(quiet) == game.legal_actions(loud)
        assert game.outcome(quiet) == game.outcome(loud)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_exactly_the_seat_to_move_has_actions_until_the_end(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    for k in range(12):
        for match in playthrough(game, players, f"alive-{k}", random.Random(k)):
            to_move = match.to_move
            assert match.over == (to_move is None) == game.is_over(match.state)
            assert (match.outcome is None) != match.over
            for seat in range(players):
                texts = match.legal(seat)
                assert bool(texts) == (seat == to_move), (seat, to_move)
            assert match.legal(None) == []
            actions = game.legal_actions(match.state)
            assert bool(actions) == (not match.over)
            assert len(set(actions)) == len(actions), "legal actions must be distinct"
        assert match.outcome is not None
        assert all(0 <= s < players for s in match.outcome.winners)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_payoffs_keep_the_declared_utility(game_id: str, players: int) -> None:
    """What OpenSpiel is told (``GameSpec.constant_sum``) holds of every match: a constant-sum
    game names the seats that share every result (so the payoffs sum to 1); otherwise a match
    pays 1 in all or nothing (nobody won). Outcomes are in the canonical shape the records
    keep."""
    game = GAMES[game_id]
    for k in range(40):
        outcome = game.outcome(random_end(game, players, f"utility-{k}", random.Random(k)))
        assert outcome is not None
        assert outcome == outcome.canonical(players), outcome
        total = sum(outcome.payoff(seat, players) for seat in range(players))
        if game.spec.constant_sum:
            assert outcome.winners, outcome
            assert total == pytest.approx(1.0), outcome
        else:
            assert total == pytest.approx(1.0 if outcome.winners else 0.0), outcome


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_legal_action_applies_and_round_trips_as_text(game_id: str, players: int) -> None:
    """The rules primitives on bare positions: each legal action's text parses back to it and
    ``apply`` gives JSON-able events; ``check`` accepts each canonical text and changes nothing."""
    game = GAMES[game_id]
    for k in range(4):
        pick = random.Random(k)
        for match in playthrough(game, players, f"apply-{k}", pick):
            state = match.state
            before = dump(game, state)
            for action in game.legal_actions(state):
                text = game.action_to_text(state, action)
                assert game.read_action(state, text) == action, text
                assert game.check(state, text) == action, text
                trial = state.clone()
                events = game.apply(trial, action)
                assert all(isinstance(e, Event) for e in events)
                json.dumps([e.for_seat(s) for e in events for s in [*range(players), None]])
            assert dump(game, state) == before


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_legal_choices_are_the_legal_texts_as_data(game_id: str, players: int) -> None:
    """``legal_choices`` gives every legal action once, in the order of ``legal_texts``, as
    ``{text, kind, args}``: the kind is the text's first word and the args are plain JSON."""
    game = GAMES[game_id]
    for match in playthrough(game, players, "choices", random.Random(5)):
        state = match.state
        choices = game.legal_choices(state)
        assert [c["text"] for c in choices] == game.legal_texts(state)
        for choice in choices:
            assert set(choice) == {"text", "kind", "args"}
            assert choice["text"].split(" ", 1)[0] == choice["kind"]
            assert json.loads(json.dumps(choice["args"])) == choice["args"]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_package_follows_the_template(game_id: str, players: int) -> None:
    """Every game package has the template's names (``docs/games.md``), and its Game is wired to
    them: ``rules.legal_actions`` gives the Game's legal list, ``rules.play`` with an event list
    the position and events of ``apply_unchecked``, ``notation.why_illegal`` the explanation of
    ``check``'s refusal."""
    game = GAMES[game_id]
    rules = importlib.import_module(f"{game.package}.rules")
    notation = importlib.import_module(f"{game.package}.notation")
    seen: set[Any] = set()
    explained = 0
    for match in playthrough(game, players, "template", random.Random(7)):
        state = match.state
        actions = rules.legal_actions(state)
        assert actions == game.legal_actions(state)
        if match.over:
            break
        seen |= set(actions)
        for action in actions[:3]:
            played, events = state.clone(), []
            assert rules.play(played, action, events) is None
            applied = state.clone()
            assert events == game.apply_unchecked(applied, action)
            assert dump(game, played) == dump(game, applied)
        for action in sorted(seen - set(actions), key=repr)[:3]:
            why = notation.why_illegal(state, action)
            assert isinstance(why, str) and why, action
            assert game.why_illegal(state, action) == why
            explained += 1
    assert explained, "no illegal action was explained"


MALFORMED = ["", "   ", "xyzzy", "\x00", "🎲", "place", "reroll x y", "9" * 500, "move -1"]


def assert_refused(
    match: Match, error: type[Exception], seat: int, text: str, version: int | None = None
) -> None:
    """``prepare`` and ``act`` refuse with exactly ``error`` (not a subclass of it), and the
    position, version and steps are unchanged (the caller compares the full snapshot)."""
    before = (match.game.to_json(match.state), list(match.steps))
    with pytest.raises(error) as raised:
        match.prepare(seat, text, version)
    assert type(raised.value) is error, (type(raised.value), text)
    assert str(raised.value)
    if version is None:  # act takes no version: it acts on the current one
        with pytest.raises(error):
            match.act(seat, text)
    assert (match.game.to_json(match.state), list(match.steps)) == before


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_each_kind_of_bad_input_has_its_error_and_changes_nothing(
    game_id: str, players: int
) -> None:
    """Not your turn, malformed, illegal here, stale version, over: each its own error class, and
    the match (position, version, views, record) is the same afterwards."""
    game = GAMES[game_id]
    kinds: set[str] = set()
    for k in range(5):
        pick = random.Random(k)
        seen: set[str] = set()
        prepared = None
        for match in playthrough(game, players, f"bad-{k}", pick):
            if prepared is not None:  # prepared one version ago: the match has moved on
                before_commit = (dump(game, match.state), list(match.steps))
                with pytest.raises(StaleVersionError):
                    match.commit(prepared)
                assert (dump(game, match.state), list(match.steps)) == before_commit
                kinds.add("stale commit")
                prepared = None
            seat = match.to_move
            if seat is None:
                break
            legal = match.legal(seat)
            seen |= set(legal)
            if pick.random() > 0.15:
                continue
            before = snapshot(match)
            prepared = match.prepare(seat, legal[0], match.version)
            for other in range(players):
                if other != seat:
                    assert_refused(match, NotYourTurnError, other, legal[0])
                    kinds.add("not your turn")
            for text in MALFORMED:
                assert_refused(match, InvalidActionError, seat, text)
                with pytest.raises(InvalidActionError):
                    game.check(match.state, text)
            for text in sorted(seen - set(legal))[:10]:
                assert_refused(match, IllegalActionError, seat, text)
                kinds.add("illegal")
            for version in (match.version - 1, match.version + 1):
                if version >= 0:
                    assert_refused(match, StaleVersionError, seat, legal[0], version)
                    kinds.add("stale version")
            assert snapshot(match) == before, "prepare and refused actions must change nothing"
        assert match.over
        before = snapshot(match)
        for seat in range(players):
            for text in sorted(seen)[:3]:
                assert_refused(match, MatchOverError, seat, text)
        assert snapshot(match) == before
        with pytest.raises(IllegalActionError):  # the bare-position primitive refuses too
            game.apply_text(match.state, sorted(seen)[0])
    assert kinds >= {"not your turn", "illegal", "stale version", "stale commit"}


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_json_round_trip_continues_the_same_match(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    for k in range(4):
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
    """On the serialised view: the seed shows only once the match is over (the record alike),
    and a seat's view is a function of what that seat knows (a world resampled for it looks the
    same)."""
    game = GAMES[game_id]
    for k in range(12):
        seed = f"secret-seed-{game_id}-{k}"
        pick = random.Random(k)
        for match in playthrough(game, players, seed, pick):
            over = match.over
            if not over and pick.random() > 0.2:
                continue
            assert match.revealed_seed == (seed if over else None)
            assert (seed in match.record().dumps()) == over
            for seat in [*range(players), None]:
                view = match.view(seat)
                assert (seed in json.dumps(view)) == over
                assert view["seed"] == match.revealed_seed
                assert view["seat"] == seat
                assert view["to_move"] == match.to_move
                assert view["commitment"] == match.commitment
                assert view["position"] == game.observation(match.state, seat)
                if seat is None:
                    continue
                world = game.sample_world(match.state, seat, random.Random(pick.random()))
                assert world.rng.seed != match.state.rng.seed
                assert game.observation(world, seat) == view["position"]
                assert game.info_key(world, seat) == game.info_key(match.state, seat)
                if match.to_move == seat:
                    assert game.legal_actions(world) == game.legal_actions(match.state)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_sampled_worlds_depend_only_on_the_seat_information(game_id: str, players: int) -> None:
    """Sampling from the true state or from any world the seat cannot tell apart from it gives the
    same world for the same bot randomness: nothing hidden leaks into a bot's search."""
    game = GAMES[game_id]
    for k in range(8):
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
def test_replay_rebuilds_each_version_and_names_the_step_that_fails(
    game_id: str, players: int
) -> None:
    game = GAMES[game_id]
    params = {"players": players}
    for k in range(2):
        seed = f"replay-{k}"
        dumps = [dump(game, m.state) for m in playthrough(game, players, seed, random.Random(k))]
        match = Match(game, params, seed)
        for match in playthrough(game, players, seed, random.Random(k)):  # noqa: B007
            pass
        steps = list(match.steps)
        assert len(steps) == len(dumps) - 1
        for version in sorted({0, 1, len(steps) // 2, len(steps)}):
            again = Match.replay(game, params, seed, None, steps[:version])
            assert again.version == version
            assert dump(game, again.state) == dumps[version]
        assert snapshot(Match.replay(game, params, seed, None, steps)) == snapshot(match)

        bad = random.Random(k).randrange(len(steps))
        seat, text = steps[bad].seat, steps[bad].action
        there = Match.replay(game, params, seed, None, steps[:bad]).legal(seat)
        broken = [Step(seat, "xyzzy"), Step((seat + 1) % players, text)]
        broken += [Step(seat, s.action) for s in steps if s.action not in there][:1]
        for step in broken:
            replayed = Match(game, params, seed)
            with pytest.raises(ReplayError) as raised:
                replayed.replay_steps([*steps[:bad], step, *steps[bad + 1 :]])
            assert raised.value.step == bad + 1
            assert str(raised.value).startswith(f"step {bad + 1}: ")
            assert replayed.version == bad
            assert dump(game, replayed.state) == dumps[bad]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_bots_finish_matches_whose_records_verify(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    bots = [RandomBot(), game.heuristic_bot(), game.search_bot()]
    for k in range(4):
        match = Match(game, {"players": players}, f"bots-{k}")
        rng = random.Random(k)
        while (seat := match.to_move) is not None:
            action = decide(bots[(seat + k) % 3], game, match.state, seat, rng)
            assert action in game.legal_actions(match.state)
            match.act(seat, game.action_to_text(match.state, action), by="bot")
        record = json.loads(match.record().dumps())
        verdict = verify(record, lookup)
        assert verdict.ok, verdict.problems
        assert verdict.outcome == match.outcome
        assert not verify({**record, "seed": "another seed"}, lookup).ok


def test_every_game_has_a_catalogue_entry_in_three_languages() -> None:
    for game in GAMES.values():
        entry = game.catalogue()
        for lang in ("en", "pt", "de"):
            assert entry[lang]["name"], (game.spec.id, lang)
            assert game.spec.name(lang)
        assert game.rules_page("en")


def test_every_game_declares_its_bot_anchors() -> None:
    """Each game rates its own bots (``anchors.json``, read by ``Game.anchors``): one rating per
    level, ``random`` at the pinned 10 and no level below it."""
    for game in GAMES.values():
        levels = game.anchors()
        assert list(levels) == ["random", "easy", "medium", "hard"], game.spec.id
        assert levels["random"] == 10.0, game.spec.id
