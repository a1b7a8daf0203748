"""High Card in words for the terminal (``Game.words``): a game kept outside ludoteca brings its
own sentences, here a small table per language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SENTENCES = {
    "en": {
        "seat": "Player {n}",
        "dealt": "{who} was dealt a card",
        "dealt_mine": "{who} was dealt the {card}",
        "drew": "{who} drew a card",
        "drew_mine": "{who} drew the {card}",
        "discarded": "{who} discarded the {card}",
        "stood": "{who} stands",
        "showdown": "Showdown: {cards}",
        "hand": "Your hand",
        "pile": "Pile",
        "discards": "Discards",
    },
    "pt": {
        "seat": "Jogador {n}",
        "dealt": "{who} recebeu uma carta",
        "dealt_mine": "{who} recebeu o {card}",
        "drew": "{who} comprou uma carta",
        "drew_mine": "{who} comprou o {card}",
        "discarded": "{who} descartou o {card}",
        "stood": "{who} passa",
        "showdown": "Revelação: {cards}",
        "hand": "Sua mão",
        "pile": "Monte",
        "discards": "Descartes",
    },
    "de": {
        "seat": "Spieler {n}",
        "dealt": "{who} bekam eine Karte",
        "dealt_mine": "{who} bekam die {card}",
        "drew": "{who} zog eine Karte",
        "drew_mine": "{who} zog die {card}",
        "discarded": "{who} warf die {card} ab",
        "stood": "{who} bleibt",
        "showdown": "Aufdecken: {cards}",
        "hand": "Deine Hand",
        "pile": "Stapel",
        "discards": "Abwurf",
    },
}


class HighCardWords:
    def __init__(self, lang: str) -> None:
        self.said = SENTENCES.get(lang, SENTENCES["en"])

    def who(self, seat: int) -> str:
        return self.said["seat"].format(n=seat + 1)

    def sentence(
        self, e: Mapping[str, Any], position: Mapping[str, Any] | None = None
    ) -> str | None:
        kind = str(e["kind"])
        if kind == "showdown":
            return self.said["showdown"].format(cards=" / ".join(str(c) for c in e["cards"])) + "."
        if kind not in ("dealt", "drew", "discarded", "stood"):
            return None
        key = f"{kind}_mine" if "card" in e and kind in ("dealt", "drew") else kind
        return self.said[key].format(who=self.who(int(e["seat"])), card=e.get("card")) + "."

    def board(self, position: Mapping[str, Any]) -> str | None:
        hand = position.get("hand")
        discards = " | ".join(" ".join(map(str, d)) or "-" for d in position["discards"])
        lines = [f"{self.said['pile']}: {position['pile']}", f"{self.said['discards']}: {discards}"]
        if hand is not None:
            lines.append(f"{self.said['hand']}: {' '.join(map(str, hand))}")
        return "\n".join(lines)
