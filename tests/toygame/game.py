"""High Card behind the common game interface: wiring only."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core import JSON, Bot, Event, Game, GameSpec, Outcome, Stream
from ludoteca.core.encoding import Encoding
from ludoteca.core.game import Words
from ludoteca.core.spec import Board, Chance

from . import notation, rules, view
from .bot import HeuristicBot
from .encoding import HighCardEncoding
from .rules import MAX_DECISIONS, Action, HighCardState
from .words import HighCardWords


class HighCardGame(Game[HighCardState, Action]):
    spec = GameSpec(
        id="high-card",
        names={"en": "High Card", "pt": "Carta Alta", "de": "Hohe Karte"},
        min_players=2,
        max_players=2,
        chance=Chance.SAMPLED,
        perfect_information=False,
        constant_sum=True,
        board=Board("board.js", styles=("board.css",), words="high-card"),
    )

    def setup(self, params: JSON, rng: Stream) -> tuple[HighCardState, list[Event]]:
        return rules.setup(rng)

    def players(self, state: HighCardState) -> int:
        return 2

    def to_move(self, state: HighCardState) -> int | None:
        return rules.mover(state)

    def legal_actions(self, state: HighCardState) -> list[Action]:
        return rules.legal_actions(state)

    def apply_unchecked(self, state: HighCardState, action: Action) -> list[Event]:
        return rules.apply(state, action)

    def step(self, state: HighCardState, action: Action) -> None:
        rules.play(state, action)

    def outcome(self, state: HighCardState) -> Outcome | None:
        return rules.outcome(state)

    def sample_world(self, state: HighCardState, seat: int, rng: random.Random) -> HighCardState:
        return rules.sample_world(state, seat, rng)

    def observation(self, state: HighCardState, seat: int | None) -> JSON:
        return view.observation(state, seat)

    def action_to_text(self, state: HighCardState, action: Action) -> str:
        return notation.action_to_text(action)

    def read_action(self, state: HighCardState, text: str) -> Action:
        return notation.read_action(text)

    def why_illegal(self, state: HighCardState, action: Action) -> str:
        return notation.why_illegal(state, action)

    def action_fields(self, state: HighCardState, action: Action) -> tuple[str, JSON]:
        return notation.action_fields(action)

    def to_json(self, state: HighCardState) -> JSON:
        return notation.position_to_json(state)

    def from_json(self, data: Any) -> HighCardState:
        return notation.position_from_json(data)

    def heuristic_bot(self) -> Bot:
        return HeuristicBot()

    def max_length(self, players: int) -> int:
        return MAX_DECISIONS

    def encoding(self, players: int) -> Encoding:
        return HighCardEncoding(players)

    def words(self, lang: str) -> Words:
        return HighCardWords(lang)
