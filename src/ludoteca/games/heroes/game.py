"""Heroes & Relics behind the common game interface: wiring only, the rules live in ``rules``."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core import JSON, Bot, Event, Game, GameSpec, Outcome, Stream
from ludoteca.core.encoding import Encoding
from ludoteca.core.game import Words
from ludoteca.core.spec import Board, Chance
from ludoteca.games.words import Messages

from . import notation, rules, view
from .bot import HeuristicBot
from .encoding import HeroesEncoding
from .rules import Action, HeroesState, legal_actions, play
from .words import HeroesWords


class HeroesGame(Game[HeroesState, Action]):
    """The rules of Heroes & Relics for two players."""

    spec = GameSpec(
        id="heroes",
        names={"en": "Heroes & Relics", "pt": "Heróis e Relíquias", "de": "Helden & Reliquien"},
        min_players=2,
        max_players=2,
        chance=Chance.SAMPLED,
        perfect_information=False,
        constant_sum=True,
        board=Board(
            "heroes.js",
            parts=tuple(f"heroes-{part}.js" for part in ("art", "panels", "text")),
            styles=("heroes.css",),
            words="heroes",
            picture="picture.jpg",
        ),
    )

    def setup(self, params: JSON, rng: Stream) -> tuple[HeroesState, list[Event]]:
        events: list[Event] = []
        return rules.setup(rng, events), events

    def start(self, params: JSON, rng: Stream) -> HeroesState:
        return rules.setup(rng, None)

    def players(self, state: HeroesState) -> int:
        return 2

    # the rules' own functions, called without a frame in between (search, playouts, OpenSpiel)
    to_move = staticmethod(rules.to_move)
    legal_actions = staticmethod(legal_actions)
    step = staticmethod(play)

    def apply_unchecked(self, state: HeroesState, action: Action) -> list[Event]:
        return rules.apply(state, action)

    def outcome(self, state: HeroesState) -> Outcome | None:
        return state.result

    def sample_world(self, state: HeroesState, seat: int, rng: random.Random) -> HeroesState:
        return rules.sample_world(state, seat, rng)

    def observation(self, state: HeroesState, seat: int | None) -> JSON:
        return view.observation(state, seat)

    def describe(self, state: HeroesState, seat: int | None) -> str:
        return view.describe(self.observation(state, seat), seat)

    def action_to_text(self, state: HeroesState, action: Action) -> str:
        return notation.action_to_text(action)

    def read_action(self, state: HeroesState, text: str) -> Action:
        return notation.read_action(text)

    def why_illegal(self, state: HeroesState, action: Action) -> str:
        return notation.why_illegal(state, action)

    def action_fields(self, state: HeroesState, action: Action) -> tuple[str, JSON]:
        return notation.action_fields(action)

    def max_length(self, players: int) -> int:
        return rules.MAX_DECISIONS

    def encoding(self, players: int) -> Encoding:
        return HeroesEncoding(players)

    def to_json(self, state: HeroesState) -> JSON:
        return notation.position_to_json(state)

    def from_json(self, data: Any) -> HeroesState:
        return notation.position_from_json(data)

    def heuristic_bot(self) -> Bot:
        return HeuristicBot()

    def words(self, lang: str) -> Words:
        return HeroesWords(Messages(lang, self))
