"""A digest of everything a match shows, step by step, to pin behaviour across refactors.

For a record: replay it through ``Match`` and hash, after set-up and after every step, what the
game itself produces: the full position JSON, each seat's and a spectator's observation, legal
texts and text picture, whose turn it is, the outcome, and the events as every seat sees them.
Same digest = same actions, texts, JSON and events. (What ``Match`` adds around them, such as the
chain in a view, is core's and may change without the games changing.)
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ludoteca.core import Event, Match, MatchRecord
from ludoteca.games import get

GOLDEN = Path(__file__).parent / "golden"


def _events(events: list[Event], players: int) -> list[Any]:
    return [[e.for_seat(s) for s in [*range(players), None]] for e in events]


def trace(record: dict[str, Any]) -> str:
    """The hex digest of the match a record describes."""
    game = get(record["game"])
    parsed = MatchRecord.from_json(record)
    match = Match(game, parsed.params, record["seed"], parsed.players)
    players = len(match.players)
    digest = hashlib.sha256()

    def snap(events: list[Event]) -> None:
        seats = [*range(players), None]
        outcome = game.outcome(match.state)
        frame = {
            "position": game.to_json(match.state),
            "to_move": game.to_move(match.state),
            "outcome": outcome.to_json() if outcome else None,
            "observations": [game.observation(match.state, s) for s in seats],
            "legal": [match.legal(s) for s in seats],
            "pictures": [game.describe(match.state, s) for s in seats],
            "events": _events(events, players),
        }
        digest.update(json.dumps(frame, sort_keys=True).encode())

    snap(match.opening_events)
    for step in parsed.actions:
        snap(match.act(step.seat, step.action, step.by))
    return digest.hexdigest()


def main() -> None:
    digests = {
        path.name: trace(json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(GOLDEN.glob("*.json"))
        if path.name != "digests.json"
    }
    (GOLDEN / "digests.json").write_text(json.dumps(digests, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
