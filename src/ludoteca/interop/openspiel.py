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

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from ludoteca.core import JSON
from ludoteca.core.spec import Chance
from ludoteca.games import all_games, get

from .chance import AnyGame, Position
from .encoding import Encoding, Tensor, canonical, encoding, private_part
from .moves import CHANCE, TERMINAL, Legal, lister, player


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
"""Every game registered with ``pyspiel`` by this module, by short name."""


def max_game_length(entry: Entry, players: int) -> int:
    """The most player decisions a match can take: the game's own ``max_length``."""
    length = get(entry.game_id).max_length(players)
    if length is None:
        raise ValueError(f"{entry.game_id} declares no maximum length")
    return length


EXPLICIT, SAMPLED = "explicit", "sampled"


def _game_type(entry: Entry, explicit: bool) -> Any:
    """The game's type, with explicit chance or not (the registered type: ``entry``'s default)."""
    spec = get(entry.game_id).spec
    params: dict[str, Any] = {"players": spec.min_players}
    if entry.offers_explicit:
        params["chance"] = EXPLICIT if entry.explicit_chance else SAMPLED
    params["rng_seed"] = 0
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

    def __init__(self, entry: Entry, players: int, rng_seed: int, explicit: bool) -> None:
        self.entry = entry
        self.explicit = explicit
        self.game: AnyGame = get(entry.game_id)
        self.params: JSON = self.game.spec.params({"players": players})
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
        return (_shared, (self.entry.short_name, self.players, self.rng_seed, self.explicit))


@cache
def _listing(game_id: str, players: int) -> tuple[Encoding, Callable[[Any], Legal]]:
    """A game's encoding for a player count and what lists its legal actions: one for every
    load of the game, so the legal lists ``lister`` keeps outlive a loaded game."""
    found = encoding(game_id, players)
    return found, lister(found, get(game_id))


@cache
def _uniform(outcomes: int) -> tuple[tuple[int, float], ...]:
    """A chance node's outcomes 0..n-1, equally likely."""
    return tuple((o, 1.0 / outcomes) for o in range(outcomes))


@cache
def _shared(short_name: str, players: int, rng_seed: int, explicit: bool) -> Shared:
    return Shared(BY_NAME[short_name], players, rng_seed, explicit)


class LudotecaGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games for OpenSpiel (``players``; ``chance`` for a game that offers explicit
    chance; ``rng_seed`` for sampled chance)."""

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
        self.shared = Shared(entry, players, int(params.get("rng_seed", 0)), explicit)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.shared.encoding.actions),
            max_chance_outcomes=entry.max_chance_outcomes if explicit else 0,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if entry.constant_sum else None,
            max_game_length=max_game_length(entry, players),
        )
        super().__init__(_game_type(entry, explicit), info, params)

    def new_initial_state(self) -> LudotecaState:
        return LudotecaState(self, self.shared)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return Observer(self.shared, iig_obs_type)


def _player_of(position: Position) -> int:
    """OpenSpiel's current player of a position: chance, the seat to move, or terminal."""
    return CHANCE if position.pending is not None else player(position.game, position.state)


