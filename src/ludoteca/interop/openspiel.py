"""Our games as OpenSpiel games: importing this module registers them with ``pyspiel``.

    import pyspiel
    import ludoteca.interop.openspiel  # registers ludoteca_<id> for every game of the catalogue

    game = pyspiel.load_game(f"ludoteca_{game_id}", {"players": 4})

Every game of the catalogue that offers an encoding and a maximum length (``Game.encoding``,
``Game.max_length``) is registered as ``ludoteca_<id>`` (dashes as underscores), typed from its
``GameSpec`` (chance, information, utility); a game joining the catalogue later is registered by
``register()``. The packaged games, with their players, chance and information, are listed in
``docs/research.md``.

Chance is sampled by default: it takes ``rng_seed``, the n-th new initial state of a loaded game
is dealt from the seed ``openspiel:<rng_seed>:<n>``, and chance then happens inside actions from
that stream. A game that offers explicit chance (``GameSpec.chance_outcomes``) also loads with
``{"chance": "explicit"}``: chance nodes with their exact odds, for the algorithms that need
them (a game of dice: one node per run of interchangeable dice, see ``interop.chance``).
Returns are ``Outcome.payoff`` (1 for a win, shared on a shared win or a draw, else 0).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from ludoteca.games import all_games, get

from .openspiel_entry import (
    BY_NAME,
    EXPLICIT,
    SAMPLED,
    Entry,
    Shared,
    entry_of,
    game_type,
    max_game_length,
)
from .openspiel_observer import Observer
from .openspiel_state import LudotecaState


class LudotecaGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games for OpenSpiel (``players``; ``chance`` for a game that offers explicit
    chance; ``rng_seed`` for sampled chance; the game's table options, ``GameSpec.options``)."""

    def __init__(self, entry: Entry, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game = get(entry.game_id)
        players = game.spec.params({"players": params.get("players", game.spec.min_players)})[
            "players"
        ]
        chance = params.get("chance", EXPLICIT if entry.explicit_chance else SAMPLED)
        if chance not in (EXPLICIT, SAMPLED) or (chance == EXPLICIT and not entry.offers_explicit):
            offered = f"{EXPLICIT} or {SAMPLED}" if entry.offers_explicit else SAMPLED
            raise ValueError(f"{entry.short_name}: chance must be {offered}, not {chance!r}")
        explicit = chance == EXPLICIT
        # the game's table options (``GameSpec.options``), checked as a match checks them
        named = {o.name: params[o.name] for o in game.spec.options if o.name in params}
        options = tuple(game.spec.params({"players": players, **named}).items())[1:]
        rng_seed = int(params.get("rng_seed", 0))
        self.shared = Shared(entry, players, rng_seed, explicit, options)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.shared.encoding.actions),
            max_chance_outcomes=entry.max_chance_outcomes if explicit else 0,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if entry.constant_sum else None,
            max_game_length=max_game_length(entry, players),
        )
        super().__init__(game_type(entry, explicit), info, params)

    def new_initial_state(self) -> LudotecaState:
        return LudotecaState(self, self.shared)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return Observer(self.shared, iig_obs_type)


def _game_class(entry: Entry) -> type[LudotecaGame]:
    """A class per game: pyspiel keeps the creator until after Python has shut down, which a
    class survives and a closure does not."""

    def init(self: LudotecaGame, params: dict[str, Any] | None = None) -> None:
        LudotecaGame.__init__(self, entry, params)

    name = "".join(part.title() for part in entry.game_id.split("-")) + "OpenSpielGame"
    return type(name, (LudotecaGame,), {"__init__": init})


def load_typed_imperfect(short_name: str, params: dict[str, Any] | None = None) -> LudotecaGame:
    """The game typed imperfect information whatever its registration, for algorithms that
    accept only such games (OpenSpiel's ISMCTS): the hidden part is then the future chance
    (the pool's order, the dice), which ``resample_from_infostate`` redraws. Not registered, so
    not serialisable."""
    try:
        entry = BY_NAME[short_name]
    except KeyError:
        raise ValueError(f"no game {short_name!r} (games: {', '.join(BY_NAME)})") from None
    return LudotecaGame(replace(entry, perfect_information=False), params)


def registered() -> list[str]:
    """The short names of our games known to ``pyspiel``."""
    known = {g.short_name for g in pyspiel.registered_games()}
    return [name for name in BY_NAME if name in known]


GAME_CLASSES: dict[str, type[LudotecaGame]] = {}


def register() -> list[str]:
    """Register with ``pyspiel`` every game of the catalogue that it does not know yet and that
    can be registered (``entry_of``); returns the short names registered now. Importing this
    module does it for the games known then."""
    known = {g.short_name for g in pyspiel.registered_games()}
    added = []
    for game in all_games().values():
        entry = entry_of(game)
        if entry is None or entry.short_name in known:
            continue
        BY_NAME[entry.short_name] = entry
        GAME_CLASSES[entry.short_name] = _game_class(entry)
        pyspiel.register_game(
            game_type(entry, entry.explicit_chance), GAME_CLASSES[entry.short_name]
        )
        added.append(entry.short_name)
    return added


register()
