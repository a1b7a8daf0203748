"""The catalogue entry and the rules pages: three languages, the roles, the SRD attribution."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from ludoteca.games.heroes import GAME
from ludoteca.games.heroes.rules import ROLES

SOURCE = Path("/work/shared/seeds/heroes-and-relics.pt.txt")
ATTRIBUTION = (
    'This work includes material from the System Reference Document 5.2.1 ("SRD 5.2.1") by '
    "Wizards of the Coast LLC, available at https://www.dndbeyond.com/srd. The SRD 5.2.1 is "
    "licensed under the Creative Commons Attribution 4.0 International License, available at "
    "https://creativecommons.org/licenses/by/4.0/legalcode."
)
NOTE = {
    "en": "We changed the material: the names are used with new rules.",
    "pt": "Mudamos o material: os nomes são usados com novas regras.",
    "de": "Wir haben das Material verändert: Die Namen werden mit neuen Regeln verwendet.",
}


def page(lang: str) -> str:
    package = resources.files("ludoteca.games.heroes")
    return package.joinpath(f"rules.{lang}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "pt", "de"])
def test_each_rules_page_ends_with_the_attribution_and_the_note(lang: str) -> None:
    lines = [line for line in page(lang).splitlines() if line.strip()]
    assert lines[-2:] == [ATTRIBUTION, NOTE[lang]]


def test_the_attribution_is_the_sources_own() -> None:
    if not SOURCE.exists():
        pytest.skip("the source page is not in this checkout")
    assert ATTRIBUTION in SOURCE.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("lang", "first_row"), [("en", "Halfling"), ("pt", "Pequenino"), ("de", "Halbling")]
)
def test_each_rules_page_has_the_roles_table_with_every_strength(lang: str, first_row: str) -> None:
    rows = [line for line in page(lang).splitlines() if line.startswith("| ")]
    strengths = [row.split("|")[2].strip() for row in rows[1:9]]
    assert rows[1].startswith(f"| {first_row} ")
    assert strengths[1:] == [str(n) for n in range(1, len(ROLES))]


def test_the_catalogue_has_the_same_keys_in_every_language() -> None:
    entry = GAME.catalogue()
    assert set(entry) == {"en", "pt", "de"}
    for lang in ("pt", "de"):
        assert entry[lang].keys() == entry["en"].keys()
        assert entry[lang]["at_a_glance"].keys() == entry["en"]["at_a_glance"].keys()
    assert [entry[lang]["name"] for lang in ("en", "pt", "de")] == [
        GAME.spec.name(lang) for lang in ("en", "pt", "de")
    ]
