"""Return of the Dwarves behind the common game interface: wiring only, the rules live in ``rules``
and the modules it names."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core import JSON, Bot, Event, Game, GameSpec, Outcome, Stream
from ludoteca.core.encoding import Encoding
from ludoteca.core.game import Words
from ludoteca.core.spec import Board, Chance
from ludoteca.games.words import Messages

from . import notation, rules, view
from .actions import Action
from .bot import SEARCH_GIFT, SEARCH_MEETING, SEARCH_RIVAL, SEARCH_RIVAL_EXTRA, HeuristicBot
from .encoding import DwarvesEncoding
from .state import DwarvesState
from .words import DwarvesWords


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
        chance=Chance.SAMPLED,
        perfect_information=True,  # every chest is open; only the pool's order is unknown
        constant_sum=False,  # the dragon may win: then nobody at the table scores
        board=Board(
            "dwarves.js",
            parts=("dwarves-art.js", "dwarves-text.js"),
            styles=("dwarves.css",),
            words="dwarves",
            picture="picture.jpg",
        ),
    )

    def setup(self, params: JSON, rng: Stream) -> tuple[DwarvesState, list[Event]]:
        events: list[Event] = []
        return rules.setup(params["players"], rng, events), events

    def start(self, params: JSON, rng: Stream) -> DwarvesState:
        return rules.setup(params["players"], rng, None)

    def players(self, state: DwarvesState) -> int:
        return state.lineup.players

    to_move = staticmethod(rules.to_move)

    # the rules' own functions, called without a frame in between (search and playouts)
    legal_actions = staticmethod(rules.legal_actions)
    step = staticmethod(rules.play)

    def apply_unchecked(self, state: DwarvesState, action: Action) -> list[Event]:
        return rules.apply(state, action)

    def outcome(self, state: DwarvesState) -> Outcome | None:
        return rules.outcome(state)

    def sample_world(self, state: DwarvesState, seat: int, rng: random.Random) -> DwarvesState:
        return rules.sample_world(state, seat, rng)

    def observation(self, state: DwarvesState, seat: int | None) -> JSON:
        return view.observation(state, seat)

    def action_to_text(self, state: DwarvesState, action: Action) -> str:
        return notation.action_to_text(action)

    def read_action(self, state: DwarvesState, text: str) -> Action:
        return notation.read_action(state, text)

    def why_illegal(self, state: DwarvesState, action: Action) -> str:
        return notation.why_illegal(state, action)

    def action_fields(self, state: DwarvesState, action: Action) -> tuple[str, JSON]:
        return notation.action_fields(action)

    def max_length(self, players: int) -> int:
        return rules.max_decisions(players)

    def encoding(self, players: int) -> Encoding:
        return DwarvesEncoding(players)

    def to_json(self, state: DwarvesState) -> JSON:
        return notation.position_to_json(state)

    def from_json(self, data: Any) -> DwarvesState:
        return notation.position_from_json(data)

    def heuristic_bot(self) -> Bot:
        return HeuristicBot()

    def search_bot(self) -> Bot:
        return HeuristicBot(
            SEARCH_MEETING, rival=SEARCH_RIVAL, rival_extra=SEARCH_RIVAL_EXTRA, gift=SEARCH_GIFT
        )

    def words(self, lang: str) -> Words:
        return DwarvesWords(Messages(lang, self))
