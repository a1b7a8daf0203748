"""Dice Heroes behind the common game interface: wiring only, the rules live in ``rules``."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core import JSON, Bot, Event, Game, GameSpec, Outcome, Stream
from ludoteca.core.encoding import Encoding
from ludoteca.core.game import Words
from ludoteca.core.spec import Board, Chance
from ludoteca.games.words import Messages

from . import notation, rules, view
from .bot import SEARCH_DUEL_SAFE, HeuristicBot
from .encoding import DiceHeroesEncoding
from .rules import Action, DiceState, legal_actions, play
from .words import DiceHeroesWords


class DiceHeroesGame(Game[DiceState, Action]):
    """Dice Heroes (Würfelhelden) for 2-4 players."""

    spec = GameSpec(
        id="dice-heroes",
        names={"en": "Dice Heroes", "pt": "Heróis dos Dados", "de": "Würfelhelden"},
        min_players=2,
        max_players=4,
        chance=Chance.SAMPLED,  # explicit too, one node per colour of a roll (56 outcomes at most)
        chance_outcomes=56,  # the faces three yellow dice can show (the roll-off: one die, 6)
        perfect_information=True,
        constant_sum=True,
        board=Board(
            "dice-heroes.js",
            parts=("dice-art.js", "dice-heroes-text.js"),
            styles=("dice-heroes.css",),
            words="dice",
            picture="picture.jpg",
        ),
    )

    def setup(self, params: JSON, rng: Stream) -> tuple[DiceState, list[Event]]:
        events: list[Event] = []
        return rules.setup(params["players"], rng, events), events

    def start(self, params: JSON, rng: Stream) -> DiceState:
        return rules.setup(params["players"], rng, None)

    def players(self, state: DiceState) -> int:
        return state.players

    # the rules' own functions, called without a frame in between (search, playouts, OpenSpiel)
    to_move = staticmethod(rules.to_move)
    legal_actions = staticmethod(legal_actions)
    step = staticmethod(play)

    def apply_unchecked(self, state: DiceState, action: Action) -> list[Event]:
        return rules.apply(state, action)

    resume = staticmethod(rules.resume)
    """Go on with an action a draw stopped mid-roll (explicit chance)."""

    dice_to_roll = staticmethod(rules.dice_to_roll)
    """The dice a stopped roll still rolls, as their faces (explicit chance, one node per run of
    dice of one colour)."""

    def outcome(self, state: DiceState) -> Outcome | None:
        return rules.outcome(state)

    def sample_world(self, state: DiceState, seat: int, rng: random.Random) -> DiceState:
        return rules.sample_world(state, seat, rng)

    def observation(self, state: DiceState, seat: int | None) -> JSON:
        return view.observation(state, seat)

    def action_to_text(self, state: DiceState, action: Action) -> str:
        return notation.action_to_text(action)

    def read_action(self, state: DiceState, text: str) -> Action:
        return notation.read_action(state, text)

    def why_illegal(self, state: DiceState, action: Action) -> str:
        return notation.why_illegal(state, action)

    def action_fields(self, state: DiceState, action: Action) -> tuple[str, JSON]:
        return notation.action_fields(action)

    def max_length(self, players: int) -> int:
        return rules.MAX_DECISIONS

    def encoding(self, players: int) -> Encoding:
        return DiceHeroesEncoding(players)

    def to_json(self, state: DiceState) -> JSON:
        return notation.position_to_json(state)

    def from_json(self, data: Any) -> DiceState:
        return notation.position_from_json(data)

    def heuristic_bot(self) -> Bot:
        return HeuristicBot()

    def search_bot(self) -> Bot:
        """The heuristic that, at a two-player table, stops as soon as it outbids and keeps
        growth faces all game: measured stronger than ``medium`` (``bot.SEARCH_DUEL_SAFE``)."""
        return HeuristicBot(duel_safe=SEARCH_DUEL_SAFE, duel_growth=True)

    def words(self, lang: str) -> Words:
        return DiceHeroesWords(Messages(lang, self))