class Unsynced(list[tuple[int, int]]):
    """The (player, action) pairs a state has played from Python and not yet handed to C++; a
    copied state gets its own list (the pairs themselves never change)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Unsynced:
        return Unsynced(self)


class LudotecaState(pyspiel.State):  # type: ignore[misc]
    """A position: a chance node (explicit chance), a seat to move, or the end.

    With sampled chance, an action played from Python (``apply_action``) is noted here and
    reaches OpenSpiel's C++ record of the match (its history and move number) when that record
    is read through this class (``history``, ``full_history``, ``history_str``,
    ``move_number``, ``serialize``, ``undo_action``; a ``clone`` takes the notes with it) or
    when C++ plays the next action: the record always reads as if every action had gone through
    C++. C++ code handed a state straight after Python played on it, that reads its history
    without asking the state anything first, would read it as it was: call ``sync()`` before.
    """

    def __init__(self, game: LudotecaGame, shared: Shared) -> None:
        super().__init__(game)
        self.shared = shared
        # OpenSpiel makes a new initial state for every copy, then overwrites its fields: the
        # deal is only numbered here and dealt on first use, so a copy never pays for a set-up.
        self.deal = shared.next_deal()
        self.dealt: Position | None = None
        self.legal_cache: Legal | None = None  # once listed for this position
        self.player: int | None = None  # current_player(), once known for this position
        self.unsynced = Unsynced()  # (player, action) played from Python, not yet in C++
        self.replaying = False  # ``sync`` is handing them to C++

    @property
    def position(self) -> Position:
        if self.dealt is None:
            self.dealt = self.shared.new_position(self.deal)
        return self.dealt

    @position.setter
    def position(self, value: Position) -> None:
        self.dealt = value
        self.legal_cache = None
        self.player = None

    # --------------------------------------------------------------------------- queries
    def current_player(self) -> int:
        player = self.player
        if player is None:
            player = self.player = _player_of(self.dealt or self.position)
        return player

    def is_terminal(self) -> bool:
        player = self.player
        return (self.current_player() if player is None else player) == TERMINAL

    # Python callers (OpenSpiel's Python algorithms, our benches) reach these without a round
    # trip through pybind11; C++ callers still go through ``_legal_actions`` and friends.
    def is_chance_node(self) -> bool:
        player = self.player
        return (self.current_player() if player is None else player) == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """As OpenSpiel's ``State::LegalActions``: [] at the end, the outcomes at a chance
        node, else the actions of ``player`` (default: the player to move)."""
        current = self.player
        if current is None:
            current = self.current_player()
        if current >= 0:
            if player is not None and player != current:
                return []
            cache = self.legal_cache
            if cache is None:  # ``legal``, without its frame
                cache = self.legal_cache = self.shared.legal((self.dealt or self.position).state)
            return cache.ascending[:]
        if current == CHANCE and (player is None or player == CHANCE):
            return list(range(self.position.outcomes))
        return []

    def legal(self) -> Legal:
        """The legal actions of the seat to move (not at a chance node or the end)."""
        cache = self.legal_cache
        if cache is None:
            cache = self.legal_cache = self.shared.legal((self.dealt or self.position).state)
        return cache

    def _legal_actions(self, player: int) -> list[int]:
        if player < 0 or player != self.current_player():
            return []
        return self.legal().ascending[:]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        position = self.dealt or self.position
        node = position.roll
        return list(_uniform(position.outcomes) if node is None else node.outcomes)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            position = self.position
            node = position.roll
            if node is None or not 0 <= action < len(node.draws):
                return f"chance {action} of {position.outcomes}"
            return f"chance {action} of {position.outcomes}: draws {node.draws[action]}"
        actions = self.shared.encoding.actions
        if not 0 <= action < len(actions):
            raise ValueError(f"no action {action} in {self.shared.entry.short_name}")
        return actions[action]

    def returns(self) -> list[float]:
        players = self.shared.players
        outcome = None if self.position.chance else self.shared.game.outcome(self.position.state)
        if outcome is None:
            return [0.0] * players
        return [outcome.payoff(seat, players) for seat in range(players)]

    def __str__(self) -> str:
        return canonical(self.position.to_json())

    # --------------------------------------------------------------------------- changes
    def apply_action(self, action: int) -> None:
        """As OpenSpiel's ``State::ApplyAction``. With sampled chance, the action is played here
        and only noted for OpenSpiel's own record of the match (``sync``): pybind11's way, C++
        calling back into Python for ``current_player`` and then ``_apply_action``, would cost
        more than the rules' own work."""
        position = self.dealt or self.position
        if position.scripted:  # explicit chance: C++ records every action at once
            pyspiel.State.apply_action(self, action)
            return
        player = self.player
        if player is None:
            player = self.current_player()
        moves = self.legal_cache or self.shared.legal(position.state)
        try:
            chosen = moves.actions[moves.ids.index(action)]
        except ValueError:
            raise ValueError(f"action {action} is not legal here") from None
        self.legal_cache = None
        game, state = position.game, position.state
        game.step(state, chosen)  # chance drawn from the state's own stream
        seat = game.to_move(state)
        self.player = TERMINAL if seat is None else seat  # asked next, always
        self.unsynced.append((player, action))

    def sync(self) -> None:
        """Hand OpenSpiel's C++ state the actions played from Python since (``apply_action``),
        in order, so that its history and move number are what eager play would have made."""
        pending = self.unsynced
        if not pending:
            return
        self.unsynced = Unsynced()
        known = self.player
        self.replaying = True
        try:
            for player, action in pending:
                self.player = player  # what C++ asks ``current_player`` before each action
                pyspiel.State.apply_action(self, action)
        finally:
            self.replaying = False
            self.player = known

    def _apply_action(self, action: int) -> None:
        """Called by C++ (OpenSpiel's ``ApplyAction``, from a C++ algorithm, ``child`` or a
        ``sync``), which records the action itself once this returns."""
        if self.replaying:
            return  # already played, by ``apply_action``
        self.sync()  # what Python played comes first in C++'s history
        position = self.dealt or self.position
        if not position.scripted:  # sampled chance: every node a player's
            self.apply_action(action)
            self.unsynced.pop()  # C++ records this one
            return
        if position.pending is not None:  # a chance node
            position.apply_chance(action)
        else:
            position.apply((self.legal_cache or self.legal()).action(action))
        self.legal_cache = None
        self.player = _player_of(position)  # asked next, always

    # OpenSpiel's record of the match, as if every action had gone through C++.
    def history(self) -> list[int]:
        self.sync()
        return list(pyspiel.State.history(self))

    def full_history(self) -> list[Any]:
        self.sync()
        return list(pyspiel.State.full_history(self))

    def history_str(self) -> str:
        self.sync()
        return str(pyspiel.State.history_str(self))

    def move_number(self) -> int:
        return int(pyspiel.State.move_number(self)) + len(self.unsynced)

    def is_initial_state(self) -> bool:
        return not self.unsynced and bool(pyspiel.State.is_initial_state(self))

    def serialize(self) -> str:
        self.sync()
        return str(pyspiel.State.serialize(self))

    def undo_action(self, player: int, action: int) -> None:
        self.sync()
        pyspiel.State.undo_action(self, player, action)

    def child(self, action: int) -> LudotecaState:
        copy: LudotecaState = self.clone()
        copy.apply_action(action)
        return copy

    def resample_from_infostate(
        self, player: int, probability_sampler: Callable[[], float]
    ) -> LudotecaState:
        """A state ``player`` cannot tell from this one, drawn by our ``Game.sample_world``.

        ``probability_sampler`` (OpenSpiel's convention: uniform numbers in [0, 1)) seeds it.
        """
        seed = int(float(probability_sampler()) * 2**53)
        clone: LudotecaState = self.clone()
        clone.position = self.position.resampled(player, random.Random(seed))
        return clone


