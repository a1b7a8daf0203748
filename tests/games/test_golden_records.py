"""Records made before a refactor still verify, replay to the very same match, and the bots that
made them still make them: golden records of each game, committed with the digest of everything
each match showed (positions, views, legal texts, pictures, events)."""

from __future__ import annotations

import json
import random

import pytest
from golden_trace import GOLDEN, trace

from ludoteca.bots import make_bot
from ludoteca.core import Match, MatchRecord, decide, verify
from ludoteca.games import get

DIGESTS: dict[str, str] = json.loads((GOLDEN / "digests.json").read_text(encoding="utf-8"))

# how the files were made, on the code before the game template (the table's dealing has changed
# since; the match seeds stored in the records are what count):
# ludoteca simulate heroes --games 3 --seed golden --bots medium,random --records DIR
# ludoteca simulate dice-heroes --players 3 --games 3 --seed golden --bots medium,random,easy ...
# ludoteca simulate dwarves --players 4 --games 2 --seed golden --bots medium,random,easy,medium ...
# ludoteca simulate dwarves --players 2 --games 1 --seed golden2 --bots medium ...
# liars-dice (added later): a Match per file, seed sha256("golden/<file name>"), seats of bots
# (medium, random, easy; easy, medium, random; medium, random) seeded as the test below seeds them


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_golden_record_verifies_and_replays_the_same_match(name: str) -> None:
    record = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    verdict = verify(record, get)
    assert verdict.ok, verdict.problems
    assert trace(record) == DIGESTS[name]


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_the_bots_still_choose_the_golden_actions(name: str) -> None:
    """The bots of each seat, seeded as the simulator seeded them, choose every recorded action."""
    record = MatchRecord.from_json(json.loads((GOLDEN / name).read_text(encoding="utf-8")))
    assert record.seed is not None
    game = get(record.game)
    bots = [make_bot(p.level or "random", game) for p in record.players]
    rngs = [random.Random(f"{record.seed}/bot/{seat}") for seat in range(len(bots))]
    match = Match(game, record.params, record.seed, record.players)
    for step in record.actions:
        action = decide(bots[step.seat], game, match.state, step.seat, rngs[step.seat])
        assert game.action_to_text(match.state, action) == step.action
        match.act(step.seat, step.action, by="bot")
    assert match.over
