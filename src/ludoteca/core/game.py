"""The rules interface every game implements (after OpenSpiel's State API and boardgame.io's Game).

A game is a stateless object; its positions are mutable ``State`` objects with a ``clone()``
(measured faster than immutable states for search). The seeded random stream lives in the state, so
``apply`` stays a pure function of (state, action) and a match replays from its seed and actions.

What a game writes (the abstract methods) is small; the rules check (``check``: read the text,
then legality, with the game's optional explanation) is written once here. A match in play —
seats, versions, reveal, record — is ``ludoteca.core.match.Match``, the one authority every
caller goes through. What a game is (``GameSpec``, ``Board``) is in ``ludoteca.core.spec``, what
playing produces (``Event``, ``Outcome``) in ``ludoteca.core.outcome``.
"""

from __future__ import annotations

import json
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from .errors import IllegalActionError, MatchOverError, NoAnchorsError
from .outcome import Event, Outcome
from .rng import Stream
from .spec import JSON, LANGUAGES, LEVELS, GameSpec
from .state import State

if TYPE_CHECKING:
    from .encoding import Encoding

S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Hashable)


class Bot(Protocol):
    """Chooses one of the legal actions for ``seat`` in ``world`` (a sampled world: ``bot.decide``
    is the one way anything asks a bot)."""

    name: str

    def choose(self, game: Game[Any, Any], world: Any, seat: int, rng: random.Random) -> Any: ...


class Words(Protocol):
    """A game in words for the terminal (``Game.words``): an event as a sentence (None: a kind
    it does not know, the terminal then prints the event's fields), and a map of the position
    as a seat sees it (None: the terminal prints ``Game.describe``)."""

    def sentence(
        self, e: Mapping[str, Any], position: Mapping[str, Any] | None = None
    ) -> str | None: ...

    def board(self, position: Mapping[str, Any]) -> str | None: ...


