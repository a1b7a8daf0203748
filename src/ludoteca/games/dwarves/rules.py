"""Return of the Dwarves – The Great Hall: the game object (set-up and the rules contract)."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core import JSON, Bot, Event, Game, GameSpec, Outcome, Stream

from .actions import Action
from .board import board, lay_ring
from .choices import legal
from .lineup import EXTRA, lineup
from .notation import action_text, parse
from .play import act, begin_turn
from .position import dump, load
from .scoring import figure_scores
from .state import OVER, DwarvesState
from .stones import NKINDS, sorted_pool, stone_set, stones
from .view import observe

START_STONES = 3
SPEC = GameSpec(
    id="dwarves",
    names={
        "en": "Return of the Dwarves – The Great Hall",
        "pt": "O Retorno dos Anões – O Grande Salão",
        "de": "Die Rückkehr der Zwerge – Die große Halle",
    },
    min_players=2,
    max_players=6,
)


class DwarvesGame(Game[DwarvesState, Action]):
    """The rules of ``dwarves`` for 2-6 players (extra dwarves at 2-3, the expansion at 5-6)."""

    spec = SPEC

    def setup(self, params: JSON, rng: Stream) -> tuple[DwarvesState, list[Event]]:
        players = params["players"]
        cast = lineup(players)
        ring = board(lay_ring(players, rng))
        state = DwarvesState(ring, cast, rng)
        state.pool = sorted_pool(stone_set(players))
        rng.shuffle(state.pool)
        state.pos = [ring.nxt[ring.portal][face] for face in cast.faces]
        state.start = next(
            d
            for i in range(1, ring.size)
            for d in range(cast.size)
            if state.pos[d] == (ring.passage + i) % ring.size and cast.seats[d] != EXTRA
        )
        events = [
            Event(
                "setup",
                {
                    "ring": list(ring.tiles),
                    "dwarves": {c: state.pos[d] for d, c in enumerate(cast.colours)},
                    "hobbit": state.hobbit,
                    "dragon": state.dragon,
                    "start": cast.colours[state.start],
                },
            )
        ]
        for d in range(cast.size):
            for _ in range(START_STONES):
                state.chest[d * NKINDS + state.pool.pop()] += 1
            events.append(
                Event("deal", {"dwarf": cast.colours[d], "stones": stones(state.counts(d))})
            )
        events.append(Event("round", {"round": 1}))
        begin_turn(state, state.start, events)
        return state, events

    def players(self, state: DwarvesState) -> int:
        return state.lineup.players

    def to_move(self, state: DwarvesState) -> int | None:
        return None if state.phase == OVER else state.lineup.seats[state.turn]

    def legal_actions(self, state: DwarvesState) -> list[Action]:
        return legal(state)

    def apply_unchecked(self, state: DwarvesState, action: Action) -> list[Event]:
        return act(state, action)

    def outcome(self, state: DwarvesState) -> Outcome | None:
        result = state.result
        if result is None:
            return None
        cast = state.lineup
        keys = figure_scores(state)
        scores = tuple(float(keys[cast.seats.index(seat)][0]) for seat in range(cast.players))
        winner = result.winner
        if winner == cast.size:
            return Outcome((), "dragon", False, scores)
        if cast.seats[winner] == EXTRA:
            return Outcome((), "extra-dwarf", False, scores)
        reason = "race" if len(result.tied) > 1 else "score"
        return Outcome((cast.seats[winner],), reason, False, scores)

    def observation(self, state: DwarvesState, seat: int | None) -> JSON:
        return observe(state)

    def sample_world(self, state: DwarvesState, seat: int, rng: random.Random) -> DwarvesState:
        world = state.clone()
        world.pool = sorted(state.pool)
        rng.shuffle(world.pool)
        world.rng = Stream(f"{rng.getrandbits(128):032x}")
        return world

    def action_to_text(self, state: DwarvesState, action: Action) -> str:
        return action_text(action)

    def parse_action(self, state: DwarvesState, text: str) -> Action:
        return parse(state, text)

    def to_json(self, state: DwarvesState) -> JSON:
        return dump(state)

    def from_json(self, data: Any) -> DwarvesState:
        return load(data)

    def heuristic_bot(self) -> Bot:
        from .bot import HeuristicBot

        return HeuristicBot()
