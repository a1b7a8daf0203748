"""Liar's Dice behind the common game interface: wiring only, the rules live in ``rules``."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core import JSON, Bot, Event, Game, GameSpec, Outcome, Stream
from ludoteca.core.encoding import Encoding
from ludoteca.core.game import Words
from ludoteca.core.spec import Board, Chance, Option
from ludoteca.games.words import Messages

from . import notation, rules, view
from .bot import HeuristicBot
from .encoding import LiarsDiceEncoding
from .rules import BIDDING, MAX_DICE, ROUNDS, Action, LiarsState, legal_actions, play
from .words import LiarsDiceWords


class LiarsDiceGame(Game[LiarsState, Action]):
    """Liar's Dice for 2-6 players, with its table options: ``dice`` (1-5 a player), ``rounds``
    (``last-standing`` or ``one``) and ``bidding`` (``reset-face`` or ``reset-quantity``)."""

    spec = GameSpec(
        id="liars-dice",
        names={"en": "Liar's Dice", "pt": "Dado Mentiroso", "de": "Lügenwürfel"},
        min_players=2,
        max_players=6,
        chance=Chance.SAMPLED,
        perfect_information=False,
        constant_sum=True,
        board=Board(
            "liars-dice.js",
            parts=("liars-text.js",),
            styles=("liars-dice.css",),
            words="liars",
            picture="picture.jpg",
        ),
        options=(
            Option("dice", tuple(range(1, MAX_DICE + 1)), MAX_DICE),
            Option("rounds", ROUNDS, ROUNDS[0]),
            Option("bidding", BIDDING, BIDDING[0]),
        ),
    )

    def setup(self, params: JSON, rng: Stream) -> tuple[LiarsState, list[Event]]:
        events: list[Event] = []
        return self._setup(params, rng, events), events

    def start(self, params: JSON, rng: Stream) -> LiarsState:
        return self._setup(params, rng, None)

    @staticmethod
    def _setup(params: JSON, rng: Stream, events: list[Event] | None) -> LiarsState:
        return rules.setup(
            params["players"],
            params.get("dice", MAX_DICE),
            params.get("rounds", ROUNDS[0]),
            params.get("bidding", BIDDING[0]),
            rng,
            events=events,
        )

    def players(self, state: LiarsState) -> int:
        return state.players

    # the rules' own functions, called without a frame in between (search, playouts, OpenSpiel)
    to_move = staticmethod(rules.to_move)
    legal_actions = staticmethod(legal_actions)
    step = staticmethod(play)

    def apply_unchecked(self, state: LiarsState, action: Action) -> list[Event]:
        return rules.apply(state, action)

    def outcome(self, state: LiarsState) -> Outcome | None:
        return rules.outcome(state)

    def sample_world(self, state: LiarsState, seat: int, rng: random.Random) -> LiarsState:
        return rules.sample_world(state, seat, rng)

    def observation(self, state: LiarsState, seat: int | None) -> JSON:
        return view.observation(state, seat)

    def action_to_text(self, state: LiarsState, action: Action) -> str:
        return notation.action_to_text(action)

    def read_action(self, state: LiarsState, text: str) -> Action:
        return notation.read_action(text)

    def why_illegal(self, state: LiarsState, action: Action) -> str:
        return notation.why_illegal(state, action)

    def action_fields(self, state: LiarsState, action: Action) -> tuple[str, JSON]:
        return notation.action_fields(action)

    def max_length(self, players: int) -> int:
        return rules.max_decisions(players)

    def encoding(self, players: int) -> Encoding:
        return LiarsDiceEncoding(players)

    def to_json(self, state: LiarsState) -> JSON:
        return notation.position_to_json(state)

    def from_json(self, data: Any) -> LiarsState:
        return notation.position_from_json(data)

    def heuristic_bot(self) -> Bot:
        return HeuristicBot()

    def words(self, lang: str) -> Words:
        return LiarsDiceWords(Messages(lang, self))
