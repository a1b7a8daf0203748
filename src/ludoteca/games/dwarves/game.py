"""Return of the Dwarves behind the common game interface: wiring only, the rules live in ``rules``
and the modules it names."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core import JSON, Bot, Event, Game, GameSpec, Outcome, Stream

from . import notation, rules, view
from .actions import Action
from .bot import HeuristicBot
from .choices import legal
from .play import act
from .state import DwarvesState


class DwarvesGame(Game[DwarvesState, Action]):
    """The rules of ``dwarves`` for 2-6 players (extra dwarves at 2-3, the expansion at 5-6)."""

    spec = GameSpec(
        id="dwarves",
        names={
            "en": "Return of the Dwarves – The Great Hall",
            "pt": "O Retorno dos Anões – O Grande Salão",
            "de": "Die Rückkehr der Zwerge – Die große Halle",
        },
        min_players=2,
        max_players=6,
    )

    def setup(self, params: JSON, rng: Stream) -> tuple[DwarvesState, list[Event]]:
        events: list[Event] = []
        return rules.setup(params["players"], rng, events), events

    def start(self, params: JSON, rng: Stream) -> DwarvesState:
        return rules.setup(params["players"], rng, None)

    def players(self, state: DwarvesState) -> int:
        return state.lineup.players

    def to_move(self, state: DwarvesState) -> int | None:
        return rules.to_move(state)

    def legal_actions(self, state: DwarvesState) -> list[Action]:
        return legal(state)

    def apply_unchecked(self, state: DwarvesState, action: Action) -> list[Event]:
        return rules.apply(state, action)

    def step(self, state: DwarvesState, action: Action) -> None:
        act(state, action, None)

    def outcome(self, state: DwarvesState) -> Outcome | None:
        return rules.outcome(state)

    def sample_world(self, state: DwarvesState, seat: int, rng: random.Random) -> DwarvesState:
        return rules.sample_world(state, seat, rng)

    def observation(self, state: DwarvesState, seat: int | None) -> JSON:
        return view.observation(state, seat)

    def action_to_text(self, state: DwarvesState, action: Action) -> str:
        return notation.action_to_text(action)

    def parse_action(self, state: DwarvesState, text: str) -> Action:
        return notation.parse_action(state, text)

    def to_json(self, state: DwarvesState) -> JSON:
        return notation.position_to_json(state)

    def from_json(self, data: Any) -> DwarvesState:
        return notation.position_from_json(data)

    def heuristic_bot(self) -> Bot:
        return HeuristicBot()
