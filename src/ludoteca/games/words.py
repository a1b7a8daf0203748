"""Words for the terminal, from the web table's message catalogues
(``web/static/i18n/{lang}.json``) and the words of a game's board (``board/words.{lang}.json`` in
the game's package, under the board's namespace), so the terminal and the browser say the same
thing.

A game's package turns its events and positions into sentences with these (``Game.words``: the
``words.py`` of the game's package), key for key as its web board's text module does; a game kept
elsewhere may bring its own words instead.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ludoteca.core.game import Game

JSON = dict[str, Any]
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def catalogue(lang: str) -> JSON:
    """The message catalogue of a language of the web table (English when there is none)."""
    folder = resources.files("ludoteca").joinpath("web", "static", "i18n")
    name = f"{lang}.json" if folder.joinpath(f"{lang}.json").is_file() else "en.json"
    data: JSON = json.loads(folder.joinpath(name).read_text(encoding="utf-8"))
    return data


@cache
def board_words(game: Game[Any, Any], lang: str) -> JSON:
    """The words of ``game``'s board in ``lang``, read once (``Game.board_words``)."""
    return game.board_words(lang)


@dataclass(frozen=True)
class Messages:
    """``t(key, **params)`` as on the web page: dotted keys, ``{name}`` placeholders, plural
    forms ``{one, other}`` chosen by ``count``; English when the language lacks a key."""

    lang: str = "en"
    game: Game[Any, Any] | None = None
    """The game whose board's words join the catalogue (under the board's namespace)."""

    def lookup(self, key: str) -> Any:
        for lang in (self.lang, "en"):
            node: Any = catalogue(lang)
            if self.game is not None:
                node = {**node, **board_words(self.game, lang)}
            for part in key.split("."):
                node = node.get(part) if isinstance(node, dict) else None
            if node is not None:
                return node
        return None

    def t(self, key: str, **params: Any) -> str:
        message = self.lookup(key)
        if message is None:
            return key
        if isinstance(message, dict):
            message = message.get("one" if params.get("count") == 1 else "other", "")
        return PLACEHOLDER.sub(
            lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0),
            str(message),
        )

    def join(self, items: list[str]) -> str:
        if len(items) < 2:
            return "".join(items)
        word = {"pt": "e", "de": "und"}.get(self.lang, "and")
        return f"{', '.join(items[:-1])} {word} {items[-1]}"