class Observer:
    """OpenSpiel's observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``.

    Strings are the canonical JSON of ``Game.observation(state, seat)`` prefixed with the seat;
    the information state adds every action so far (player actions and explicit chance outcomes,
    which are public in these games). Private-only views are the fields of the seat's
    observation that a spectator's lacks; public-only views are the spectator's observation.
    """

    def __init__(self, shared: Shared, iig_obs_type: Any) -> None:
        private = pyspiel.PrivateInfoType
        self.shared = shared
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info
        self.recall = bool(iig_obs_type.perfect_recall)
        self.tensor: Tensor | None = None
        self.dict: dict[str, Tensor] = {}
        if self.public and self.private in (private.SINGLE_PLAYER, private.NONE):
            self.tensor = np.zeros(shared.encoding.size, dtype=np.float32)
            self.dict = shared.encoding.views(self.tensor)

    def _seat(self, player: int) -> int | None:
        return player if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER else None

    def set_from(self, state: LudotecaState, player: int) -> None:
        if self.tensor is None:
            return
        seat = self._seat(player)
        position = state.position
        if position.state is None:  # explicit set-up still rolling: nothing to see yet
            self.tensor.fill(0.0)
            if seat is not None:
                self.dict["observer"][seat] = 1.0
            return
        obs = self.shared.game.observation(position.state, seat)
        self.shared.encoding.write(obs, seat, self.tensor, self.dict)

    def string_from(self, state: LudotecaState, player: int) -> str:
        position, game = state.position, self.shared.game
        everyone = self.private == pyspiel.PrivateInfoType.ALL_PLAYERS
        seats = range(self.shared.players) if everyone else (player,)
        if not self.public:
            if self.private == pyspiel.PrivateInfoType.NONE or position.state is None:
                return ""
            parts = {s: private_part(game, position.state, s) for s in seats}
            shown = {s: part for s, part in parts.items() if part}
            return canonical(shown) if shown else ""
        seen: Any = None
        if position.state is not None:
            if everyone:
                seen = [game.observation(position.state, s) for s in seats]
            else:
                seen = game.observation(position.state, self._seat(player))
        text = f"seat {player}: " if self._seat(player) is not None else ""
        text += canonical(seen)
        if self.recall:
            history = " ".join(f"{h.player}:{h.action}" for h in state.full_history())
            text = f"{text}\nhistory: {history}"
        return text


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
            _game_type(entry, entry.explicit_chance), GAME_CLASSES[entry.short_name]
        )
        added.append(entry.short_name)
    return added


register()
