"""The terminal table (``ludoteca play``): events as sentences, seats counted from 1, the Heroes
keep drawn as a map with its wards, relics and stack heights, and the clock.

The words come from the web table's message catalogues (``web/static/i18n/{lang}.json``), so the
terminal and the browser say the same thing. A game with no sentences of its own here gets a plain
line per event: its kind in words and its fields, seats counted from 1.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

JSON = dict[str, Any]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
SEAT_FIELDS = {"seat", "rival", "first", "holder", "by"}


@cache
def catalogue(lang: str) -> JSON:
    """The message catalogue of a language of the web table (English when there is none)."""
    folder = resources.files("ludoteca").joinpath("web", "static", "i18n")
    name = f"{lang}.json" if folder.joinpath(f"{lang}.json").is_file() else "en.json"
    data: JSON = json.loads(folder.joinpath(name).read_text(encoding="utf-8"))
    return data


@dataclass(frozen=True)
class Messages:
    """``t(key, **params)`` as on the web page: dotted keys, ``{name}`` placeholders, plural
    forms ``{one, other}`` chosen by ``count``; English when the language lacks a key."""

    lang: str = "en"

    def lookup(self, key: str) -> Any:
        for lang in (self.lang, "en"):
            node: Any = catalogue(lang)
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


# ------------------------------------------------------------------------------ sentences
class Heroes:
    """Heroes & Relics in words and as a map, from the catalogue's ``heroes.*`` messages."""

    def __init__(self, m: Messages) -> None:
        self.m = m

    def group(self, seat: int) -> str:
        return self.m.t(f"heroes.group.{seat}")

    def role(self, role: str) -> str:
        return self.m.t(f"heroes.role.{role}")

    def hero(self, hero: Mapping[str, Any]) -> str:
        return self.m.t(
            "heroes.hero", group=self.group(hero["owner"]), role=self.role(hero["role"])
        )

    def sentence(self, e: Mapping[str, Any]) -> str | None:
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

        def cell(name: str) -> str:
            room = rooms[name]
            stack = room["stack"]
            mark = "*" if room["sanctuary"] else " "
            if not stack:
                return f"{name}{mark}{'·':^9}"
            top = stack[-1]
            who = "GB"[top["owner"]] + " " + self.role(top["role"])[:5]
            return f"{name}{mark}{who:<7}×{len(stack)}"

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
            lines.append("  " + " | ".join(cell(f"{c}{row}") for c in "abc"))
            if row < 5:
                # a ward sits where four rooms meet: under the a|b and the b|c walls
                lines.append(" " * 14 + ward(f"a{row}") + " " * 12 + ward(f"b{row}"))
        lines.append(f"   {self.m.t('heroes.camp_side.south')} ({self.group(1)}) · {relics[1]}/6")
        hand = position.get("hand")
        if hand is not None:
            lines.append(
                f"{self.m.t('heroes.hand')}: "
                + (", ".join(self.role(r) for r in hand) or self.m.t("heroes.empty_hand"))
            )
        lines.append("  * = sanctuary · (n) = relics in a ward · [G], [B] = sealed by Gold, Blue")
        return "\n".join(lines)


def _field(name: str, value: Any) -> str | None:
    if value is None or value in ([], {}):
        return None
    if name in SEAT_FIELDS and isinstance(value, int):
        return f"{name} {value + 1}"
    if name == "winners" and isinstance(value, list):
        return "winners " + ", ".join(str(v + 1) for v in value)
    if isinstance(value, list):
        return f"{name.replace('_', ' ')} " + ", ".join(
            json.dumps(v) if isinstance(v, dict | list) else str(v) for v in value
        )
    if isinstance(value, dict):
        return f"{name.replace('_', ' ')} {json.dumps(value)}"
    return f"{name.replace('_', ' ')} {value}"


def plain_sentence(event: Mapping[str, Any]) -> str:
    """A readable line for any event: its kind in words, then its fields (seats from 1)."""
    kind = str(event["kind"]).replace("_", " ")
    fields = [f for k, v in event.items() if k != "kind" and (f := _field(k, v))]
    return kind[:1].upper() + kind[1:] + (": " + "; ".join(fields) if fields else "") + "."


SENTENCES: dict[str, Callable[[Messages], Heroes]] = {"heroes": Heroes}


class Terminal:
    """What ``ludoteca play`` prints for a game, in a language."""

    def __init__(self, game_id: str, lang: str = "en") -> None:
        self.m = Messages(lang)
        make = SENTENCES.get(game_id)
        self.words = make(self.m) if make else None

    def sentence(self, event: Mapping[str, Any]) -> str:
        said = self.words.sentence(event) if self.words else None
        return said or plain_sentence(event)

    def board(self, position: Mapping[str, Any]) -> str | None:
        return self.words.board(position) if self.words else None


def clock(seconds: float) -> str:
    """``1:05`` from seconds (rounded up, never below zero), as on the web table."""
    total = max(0, -int(-seconds // 1))
    return f"{total // 60}:{total % 60:02d}"
