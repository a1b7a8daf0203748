"""Dice Heroes in words for the terminal, as ``boards/dice-heroes-text.js`` says them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.games.words import Messages


class DiceHeroesWords:
    """Dice Heroes in words, as ``boards/dice-heroes-text.js`` says them (``dice.*``)."""

    HEROES = ("bears", "falcons", "otters", "ibexes")

    def __init__(self, m: Messages) -> None:
        self.m = m

    def hero(self, position: Mapping[str, Any] | None, seat: int) -> str:
        """The hero of a seat (Bears, Falcons, ...): from the position, else by seat order."""
        rows = position.get("seats", []) if position else []
        row = rows[seat] if 0 <= seat < len(rows) else None
        key = row["hero"] if row else (self.HEROES[seat] if seat < len(self.HEROES) else "bears")
        return self.m.t(f"dice.hero.{key}")

    def colour(self, colour: str) -> str:
        return self.m.t(f"dice.colour.{colour}")

    def face(self, face: str) -> str:
        return self.m.t(f"dice.face.{face}")

    def growth(self, dice: Mapping[str, int]) -> str:
        parts = [
            self.m.t("dice.log.growth_part", count=n, colour=self.colour(c))
            for c, n in dice.items()
            if n > 0
        ]
        return self.m.join(parts)

    def sentence(
        self, e: Mapping[str, Any], position: Mapping[str, Any] | None = None
    ) -> str | None:
        t, kind = self.m.t, e["kind"]

        def who(seat: int) -> str:
            return self.hero(position, seat)

        if kind == "rolloff":
            faces = self.m.join([self.face(f) for f in e["faces"]])
            return t("dice.log.rolloff", hero=who(e["seat"]), faces=faces, count=e["swords"])
        if kind == "opening":
            return t("dice.log.opening", hero=who(e["seat"]), count=e["swords"])
        if kind == "marker":
            return t("dice.log.marker", hero=who(e["seat"]))
        if kind == "capture":
            return t("dice.log.capture", hero=who(e["seat"]), poster=e["poster"], count=e["left"])
        if kind == "roll":
            faces = self.m.join(
                [
                    t("dice.die_face", colour=self.colour(d["colour"]), face=self.face(d["face"]))
                    for d in e["dice"]
                ]
            )
            return t("dice.log.roll", hero=who(e["seat"]), roll=e["roll"], faces=faces)
        if kind == "sent_back":
            colour = self.colour(e["colour"])
            return t("dice.log.sent_back", hero=who(e["seat"]), die=e["die"], colour=colour)
        if kind == "hunt":
            hero, count = who(e["seat"]), e["swords"]
            if not e.get("success"):
                return t("dice.log.hunt_fail", hero=hero, count=count, to_beat=e["to_beat"])
            previous = e.get("previous")
            if previous is not None and previous != e["seat"]:
                return t("dice.log.hunt_outbid", hero=hero, count=count, previous=who(previous))
            return t("dice.log.hunt_lay", hero=hero, count=count)
        if kind == "coins":
            key = "dice.log.coins_big" if e.get("big_treasure") else "dice.log.coins"
            return t(key, hero=who(e["seat"]), count=e["coins"])
        if kind == "growth":
            return t("dice.log.growth", hero=who(e["seat"]), dice=self.growth(e["dice"]))
        if kind == "end":
            scores = [f"{who(seat)} {score}" for seat, score in enumerate(e["scores"])]
            return t("dice.log.end", scores=self.m.join(scores))
        return None

    def board(self, position: Mapping[str, Any]) -> str:
        """The table as the web board shows it: the posters and the dice laid at them, one line
        per hero (troop, tableau and dice at the posters by colour: white/yellow/red; coins,
        posters, score, duel marker), and the roll of the hero to move, die by die."""
        counts = "/".join
        left = position["posters_left"]
        holder = position.get("holder")
        laid = ", ".join(self.face(d["face"]) for d in position["laid"]) or "-"
        held = f" · held by {self.hero(position, holder)}" if holder is not None else ""
        lines = [
            f"Posters left: {' '.join(map(str, left)) or '-'}{held}",
            f"At the posters: {laid} ({position['laid_swords']} swords)",
        ]
        width = max(len(self.hero(position, row["seat"])) for row in position["seats"]) + 2
        for row in position["seats"]:
            name = self.hero(position, row["seat"]) + (" *" if row["marker"] else "")
            parts = [
                f"troop {counts(str(row['troop'][c]) for c in ('white', 'yellow', 'red'))}",
                f"tableau {counts(str(row['tableau'][c]) for c in ('white', 'yellow', 'red'))}",
                f"laid {counts(str(row['at_posters'][c]) for c in ('white', 'yellow', 'red'))}",
                f"coins {row['coins']}",
                f"posters {' '.join(map(str, row['posters'])) or '-'}",
                f"score {row['score']}",
            ]
            lines.append(f"  {name:<{width}} " + " · ".join(parts))
        turn = position.get("turn")
        if turn is not None:
            dice = "  ".join(
                f"{d['die']}:{self.colour(d['colour'])} {self.face(d['face'])}"
                + (" (locked)" if d["locked"] else "")
                for d in turn["dice"]
            )
            who = self.hero(position, turn["seat"])
            lines.append(f"{who}, roll {turn['roll']} ({turn['rolls_left']} left): {dice}")
            lines.append(f"  {turn['swords']} swords, {turn['to_beat']} to beat")
        lines.append("  troop, tableau, laid: white/yellow/red dice · * = duel marker")
        return "\n".join(lines)