class Game(ABC, Generic[S, A]):
    """A game's rules. Subclasses implement the abstract methods; callers use the checked ones."""

    spec: GameSpec

    # ----------------------------------------------------------------- what each game writes
    @abstractmethod
    def setup(self, params: JSON, rng: Stream) -> tuple[S, list[Event]]:
        """A new match from validated params, drawing every set-up chance from ``rng``."""

    @abstractmethod
    def players(self, state: S) -> int:
        """Number of seats in this match."""

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The seat that acts next, or None when the match is over."""

    @abstractmethod
    def legal_actions(self, state: S) -> list[A]:
        """Every action the seat to move may take, in a stable documented order; [] when over."""

    @abstractmethod
    def apply_unchecked(self, state: S, action: A) -> list[Event]:
        """Apply an action known to be legal (e.g. taken from ``legal_actions``), in place."""

    def step(self, state: S, action: A) -> None:
        """``apply_unchecked`` without building the events: the same match, bit for bit, for
        callers that never read them (search, playouts). Games override it where skipping the
        events saves time."""
        self.apply_unchecked(state, action)

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the match is over, else None."""

    @abstractmethod
    def observation(self, state: S, seat: int | None) -> JSON:
        """Everything ``seat`` may see of the position (None = a spectator), JSON-able.

        It must be a function of the seat's information set only: two states that differ only in
        what this seat cannot see give the same observation.
        """

    @abstractmethod
    def sample_world(self, state: S, seat: int, rng: random.Random) -> S:
        """A full state consistent with what ``seat`` knows, hidden parts drawn from ``rng``.

        Depends only on the seat's information set and ``rng`` (never on the hidden parts of
        ``state``), and carries a fresh random stream, so a bot searching it learns nothing secret.
        """

    @abstractmethod
    def action_to_text(self, state: S, action: A) -> str:
        """The documented text of an action (what a person types)."""

    @abstractmethod
    def read_action(self, state: S, text: str) -> A:
        """The action a text names: syntax only, InvalidActionError when it is no action of the
        game. Legality is ``check``'s; the state only resolves shorthands (``reroll all``)."""

    @abstractmethod
    def to_json(self, state: S) -> JSON:
        """The full position (documented in docs/notation)."""

    @abstractmethod
    def from_json(self, data: Any) -> S:
        """Load a full position; InvalidPositionError when it is not one."""

    @abstractmethod
    def heuristic_bot(self) -> Bot:
        """The game's rule-of-thumb player (used by the table when a clock runs out)."""

    # ------------------------------------------------------------ what a game may add
    def search_bot(self) -> Bot:
        """The policy ``hard``'s search plays its rollouts with and tries first at every node:
        the heuristic unless the game has one that measured stronger under search."""
        return self.heuristic_bot()

    def why_illegal(self, state: S, action: A) -> str | None:
        """Why a well-formed action is not legal in ``state`` (None: the generic sentence)."""
        return None

    def action_fields(self, state: S, action: A) -> tuple[str, JSON]:
        """An action as data for clients: its kind and named arguments (``place``,
        ``{"role": "bard", "room": "b2"}``). By default the first word of its text, no args."""
        text = self.action_to_text(state, action)
        return text.split(" ", 1)[0], {}

    def max_length(self, players: int) -> int | None:
        """The most player decisions a match can take (None: no bound is known)."""
        return None

    def encoding(self, players: int) -> Encoding | None:
        """Action ids and observation tensors for research frameworks (None: not offered)."""
        return None

    def words(self, lang: str) -> Words | None:
        """The game in words for the terminal, in ``lang`` (None: plain lines)."""
        return None

    # ------------------------------------------------------------------------ checked API
    def new(self, params: Mapping[str, Any] | None, seed: str) -> S:
        """A new match; same params and seed always give the same match."""
        return self.start(self.spec.params(params), Stream(seed))

    def start(self, params: JSON, rng: Stream) -> S:
        """``setup`` without building its events (what ``new`` uses): the same match, bit for
        bit. Games override it where skipping the events saves time."""
        return self.setup(params, rng)[0]

    def new_with_events(self, params: Mapping[str, Any] | None, seed: str) -> tuple[S, list[Event]]:
        return self.setup(self.spec.params(params), Stream(seed))

    def is_over(self, state: S) -> bool:
        return self.outcome(state) is not None

    def check(self, state: S, text: str) -> A:
        """The action a text names, if it is legal in ``state``: the one rules check, which
        lists the legal actions once.

        InvalidActionError when the text is not an action of this game (``read_action``),
        IllegalActionError saying why (``why_illegal``) when it is not allowed here
        (MatchOverError once the match is over). ``Match.prepare`` and ``apply_text`` both call
        this.
        """
        action = self.read_action(state, text)
        if action not in self.legal_actions(state):
            if self.is_over(state):
                raise MatchOverError("the match is over")
            why = self.why_illegal(state, action)
            raise IllegalActionError(
                why or f"'{self.action_to_text(state, action)}' is not a legal action here"
            )
        return action

    def apply(self, state: S, action: A) -> list[Event]:
        """Apply a legal action object in place; IllegalActionError (state untouched) otherwise."""
        if action not in self.legal_actions(state):
            if self.is_over(state):
                raise MatchOverError("the match is over")
            raise IllegalActionError(f"not a legal action here: {action!r}")
        return self.apply_unchecked(state, action)

    def apply_text(self, state: S, text: str) -> list[Event]:
        """Check and apply an action text on a bare position (rule tests, the terminal); raises
        (state untouched) on bad input. A match in play goes through ``Match`` instead."""
        return self.apply_unchecked(state, self.check(state, text))

    def legal_texts(self, state: S) -> list[str]:
        return [self.action_to_text(state, a) for a in self.legal_actions(state)]

    def legal_choices(self, state: S) -> list[JSON]:
        """The legal actions as data, in the order of ``legal_texts``: ``{text, kind, args}``
        (``docs/protocol.md``), so a client picks among them without parsing the notation."""
        choices: list[JSON] = []
        for action in self.legal_actions(state):
            kind, args = self.action_fields(state, action)
            choices.append({"text": self.action_to_text(state, action), "kind": kind, "args": args})
        return choices

    def info_key(self, state: S, seat: int) -> str:
        """A canonical key of the seat's information set (its observation, canonical JSON)."""
        return json.dumps(self.observation(state, seat), sort_keys=True, separators=(",", ":"))

    def describe(self, state: S, seat: int | None) -> str:
        """A plain-text picture of what ``seat`` sees, for the terminal (games may draw better)."""
        return outline(self.observation(state, seat))

    @property
    def package(self) -> str:
        """The game's package, wherever in it the Game class is defined: the template's modules
        are ``<package>.rules``, ``<package>.notation`` and so on (``docs/games.md``)."""
        module = type(self).__module__
        return sys.modules[module].__package__ or module

    def resource(self, name: str) -> Traversable:
        """A data file of the game's package."""
        return resources.files(self.package).joinpath(name)

    def catalogue(self) -> JSON:
        """The game's catalogue entry per language (``catalogue.json`` in the game's package)."""
        data: JSON = json.loads(self.resource("catalogue.json").read_text(encoding="utf-8"))
        return data

    def anchors(self) -> dict[str, float]:
        """Each bot level's fixed rating (mu) in this game, the anchors of the ratings
        (``docs/accounts.md``): ``anchors.json`` in the game's package, measured and written by
        ``bench/anchors.py``. NoAnchorsError when the game declares none, or not one number per
        level with ``random`` weakest."""
        where = f"{self.spec.id}: {self.package}/anchors.json"
        file = self.resource("anchors.json")
        if not file.is_file():
            raise NoAnchorsError(
                f"{where} is missing: the game's bots have no ratings (bench/anchors.py measures"
                " them)"
            )
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise NoAnchorsError(f"{where} is not JSON: {exc}") from None
        if not isinstance(data, dict) or list(data) != list(LEVELS):
            raise NoAnchorsError(f"{where} must give {', '.join(LEVELS)} in that order")
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in data.values()):
            raise NoAnchorsError(f"{where} must give a number per level")
        if min(data.values()) != data["random"]:
            raise NoAnchorsError(f"{where}: no level may be rated below random")
        return {level: float(mu) for level, mu in data.items()}

    def option_words(self) -> dict[str, JSON]:
        """The words of the game's table options per language: ``options.json`` in the game's
        package, ``{lang: {option: {"label": ..., "values": {value as text: ...}}}}``; ``{}``
        for a game without options. A game with options and no such file (or not a JSON object)
        is an error that names it."""
        if not self.spec.options:
            return {}
        return _json_object(
            self.resource("options.json"),
            f"{self.spec.id}: {self.package}/options.json",
            "a game with table options names them",
        )

    def options_json(self) -> list[JSON]:
        """The game's table options as the catalogue gives them: each one's ``name``,
        ``values``, ``default``, its ``label`` per language and its values' labels per language
        (keyed by the value as text), English or the name/value itself where a word is
        missing."""
        words = self.option_words()
        listed: list[JSON] = []
        for option in self.spec.options:
            labels: dict[str, str] = {}
            value_labels: dict[str, dict[str, str]] = {}
            for lang in LANGUAGES:
                mine = (words.get(lang) or {}).get(option.name) or {}
                english = (words.get("en") or {}).get(option.name) or {}
                labels[lang] = str(mine.get("label") or english.get("label") or option.name)
                said = {**(english.get("values") or {}), **(mine.get("values") or {})}
                value_labels[lang] = {str(v): str(said.get(str(v), v)) for v in option.values}
            listed.append(
                {
                    "name": option.name,
                    "values": list(option.values),
                    "default": option.default,
                    "label": labels,
                    "value_labels": value_labels,
                }
            )
        return listed

    def rules_page(self, lang: str) -> str | None:
        """The rules page for players in ``lang`` (``rules.<lang>.md``), if the game has one."""
        page = self.resource(f"rules.{lang}.md")
        return page.read_text(encoding="utf-8") if page.is_file() else None

    def board_words(self, lang: str) -> JSON:
        """The words of the game's board in ``lang`` under the board's namespace
        (``{namespace: {...}}``; ``{}`` for a board without words or a game without a board).
        A word file that is missing or is not a JSON object is an error that names it."""
        board = self.spec.board
        name = board.word_files().get(lang) if board else None
        if board is None or board.words is None or name is None:
            return {}
        words = _json_object(
            self.resource(board.folder).joinpath(name),
            f"{self.spec.id}: {board.folder}/{name}",
            "a board with words has one per language",
        )
        return {board.words: words}


