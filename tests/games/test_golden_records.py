"""Records made before a refactor still verify, replay to the very same match, and the bots that
made them still make them: golden records of each game, committed with the digest of everything
each match showed (positions, views, legal texts, pictures, events)."""

from __future__ import annotations

import json

import pytest
from golden_trace import GOLDEN, trace

from ludoteca.bots.arena import MatchResult, run
from ludoteca.core import verify
from ludoteca.games import get

DIGESTS: dict[str, str] = json.loads((GOLDEN / "digests.json").read_text(encoding="utf-8"))

# how each file was made: ludoteca simulate <game> --players N --games G --seed S --bots ...
MADE = [
    ("heroes", 2, ["medium", "random"], 3, "golden", "heroes-{:05d}.json"),
    ("dice-heroes", 3, ["medium", "random", "easy"], 3, "golden", "dice-heroes-{:05d}.json"),
    ("dwarves", 4, ["medium", "random", "easy", "medium"], 2, "golden", "dwarves-{:05d}.json"),
    ("dwarves", 2, ["medium", "medium"], 1, "golden2", "dwarves-2p-{:05d}.json"),
]


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_golden_record_verifies_and_replays_the_same_match(name: str) -> None:
    record = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    verdict = verify(record, get)
    assert verdict.ok, verdict.problems
    assert trace(record) == DIGESTS[name]


@pytest.mark.parametrize("made", MADE, ids=[m[-1] for m in MADE])
def test_the_bots_still_play_the_golden_matches(
    made: tuple[str, int, list[str], int, str, str],
) -> None:
    game_id, players, bots, games, seed, pattern = made
    results: list[MatchResult] = []
    run(game_id, players, bots, games, seed, keep_records=True, on_result=results.append)
    assert len(results) == games
    for result in results:
        stored = (GOLDEN / pattern.format(result.index)).read_text(encoding="utf-8")
        assert result.record is not None
        assert json.loads(result.record) == json.loads(stored)
