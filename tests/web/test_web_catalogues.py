"""The message catalogues (static/i18n/<lang>.json, and the boards' words/<lang>.json in each
game's package): the same messages in every language, with the same placeholders, and every
message the client asks for is there. No browser needed."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kit.browser import PLACEHOLDER, catalogue, flatten
from kit.env import WEB

LANGUAGES = ("en", "pt", "de")


def placeholders(message: Any) -> set[str]:
    forms = message.values() if isinstance(message, dict) else [message]
    return {name for form in forms for name in PLACEHOLDER.findall(form)}


def used_keys() -> tuple[set[str], set[str]]:
    """Keys the client names literally, and the prefixes of keys it builds (`ns.x.${...}`)."""
    exact: set[str] = set()
    prefixes: set[str] = set()
    boards = (WEB.parent / "games").glob("*/board/*.js")  # the shipped games' boards
    for path in sorted([*(WEB / "static" / "js").rglob("*.js"), *boards]):
        text = path.read_text()
        exact |= set(re.findall(r"\bt\(\s*\"([a-z_]+(?:\.[\w-]+)+)\"", text))
        for first, second in re.findall(
            r"\? \"([a-z_]+\.[\w.-]+)\" : \"([a-z_]+\.[\w.-]+)\"", text
        ):
            exact |= {first, second}
        prefixes |= set(re.findall(r"\bt\(`([a-z_]+(?:\.[\w-]+)*)\.\$\{", text))
    page = (WEB / "index.html").read_text()
    exact |= set(re.findall(r'data-i18n="([\w.]+)"', page))
    exact |= {pair.split(":")[1] for pair in re.findall(r'data-i18n-attr="([\w.:-]+)"', page)}
    return exact, prefixes


def test_every_language_has_the_same_messages_and_placeholders() -> None:
    english = flatten(catalogue("en"))
    for lang in LANGUAGES[1:]:
        other = flatten(catalogue(lang))
        assert sorted(other) == sorted(english), lang
        for key, message in english.items():
            assert type(other[key]) is type(message), f"{lang}: {key}"
            assert placeholders(other[key]) == placeholders(message), f"{lang}: {key}"
            if isinstance(message, dict):
                assert set(other[key]) >= {"one", "other"}, f"{lang}: {key}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_the_client_uses_exists(lang: str) -> None:
    messages = flatten(catalogue(lang))
    exact, prefixes = used_keys()
    assert len(exact) > 200  # the scan finds the client's messages
    missing = sorted(key for key in exact if key not in messages)
    assert missing == []
    for prefix in prefixes:
        assert any(key.startswith(prefix + ".") for key in messages), prefix


def test_every_message_is_used() -> None:
    exact, prefixes = used_keys()
    unused = [
        key
        for key in flatten(catalogue("en"))
        if key not in exact and not any(key.startswith(prefix + ".") for prefix in prefixes)
    ]
    assert unused == []
