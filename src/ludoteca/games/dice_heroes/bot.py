"""The heuristic Dice Heroes bot: hunt when outbidding pays, else chase the big treasure."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from ludoteca.core import Game

from .dice import COIN, GROWS, ROLL, SIDES, SWORDS, X
from .rules import HUES, ROLLS, STOP, Action, DiceState, poster_stack, to_beat

HOLD = 0.6
"""The share of the top poster's value that lying at the posters is worth (it may be outbid)."""
SAFE_PER_DIE = 1.5
"""Swords per die of the strongest rival above which a lead is safe enough to stop."""
GROWTH = 2.5
"""What a growth face is worth, in coins, while the game is young."""

SEARCH_DUEL_SAFE = 0.0
"""``SAFE_PER_DIE`` of the policy ``hard`` searches with (``DiceHeroesGame.search_bot``) at a
two-player table: it stops as soon as its swords outbid the posters. With it, and with growth
faces kept all game while the tableau still holds their colour, the heuristic alone took 57.3% of
the wins in 20,000 two-player matches against ``medium`` (docs/bots.md); at three and four players
both changes lost to ``medium`` (27.2% and 20.9% of the wins, against a fair 33% and 25%), so
there the search policy plays as ``medium`` does."""


def _hunt_odds(colour: int, rolls: int) -> tuple[float, ...]:
    """Chances of 0, 1, 2, ... swords on a die re-rolled up to ``rolls`` times until it shows
    swords (an X locks it with none)."""
    odds = [0.0] * (max(SWORDS) + 1)
    blank = 1.0
    for _ in range(rolls):
        for face in ROLL[colour]:
            if SWORDS[face]:
                odds[SWORDS[face]] += blank / SIDES
            elif face == X:
                odds[0] += blank / SIDES
        blank *= sum(1 for face in ROLL[colour] if not SWORDS[face] and face != X) / SIDES
    odds[0] += blank
    return tuple(odds)


def _treasure_odds(colour: int, rolls: int) -> tuple[float, float]:
    """(chance of no sword, expected coins) for a die re-rolled up to ``rolls`` times while it
    shows swords."""
    swords = sum(1 for face in ROLL[colour] if SWORDS[face]) / SIDES
    coins = sum(1 for face in ROLL[colour] if face == COIN) / SIDES
    settled = sum(swords**k for k in range(rolls))  # expected rolls that may settle the die
    return 1 - swords**rolls, coins * settled


# per colour, per rolls left: the odds above for one re-rolled die
_HUNT = tuple(tuple(_hunt_odds(c, r) for r in range(ROLLS)) for c in range(len(ROLL)))
_TREASURE = tuple(tuple(_treasure_odds(c, r) for r in range(ROLLS)) for c in range(len(ROLL)))


class HeuristicBot:
    """Plays like a sensible person.

    Keeps swords and re-rolls the rest while outbidding the dice at the posters is worth more than
    the coins at stake; otherwise re-rolls its swords to chase the doubled coins of the big
    treasure. Keeps growth faces while the game is young and the tableau still has dice. Stops
    once it is safely ahead. At a two-player table, ``duel_safe`` replaces ``SAFE_PER_DIE`` and
    ``duel_growth`` keeps growth faces all game (the search policy's ``SEARCH_DUEL_SAFE``); the
    defaults are ``medium``'s.
    """

    name = "heuristic"

    def __init__(self, *, duel_safe: float = SAFE_PER_DIE, duel_growth: bool = False) -> None:
        self.duel_safe = duel_safe
        self.duel_growth = duel_growth

    def choose(self, game: Game[Any, Any], world: Any, seat: int, rng: random.Random) -> Action:
        state: DiceState = world
        duel = state.players == 2
        faces, colours = state.faces, state.colours
        live = [i for i, face in enumerate(faces) if face != X]
        swords = sum(SWORDS[faces[i]] for i in live)
        rolls_left = ROLLS - state.roll
        blades = [i for i in live if SWORDS[faces[i]]]
        others = [i for i in live if not SWORDS[faces[i]]]
        all_game = duel and self.duel_growth
        growth = [i for i in others if _growth_matters(state, faces[i], all_game)]
        spare = [i for i in others if i not in growth]
        short = to_beat(state) + 1 - swords
        if short <= 0:
            per_die = self.duel_safe if duel else SAFE_PER_DIE
            return STOP if swords >= _safe(state, per_die) else _numbers(spare)
        coins = sum(1 for i in live if faces[i] == COIN)
        prize = HOLD * state.posters[0]
        options: dict[Action, float] = {STOP: coins * (1 if blades else 2)}
        for reroll in (spare, others):  # hunt: keep the swords, re-roll (some of) the rest
            if reroll:
                odds = tuple(sorted(_HUNT[colours[i]][rolls_left] for i in reroll))
                kept_coins = sum(1 for i in others if i not in reroll and faces[i] == COIN)
                lost_growth = GROWTH * sum(1 for i in reroll if i in growth)
                options[_numbers(reroll)] = _chance(short, odds) * prize + kept_coins - lost_growth
        if blades:  # the big treasure: re-roll the swords
            clean, new_coins = 1.0, 0.0
            for i in blades:
                no_sword, expected = _TREASURE[colours[i]][rolls_left]
                clean *= no_sword
                new_coins += expected
            options[_numbers(blades)] = (coins + new_coins) * (1 + clean)
        return max(options, key=lambda action: options[action])


def _safe(state: DiceState, per_die: float) -> float:
    """Swords that the strongest rival is not expected to beat on its next turn (``per_die``
    swords for each die of its troop)."""
    dice = max(
        sum(state.troop[s * HUES : (s + 1) * HUES]) for s in range(state.players) if s != state.seat
    )
    return dice * per_die


def _numbers(indices: list[int]) -> Action:
    return tuple(i + 1 for i in indices)


@cache
def _chance(short: int, dice: tuple[tuple[float, ...], ...]) -> float:
    """The chance that dice with these sword odds add at least ``short`` swords (few distinct
    questions come up, so the answers are kept)."""
    totals = [1.0]
    for odds in dice:
        grown = [0.0] * (len(totals) + len(odds) - 1)
        for total, p in enumerate(totals):
            for swords, q in enumerate(odds):
                grown[total + swords] += p * q
        totals = grown
    return sum(totals[short:])


def _growth_matters(state: DiceState, face: int, all_game: bool) -> bool:
    """A growth face is worth keeping early (``all_game``: at any time), while its colour still
    waits on the tableau."""
    colour = GROWS[face]
    early = all_game or len(state.posters) * 2 > len(poster_stack(state.players))
    return colour >= 0 and early and state.tableau[state.seat * HUES + colour] > 0
