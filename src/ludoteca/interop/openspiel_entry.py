"""How one of our games is registered with OpenSpiel (``Entry``, read from its ``GameSpec``; the
registered ones in ``BY_NAME``) and its OpenSpiel type (``game_type``), and what every state of
one loaded game shares (``Shared``). The registration itself is ``ludoteca.interop.openspiel``."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from ludoteca.core import JSON
from ludoteca.core.spec import Chance
from ludoteca.games import get

from .chance import AnyGame, Position
from .encoding import Encoding, encoding
from .moves import Legal, lister


@dataclass(frozen=True)
class Entry:
    """How one of our games is registered."""

    short_name: str
    game_id: str
    explicit_chance: bool
    """Chance as nodes by default (the game can also be loaded with sampled chance)."""
    offers_explicit: bool
    """Whether the game can be loaded with chance as nodes (``chance=explicit``)."""
    perfect_information: bool
    constant_sum: bool
    max_chance_outcomes: int


def entry_of(game: AnyGame) -> Entry | None:
    """How a game is registered, from its ``GameSpec``; None when it offers no encoding or no
    maximum length (OpenSpiel needs both)."""
    spec = game.spec
    if game.encoding(spec.min_players) is None or game.max_length(spec.min_players) is None:
        return None
    return Entry(
        short_name="ludoteca_" + spec.id.replace("-", "_"),
        game_id=spec.id,
        explicit_chance=spec.chance is Chance.EXPLICIT,
        offers_explicit=spec.chance is Chance.EXPLICIT or spec.chance_outcomes > 0,
        perfect_information=spec.perfect_information,
        constant_sum=spec.constant_sum,
        max_chance_outcomes=spec.chance_outcomes,
    )


BY_NAME: dict[str, Entry] = {}
"""Every game registered with ``pyspiel`` (``ludoteca.interop.openspiel``), by short name."""


def max_game_length(entry: Entry, players: int) -> int:
    """The most player decisions a match can take: the game's own ``max_length``."""
    length = get(entry.game_id).max_length(players)
    if length is None:
        raise ValueError(f"{entry.game_id} declares no maximum length")
    return length


EXPLICIT, SAMPLED = "explicit", "sampled"


def game_type(entry: Entry, explicit: bool) -> Any:
    """The game's type, with explicit chance or not (the registered type: ``entry``'s default)."""
    spec = get(entry.game_id).spec
    params: dict[str, Any] = {"players": spec.min_players}
    if entry.offers_explicit:
        params["chance"] = EXPLICIT if entry.explicit_chance else SAMPLED
    params["rng_seed"] = 0
    for option in spec.options:  # the game's table options, by their defaults
        params[option.name] = option.default
    info = pyspiel.GameType.Information
    mode = pyspiel.GameType.ChanceMode
    utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=entry.short_name,
        long_name=f"Ludoteca: {spec.name('en')}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode.EXPLICIT_STOCHASTIC if explicit else mode.SAMPLED_STOCHASTIC,
        information=(
            info.PERFECT_INFORMATION if entry.perfect_information else info.IMPERFECT_INFORMATION
        ),
        utility=utility.CONSTANT_SUM if entry.constant_sum else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class Shared:
    """What every state of one loaded game shares (copying a state never copies this)."""

    def __init__(
        self,
        entry: Entry,
        players: int,
        rng_seed: int,
        explicit: bool,
        options: tuple[tuple[str, Any], ...] = (),
    ) -> None:
        self.entry = entry
        self.explicit = explicit
        self.options = options
        self.game: AnyGame = get(entry.game_id)
        self.params: JSON = self.game.spec.params({"players": players, **dict(options)})
        self.players = players
        self.encoding, self.legal = _listing(entry.game_id, players)
        self.rng_seed = rng_seed
        self.deals = itertools.count()

    def next_deal(self) -> int:
        return next(self.deals)

    def new_position(self, deal: int) -> Position:
        if self.explicit:
            return Position.explicit(self.game, self.params)
        return Position.sampled(self.game, self.params, f"openspiel:{self.rng_seed}:{deal}")

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        shared = (self.entry.short_name, self.players, self.rng_seed, self.explicit, self.options)
        return (_shared, shared)


@cache
def _listing(game_id: str, players: int) -> tuple[Encoding, Callable[[Any], Legal]]:
    """A game's encoding for a player count and what lists its legal actions: one for every
    load of the game, so the legal lists ``lister`` keeps outlive a loaded game."""
    found = encoding(game_id, players)
    return found, lister(found, get(game_id))


@cache
def _shared(
    short_name: str,
    players: int,
    rng_seed: int,
    explicit: bool,
    options: tuple[tuple[str, Any], ...] = (),
) -> Shared:
    return Shared(BY_NAME[short_name], players, rng_seed, explicit, options)
