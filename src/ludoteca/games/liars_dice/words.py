"""Liar's Dice in words for the terminal, as the board's ``liars-text.js`` says them (the board's
words, ``board/words.<lang>.json``, namespace ``liars``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.games.words import Messages


class LiarsDiceWords:
    def __init__(self, m: Messages) -> None:
        self.m = m

    def who(self, seat: int) -> str:
        return self.m.t("seat.unknown", n=seat + 1)

    def bid(self, quantity: int, face: int) -> str:
        return self.m.t("liars.bid_text", quantity=quantity, face=face)

    def sentence(
        self, e: Mapping[str, Any], position: Mapping[str, Any] | None = None
    ) -> str | None:
        t, kind = self.m.t, str(e["kind"])
        if kind == "starter":
            return t("liars.log.starter", name=self.who(int(e["seat"])))
        if kind == "rolled":
            if "dice" in e:
                return t(
                    "liars.log.rolled_mine", round=e["round"], dice=" ".join(map(str, e["dice"]))
                )
            return t("liars.log.rolled", round=e["round"], count=sum(e["counts"]))
        if kind == "bid":
            said = self.bid(int(e["quantity"]), int(e["face"]))
            return t("liars.log.bid", name=self.who(int(e["seat"])), bid=said)
        if kind == "challenge":
            loser = self.who(int(e["loser"]))
            called = t(
                "liars.log.challenge",
                name=self.who(int(e["seat"])),
                bidder=self.who(int(e["bidder"])),
                bid=self.bid(int(e["quantity"]), int(e["face"])),
                count=e["count"],
            )
            lost = t("liars.log.lost_die" if e["lost_die"] else "liars.log.lost_match", name=loser)
            out = f" {t('liars.log.out', name=loser)}" if e["lost_die"] and e["out"] else ""
            return f"{called} {lost}{out}"
        return None

    def board(self, position: Mapping[str, Any]) -> str | None:
        """The cups (* to move), the round's bids, your dice, and the last lifted cups."""
        t = self.m.t
        cups = " · ".join(
            f"{self.who(s)} {t('liars.cup_of', count=n)}"
            + (" *" if s == position["to_move"] else "")
            for s, n in enumerate(position["counts"])
        )
        bids = ", ".join(
            f"{self.who(b['seat'])} {self.bid(b['quantity'], b['face'])}" for b in position["bids"]
        )
        lines = [f"{t('liars.cups')}: {cups}", f"{t('liars.bids')}: {bids or '-'}"]
        if position.get("hand") is not None:
            lines.append(f"{t('liars.your_dice')}: {' '.join(map(str, position['hand']))}")
        shown = position.get("showdown")
        if shown is not None:
            cups = " | ".join(" ".join(map(str, h)) or "-" for h in shown["hands"])
            said = self.bid(shown["quantity"], shown["face"])
            lines.append(f"{t('liars.lifted')} ({said}, {shown['count']}): {cups}")
        return "\n".join(lines)
