"""Heroes & Relics in words for the terminal: its events as sentences and the keep as a map."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.games.words import Messages

from .rules import ROLES


class HeroesWords:
    """Heroes & Relics in words and as a map, from the catalogue's ``heroes.*`` messages."""

    def __init__(self, m: Messages) -> None:
        self.m = m

    def group(self, seat: int) -> str:
        return self.m.t(f"heroes.group.{seat}")

    def role(self, role: str) -> str:
        return self.m.t(f"heroes.role.{role}")

    def named(self, role: str) -> str:
        """The role's full name and its strength: ``Paladin 7`` (the Halfling has none)."""
        strength = ROLES.index(role)
        return self.role(role) + (f" {strength}" if strength else "")

    def hero(self, hero: Mapping[str, Any]) -> str:
        return self.m.t(
            "heroes.hero", group=self.group(hero["owner"]), role=self.role(hero["role"])
        )

    def sentence(
        self, e: Mapping[str, Any], position: Mapping[str, Any] | None = None
    ) -> str | None:
        t, g = self.m.t, self.group
        kind = e["kind"]
        if kind == "start":
            return t("heroes.log.start", group=g(e["first"]))
        if kind == "drew":
            key = "heroes.log.dealt" if e.get("cause") == "deal" else "heroes.log.drew"
            text = t(key, group=g(e["seat"]), count=e["count"])
            if e.get("cause") not in (None, "deal", "draw"):
                text += " " + t(f"heroes.cause.{e['cause']}")
            if e.get("heroes"):
                names = self.m.join([self.role(r) for r in e["heroes"]])
                text += " " + t("heroes.log.which", heroes=names)
            return text + "."
        if kind == "placed":
            role_a = t(f"heroes.role_a.{e['role']}")
            if e["room"] == "camp":
                return t("heroes.log.camp", group=g(e["seat"]), role=role_a)
            if e.get("covered"):
                return t(
                    "heroes.log.placed_on",
                    group=g(e["seat"]),
                    role=role_a,
                    room=e["room"],
                    covered=self.hero(e["covered"]),
                )
            return t("heroes.log.placed", group=g(e["seat"]), role=role_a, room=e["room"])
        if kind == "sealed":
            return t(
                "heroes.log.sealed",
                group=g(e["seat"]),
                ward=e["ward"],
                count=e["relics"],
                total=e["total"],
            )
        if kind == "wizard":
            role_a = t(f"heroes.role_a.{e['role']}")
            return t("heroes.log.wizard", group=g(e["seat"]), rival=g(e["rival"]), role=role_a)
        if kind == "struck":
            hero = self.hero(e["hero"])
            if e.get("revealed"):
                revealed = self.hero(e["revealed"])
                key = "heroes.log.struck_reveal"
                return t(key, group=g(e["seat"]), hero=hero, room=e["room"], revealed=revealed)
            return t("heroes.log.struck", group=g(e["seat"]), hero=hero, room=e["room"])
        if kind == "skip":
            key = (
                "heroes.log.skip_strike" if e.get("trick") == "strike" else "heroes.log.skip_ranger"
            )
            return t(key, group=g(e["seat"]))
        if kind == "extra":
            return t("heroes.log.extra", group=g(e["seat"]), room=e["room"])
        if kind == "end":
            reason = t(f"heroes.reason.{e['reason']}")
            if e.get("draw") or not e.get("winners"):
                return t("heroes.log.end_draw", reason=reason)
            return t("heroes.log.end", group=g(e["winners"][0]), reason=reason)
        return None

    def board(self, position: Mapping[str, Any]) -> str:
        """The keep as in the rules' diagram: north camp on top, column a on the left; each room
        shows its top hero (G/B, role, strength) and the stack height, each ward between four
        rooms its relics or who sealed it."""
        rooms = {r["room"]: r for r in position["rooms"]}
        wards = {w["ward"]: w for w in position["wards"]}

        width = 3 + max(len(self.named(role)) for role in ROLES)

        def cell(name: str) -> str:
            room = rooms[name]
            stack = room["stack"]
            mark = "*" if room["sanctuary"] else " "
            if not stack:
                return f"{name}{mark}{'·':^{width}}   "
            top = stack[-1]
            who = "GB"[top["owner"]] + " " + self.named(top["role"])
            return f"{name}{mark}{who:<{width}}×{len(stack):<2}"

        def ward(name: str) -> str:
            w = wards.get(name)
            if w is None:
                return "   "
            if w["sealed_by"] is not None:
                return f"[{'GB'[w['sealed_by']]}]"
            return f"({w['relics']})"

        relics = position["relics"]
        lines = [f"   {self.m.t('heroes.camp_side.north')} ({self.group(0)}) · {relics[0]}/6"]
        for row in range(1, 6):
            lines.append(("  " + " | ".join(cell(f"{c}{row}") for c in "abc")).rstrip())
            if row < 5:
                # a ward sits where four rooms meet: under the a|b and the b|c walls
                gap = " " * (width + 3)
                lines.append("  " + gap + ward(f"a{row}") + gap + ward(f"b{row}"))
        lines.append(f"   {self.m.t('heroes.camp_side.south')} ({self.group(1)}) · {relics[1]}/6")
        hand = position.get("hand")
        if hand is not None:
            lines.append(
                f"{self.m.t('heroes.hand')}: "
                + (", ".join(self.named(r) for r in hand) or self.m.t("heroes.empty_hand"))
            )
        lines.append("  * = sanctuary · (n) = relics in a ward · [G], [B] = sealed by Gold, Blue")
        return "\n".join(lines)
