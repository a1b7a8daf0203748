"""A board's words (``board/words.<lang>.json`` in the game's package, under the namespace its
``Board`` declares): read for the page and the terminal, refused with a clear error when a file is
missing, is not JSON or not an object, or when the namespace would hide the page's own messages.
No browser, no server."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from ludoteca.core.spec import Board
from ludoteca.games import all_games, get
from ludoteca.server.api.games import board_addresses, board_path, board_version, game_json
from ludoteca.server.site.pages import Page, web_root
from toygame import HighCardGame


class Elsewhere(HighCardGame):
    """High Card whose board folder is ``folder`` (a temporary directory)."""

    def __init__(self, folder: Path, words: str | None = "high-card") -> None:
        super().__init__()
        board = Board("board.js", words=words)
        self.spec = dataclasses.replace(self.spec, board=board)
        self.folder = folder

    def resource(self, name: str) -> Any:
        return self.folder if name == "board" else super().resource(name)


def test_the_shipped_boards_bring_their_words_in_every_language() -> None:
    for game_id, namespace in (
        ("heroes", "heroes"),
        ("dice-heroes", "dice"),
        ("dwarves", "dwarves"),
    ):
        game = get(game_id)
        words = {lang: game.board_words(lang) for lang in ("en", "pt", "de")}
        assert {lang: list(found) for lang, found in words.items()} == {
            lang: [namespace] for lang in ("en", "pt", "de")
        }
        assert words["en"][namespace] != words["pt"][namespace] != words["de"][namespace]
        assert game.board_words("xx") == {}  # no such language: the English fallback applies
    assert get("heroes").board_words("pt")["heroes"]["group"]["0"] == "Dourado"


def test_a_bad_word_file_is_an_error_that_names_it(tmp_path: Path) -> None:
    game = Elsewhere(tmp_path)
    with pytest.raises(ValueError, match=r"high-card: board/words\.en\.json is missing"):
        game.board_words("en")
    (tmp_path / "words.en.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"board/words\.en\.json is not JSON"):
        game.board_words("en")
    (tmp_path / "words.en.json").write_text('["a list"]')
    with pytest.raises(ValueError, match=r"words\.en\.json must hold a JSON object, not list"):
        game.board_words("en")
    (tmp_path / "words.en.json").write_text('{"pile": "Pile"}')
    assert game.board_words("en") == {"high-card": {"pile": "Pile"}}
    assert Elsewhere(tmp_path, words=None).board_words("en") == {}  # a board without words


def test_a_namespace_may_not_hide_the_pages_messages() -> None:
    root = web_root()
    games = [game_json("heroes")]
    clash = {lang: {"table": {"title": "mine"}} for lang in ("en", "pt", "de")}
    with pytest.raises(
        ValueError, match=r"table:heroes: the board's words may not be named 'table'"
    ):
        page = root / "index.html", root / "static"
        Page(*page, lambda: games, None, lambda _: clash, board_file=board_path)


def test_every_board_file_has_a_versioned_address_that_serves_it() -> None:
    addresses = board_addresses()
    for game_id, game in all_games().items():
        board = game.spec.board
        if board is None:
            assert not any(a.startswith(f"/boards/{game_id}/") for a in addresses)
            continue
        version = board_version(game_id)
        assert len(version) == 12
        for name in (board.module, *board.parts, *board.styles, *board.word_files().values()):
            assert f"/boards/{game_id}/{version}/{name}" in addresses, name
            assert board_path(game_id, name) is not None, name
    for game_id in ("heroes", "dice-heroes", "dwarves"):
        assert any(a.startswith(f"/boards/{game_id}/") for a in addresses), game_id
