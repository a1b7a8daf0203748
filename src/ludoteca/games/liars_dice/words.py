"""Liar's Dice in words for the terminal (``Game.words``): its sentences and a map of the table,
a small table of words per language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SENTENCES = {
    "en": {
        "seat": "Player {n}",
        "starter": "{who} starts.",
        "rolled": "Round {round}: every cup is shaken ({dice} dice in play).",
        "rolled_mine": "Round {round}: you rolled {hand}.",
        "bid": "{who} bids {bid}.",
        "challenge": "{who} calls {bidder} a liar on {bid}: {count} dice match.",
        "lost_die": "{who} loses a die.",
        "lost_match": "{who} loses the challenge and the match.",
        "out": "{who} is out.",
        "hand": "Your dice",
        "cups": "Cups",
        "bids": "Bids",
        "none": "none yet",
        "lifted": "Lifted cups",
    },
    "pt": {
        "seat": "Jogador {n}",
        "starter": "{who} começa.",
        "rolled": "Rodada {round}: todos agitam os copos ({dice} dados em jogo).",
        "rolled_mine": "Rodada {round}: você tirou {hand}.",
        "bid": "{who} aposta {bid}.",
        "challenge": "{who} chama {bidder} de mentiroso em {bid}: {count} dados conferem.",
        "lost_die": "{who} perde um dado.",
        "lost_match": "{who} perde o desafio e a partida.",
        "out": "{who} está fora.",
        "hand": "Seus dados",
        "cups": "Copos",
        "bids": "Apostas",
        "none": "nenhuma ainda",
        "lifted": "Copos levantados",
    },
    "de": {
        "seat": "Spieler {n}",
        "starter": "{who} beginnt.",
        "rolled": "Runde {round}: alle Becher werden geschüttelt ({dice} Würfel im Spiel).",
        "rolled_mine": "Runde {round}: du hast {hand} gewürfelt.",
        "bid": "{who} bietet {bid}.",
        "challenge": "{who} nennt {bidder} einen Lügner bei {bid}: {count} Würfel passen.",
        "lost_die": "{who} verliert einen Würfel.",
        "lost_match": "{who} verliert die Herausforderung und die Partie.",
        "out": "{who} ist ausgeschieden.",
        "hand": "Deine Würfel",
        "cups": "Becher",
        "bids": "Gebote",
        "none": "noch keine",
        "lifted": "Aufgedeckte Becher",
    },
}


def bid(quantity: int, face: int) -> str:
    return f"{quantity} × {face}"


class LiarsDiceWords:
    def __init__(self, lang: str) -> None:
        self.said = SENTENCES.get(lang, SENTENCES["en"])

    def who(self, seat: int) -> str:
        return self.said["seat"].format(n=seat + 1)

    def sentence(
        self, e: Mapping[str, Any], position: Mapping[str, Any] | None = None
    ) -> str | None:
        said, kind = self.said, str(e["kind"])
        if kind == "starter":
            return said["starter"].format(who=self.who(int(e["seat"])))
        if kind == "rolled":
            if "dice" in e:
                hand = " ".join(map(str, e["dice"]))
                return said["rolled_mine"].format(round=e["round"], hand=hand)
            return said["rolled"].format(round=e["round"], dice=sum(e["counts"]))
        if kind == "bid":
            shown = bid(int(e["quantity"]), int(e["face"]))
            return said["bid"].format(who=self.who(int(e["seat"])), bid=shown)
        if kind == "challenge":
            loser = self.who(int(e["loser"]))
            parts = [
                said["challenge"].format(
                    who=self.who(int(e["seat"])),
                    bidder=self.who(int(e["bidder"])),
                    bid=bid(int(e["quantity"]), int(e["face"])),
                    count=e["count"],
                ),
                said["lost_die" if e["lost_die"] else "lost_match"].format(who=loser),
            ]
            if e["lost_die"] and e["out"]:
                parts.append(said["out"].format(who=loser))
            return " ".join(parts)
        return None

    def board(self, position: Mapping[str, Any]) -> str | None:
        said = self.said
        cups = " · ".join(
            f"{self.who(s)} {n}" + (" *" if s == position["to_move"] else "")
            for s, n in enumerate(position["counts"])
        )
        bids = ", ".join(
            f"{self.who(b['seat'])} {bid(b['quantity'], b['face'])}" for b in position["bids"]
        )
        lines = [f"{said['cups']}: {cups}", f"{said['bids']}: {bids or said['none']}"]
        if position.get("hand") is not None:
            lines.append(f"{said['hand']}: {' '.join(map(str, position['hand']))}")
        shown = position.get("showdown")
        if shown is not None:
            cups = " | ".join(" ".join(map(str, h)) or "-" for h in shown["hands"])
            face = bid(shown["quantity"], shown["face"])
            lines.append(f"{said['lifted']} ({face}, {shown['count']}): {cups}")
        return "\n".join(lines)
