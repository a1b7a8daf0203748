"""A game's table options over HTTP: listed with their words by ``GET /api/games``, chosen in
``POST /api/tables`` and ``/api/play-now`` (``params``), shown in the table's summary; a bad
option is refused with the allowed values and creates nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kit.servers import ThreadServer, api
from ludoteca.core import LANGUAGES
from ludoteca.games import all_games, get


def test_every_game_lists_its_options_with_words_in_every_language(server: ThreadServer) -> None:
    games = {g["id"]: g for g in api(server.base).get("/api/games").json()}
    for game_id, game in all_games().items():
        listed = games[game_id]["options"]
        assert [o["name"] for o in listed] == [o.name for o in game.spec.options]
        for option, spec in zip(listed, game.spec.options, strict=True):
            assert option["values"] == list(spec.values)
            assert option["default"] == spec.default
            assert set(option["label"]) == set(LANGUAGES)
            assert set(option["value_labels"]) == set(LANGUAGES)
    dice = games["liars-dice"]["options"][0]
    assert dice["name"] == "dice" and dice["values"] == [1, 2, 3, 4, 5] and dice["default"] == 5
    assert dice["label"]["de"] == "Würfel pro Person"
    assert dice["value_labels"]["pt"]["3"] == "3 dados"
    one = api(server.base).get("/api/games/liars-dice").json()
    assert one["options"] == games["liars-dice"]["options"]


def test_a_table_is_created_with_its_options_and_shows_them(server: ThreadServer) -> None:
    http = api(server.base)
    created = http.post(
        "/api/tables",
        json={"game": "liars-dice", "players": 3, "params": {"dice": 3, "rounds": "one"}},
    )
    assert created.status_code == 201, created.text
    table = created.json()["table"]
    expected = {"players": 3, "dice": 3, "rounds": "one", "bidding": "reset-face"}
    assert table["params"] == expected
    assert http.get(f"/api/tables/{table['id']}").json()["table"]["params"] == expected
    listed = {t["id"]: t for t in http.get("/api/tables").json()}
    assert listed[table["id"]]["params"] == expected


def test_play_now_takes_options_and_the_match_is_dealt_with_them(server: ThreadServer) -> None:
    http = api(server.base)
    created = http.post(
        "/api/play-now", json={"game": "liars-dice", "level": "random", "params": {"dice": 1}}
    )
    assert created.status_code == 201, created.text
    table = created.json()["table"]
    assert table["params"]["dice"] == 1 and table["params"]["rounds"] == "last-standing"


@pytest.mark.parametrize(
    ("params", "text"),
    [
        ({"dice": 7}, "dice must be one of 1, 2, 3, 4, 5, not 7"),
        ({"dice": "3"}, "dice must be one of 1, 2, 3, 4, 5, not '3'"),
        ({"dice": True}, "dice must be one of 1, 2, 3, 4, 5, not True"),
        ({"dice": 3.0}, "dice must be one of 1, 2, 3, 4, 5, not 3.0"),
        ({"rounds": "two"}, "rounds must be one of last-standing, one, not 'two'"),
        ({"colour": "red"}, "unknown parameter(s) colour"),
        ({"players": 3}, "players is not a table option"),
        ({"dice": [3]}, "params"),
        ({f"o{i}": 1 for i in range(17)}, "params"),
    ],
)
def test_bad_options_are_refused_naming_the_allowed_values(
    server: ThreadServer, params: dict[str, Any], text: str
) -> None:
    http = api(server.base)
    before = http.get("/api/tables").json()
    answer = http.post("/api/tables", json={"game": "liars-dice", "params": params})
    assert answer.status_code == 422
    assert answer.json()["error"] == "bad_request"
    assert text in answer.json()["message"]
    assert http.get("/api/tables").json() == before


def test_a_game_without_options_refuses_any(server: ThreadServer) -> None:
    answer = api(server.base).post("/api/tables", json={"game": "heroes", "params": {"dice": 3}})
    assert answer.status_code == 422 and "heroes: unknown parameter(s) dice" in answer.text


def test_every_option_and_value_has_its_own_words_in_every_language() -> None:
    for game in all_games().values():
        words = game.option_words()
        for lang in LANGUAGES:
            for option in game.spec.options:
                said = words[lang][option.name]
                assert said["label"], (game.spec.id, lang, option.name)
                assert set(said["values"]) == {str(v) for v in option.values}, (lang, option)


def test_a_game_with_options_and_no_words_for_them_is_an_error_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = get("liars-dice")
    monkeypatch.setattr(type(game), "resource", lambda self, name: tmp_path / name)
    with pytest.raises(ValueError, match=r"liars-dice: .*options\.json is missing"):
        game.option_words()
    (tmp_path / "options.json").write_text("[1]", encoding="utf-8")
    with pytest.raises(ValueError, match="must hold a JSON object, not list"):
        game.option_words()
    (tmp_path / "options.json").write_text('{"en": {"dice": {"label": "Dice"}}}', "utf-8")
    dice = game.options_json()[0]  # a word missing: English, then the value itself
    assert dice["label"] == {"en": "Dice", "pt": "Dice", "de": "Dice"}
    assert dice["value_labels"]["de"]["3"] == "3"