def _json_object(file: Traversable, where: str, why: str) -> dict[str, Any]:
    """A data file of a game's package that must hold a JSON object: ValueError naming the
    file (``where``) when it is missing (``why`` it must be there), not JSON or not an object."""
    if not file.is_file():
        raise ValueError(f"{where} is missing ({why})")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except ValueError as error:
        raise ValueError(f"{where} is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{where} must hold a JSON object, not {type(data).__name__}")
    return data


def outline(value: Any, indent: str = "") -> str:
    """JSON as indented ``key: value`` lines; lists of plain values stay on one line."""
    lines: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, dict | list) and not _flat(item):
                lines.append(f"{indent}{key}:")
                lines.append(outline(item, indent + "  "))
            else:
                lines.append(f"{indent}{key}: {_inline(item)}")
    elif isinstance(value, list) and not _flat(value):
        for item in value:
            body = outline(item, indent + "  ").lstrip()
            lines.append(f"{indent}- {body}")
    else:
        lines.append(f"{indent}{_inline(value)}")
    return "\n".join(lines)


def _flat(value: dict[str, Any] | list[Any]) -> bool:
    items = value.values() if isinstance(value, dict) else value
    return all(not isinstance(i, dict | list) for i in items)


def _inline(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_inline(v)}" for k, v in value.items()) + "}"
    if value is None:
        return "-"
    return str(value)
