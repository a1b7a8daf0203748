"""What a game is, as plain values: its ``GameSpec`` (identifier, names, player counts, the facts
research frameworks and clients read), its web ``Board``, how its ``Chance`` is offered, and the
languages and bot levels every game has. The rules themselves are ``ludoteca.core.game.Game``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import InvalidParamsError

JSON = dict[str, Any]
LANGUAGES = ("en", "pt", "de")
LEVELS = ("random", "easy", "medium", "hard")
"""The bot levels, weakest first (``ludoteca.bots.levels``), each with a fixed rating per game."""


class Chance(StrEnum):
    """How a game's chance reaches a research framework (``docs/research.md``)."""

    SAMPLED = "sampled"
    """Drawn inside an action from the match's seeded stream (OpenSpiel: sampled stochastic)."""
    EXPLICIT = "explicit"
    """Each draw a chance node of equally likely outcomes (OpenSpiel: explicit stochastic)."""


@dataclass(frozen=True, slots=True)
class Board:
    """A game's board for the web table, kept in a folder of the game's package (``folder``) and
    served at ``/boards/<game id>/<version>/``: an ES module exporting ``createBoard(ctx)``, the
    modules it imports (fetched together with it), its style sheets, as paths inside the folder.

    ``words`` is the namespace of the board's words: the folder then holds ``words.<lang>.json``
    for every language, each a JSON object, which the page's messages take in under that name
    (``t("<words>.key")``); ``None``: the board brings no words of its own.

    ``picture``: a picture of the board in play (a file in the folder: ``.svg``, ``.png``,
    ``.jpg`` or ``.webp``), which the catalogue shows beside the game; ``None``: no picture.
    """

    module: str
    parts: tuple[str, ...] = ()
    styles: tuple[str, ...] = ()
    words: str | None = None
    folder: str = "board"
    picture: str | None = None

    def word_files(self) -> dict[str, str]:
        """The file of the board's words per language (none without ``words``)."""
        return {lang: f"words.{lang}.json" for lang in LANGUAGES} if self.words else {}

    def urls(self, game_id: str, version: str) -> JSON:
        """The board as the catalogue API gives it: ``module``, ``parts``, ``styles`` and
        ``words`` (per language) as URLs under ``version``, the hash of the folder's files, and
        the words' ``namespace``; ``picture`` as a URL, or None."""
        root = f"/boards/{game_id}/{version}/"
        return {
            "picture": root + self.picture if self.picture else None,
            "module": root + self.module,
            "parts": [root + part for part in self.parts],
            "styles": [root + style for style in self.styles],
            "namespace": self.words,
            "words": {lang: root + name for lang, name in self.word_files().items()},
        }


@dataclass(frozen=True, slots=True)
class Option:
    """A table option a game defines beside ``players`` (``GameSpec.options``): its name, the
    values it takes (whole numbers or words) and the one a table gets when it says nothing."""

    name: str
    values: tuple[int | str, ...]
    default: int | str

    def check(self, game_id: str, value: Any) -> int | str:
        """``value`` when it is one of ``values`` (InvalidParamsError naming them otherwise)."""
        for allowed in self.values:
            if type(value) is type(allowed) and value == allowed:
                return allowed
        shown = ", ".join(str(v) for v in self.values)
        raise InvalidParamsError(f"{game_id}: {self.name} must be one of {shown}, not {value!r}")


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What a game is: identifier, names per language, player counts, and the facts research
    frameworks and clients read from it.

    ``chance`` says how chance is handed to OpenSpiel by default; ``chance_outcomes``, the most
    outcomes of one explicit chance node, is 0 for a game that offers no explicit chance (one
    that does loads with either, ``chance=explicit`` or ``chance=sampled``);
    ``perfect_information`` is true when no seat ever has a secret; ``constant_sum`` when
    ``Outcome.payoff`` always sums to 1 (false when nobody may win); ``board`` is the web table's
    board (``None``: the generic board); ``options`` are the table options the game's rules
    define beside ``players`` (none by default), each checked and defaulted by ``params``.
    """

    id: str
    names: Mapping[str, str]
    min_players: int
    max_players: int
    chance: Chance = Chance.SAMPLED
    chance_outcomes: int = 0
    perfect_information: bool = False
    constant_sum: bool = True
    board: Board | None = None
    options: tuple[Option, ...] = ()

    def name(self, lang: str = "en") -> str:
        return self.names.get(lang) or self.names["en"]

    def params(self, params: Mapping[str, Any] | None = None) -> JSON:
        """Validated, normalised match parameters: ``players`` and the game's ``options``, each
        given its default when absent."""
        params = dict(params or {})
        unknown = sorted(set(params) - {"players"} - {o.name for o in self.options})
        if unknown:
            raise InvalidParamsError(f"{self.id}: unknown parameter(s) {', '.join(unknown)}")
        players = params.get("players", self.min_players)
        if not isinstance(players, int) or isinstance(players, bool):
            raise InvalidParamsError(f"{self.id}: players must be a whole number")
        if not self.min_players <= players <= self.max_players:
            span = (
                str(self.min_players)
                if self.min_players == self.max_players
                else f"{self.min_players}-{self.max_players}"
            )
            raise InvalidParamsError(f"{self.id} is played by {span} players, not {players}")
        checked: JSON = {"players": players}
        for option in self.options:
            checked[option.name] = option.check(self.id, params.get(option.name, option.default))
        return checked
