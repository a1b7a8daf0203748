"""The terminal table (``ludoteca play``): events as sentences, seats counted from 1, the Heroes
keep drawn as a map with its wards, relics and stack heights, and the clock.

The words come from the web table's message catalogues (``web/static/i18n/{lang}.json``), so the
terminal and the browser say the same thing: ``Heroes``, ``DiceHeroes`` and ``Dwarves`` port the
web's log lines (``boards/*-text.js``) key for key. A game with no sentences of its own here gets
a plain line per event: its kind in words and its fields, seats counted from 1.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Protocol

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


class DiceHeroes:
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

    def board(self, position: Mapping[str, Any]) -> str | None:
        return None


class Dwarves:
    """Return of the Dwarves in words, as ``boards/dwarves-text.js`` says them (``dwarves.*``);
    a dwarf's player is named by seat, counted from 1."""

    def __init__(self, m: Messages) -> None:
        self.m = m

    def colour(self, colour: str) -> str:
        return self.m.t(f"dwarves.colour.{colour}")

    def stone(self, kind: str) -> str:
        return self.m.t(f"dwarves.stone.{kind}")

    def figure(self, position: Mapping[str, Any] | None, colour: str) -> str:
        """ "Red dwarf (Seat 1)", "Green dwarf (extra)", "the dragon"."""
        if colour == "dragon":
            return self.m.t("dwarves.dragon")
        name = self.m.t(f"dwarves.dwarf.{colour}")
        dwarves = position.get("dwarves", []) if position else []
        dwarf = next((d for d in dwarves if d["colour"] == colour), None)
        if dwarf is None:
            return name
        if dwarf["extra"]:
            return self.m.t("dwarves.extra_named", dwarf=name)
        seat = self.m.t("seat.unknown", n=dwarf["seat"] + 1)
        return self.m.t("dwarves.player_named", dwarf=name, name=seat)

    def tile(self, position: Mapping[str, Any] | None, tile: int) -> str:
        """ "tile 7 (purple)", "tile 2 (Portal)"."""
        ring = position.get("ring", []) if position else []
        kind = ring[tile]["kind"] if 0 <= tile < len(ring) else ""
        what = (
            self.m.t(f"dwarves.tile_kind.{kind}")
            if kind in ("portal", "passage")
            else self.colour(kind)
        )
        return self.m.t("dwarves.tile", n=tile, what=what)

    def sentence(
        self, e: Mapping[str, Any], position: Mapping[str, Any] | None = None
    ) -> str | None:
        text = self._line(e, position)
        # may start with "the dragon": a sentence starts with a capital
        return text[:1].upper() + text[1:] if text else None

    def _line(self, e: Mapping[str, Any], position: Mapping[str, Any] | None) -> str | None:
        t, kind = self.m.t, e["kind"]

        def fig(colour: str) -> str:
            return self.figure(position, colour)

        def tile(n: int) -> str:
            return self.tile(position, n)

        if kind == "setup":
            return t(
                "dwarves.log.setup",
                hobbit=tile(e["hobbit"]),
                dragon=tile(e["dragon"]),
                start=fig(e["start"]),
            )
        if kind == "deal":
            stones = self.m.join([self.stone(s) for s in e["stones"]])
            return t("dwarves.log.deal", dwarf=fig(e["dwarf"]), stones=stones)
        if kind == "round":
            return t("dwarves.log.round", round=e["round"])
        if kind == "roll":
            grey, white = self.colour(e["grey"]), self.colour(e["white"])
            return t("dwarves.log.roll", figure=fig(e["figure"]), grey=grey, white=white)
        if kind == "move":
            key = "dwarves.log.stay" if e["from"] == e["to"] else "dwarves.log.move"
            return t(key, dwarf=fig(e["dwarf"]), tile=tile(e["to"]))
        if kind in ("bite", "gift"):
            return t(f"dwarves.log.{kind}", dwarf=fig(e["dwarf"]), stone=self.stone(e["stone"]))
        if kind in ("hobbit", "dragon"):
            return t(f"dwarves.log.{kind}", tile=tile(e["to"]))
        if kind == "trade":
            return t(
                "dwarves.log.trade_blind" if e.get("blind") else "dwarves.log.trade",
                dwarf=fig(e["dwarf"]),
                other=fig(e["with"]),
                give=self.stone(e["give"]),
                take=self.stone(e["take"]),
            )
        if kind == "steal":
            stone = self.stone(e["stone"])
            return t("dwarves.log.steal", dwarf=fig(e["dwarf"]), other=fig(e["from"]), stone=stone)
        if kind == "hoard":
            return t("dwarves.log.hoard", stone=self.stone(e["stone"]))
        if kind == "end":
            key = "dwarves.log.end_cap" if e.get("cause") == "cap" else "dwarves.log.end_pool"
            return t(key, round=e["round"])
        if kind == "race":
            rolls = [
                t(
                    "dwarves.log.race_roll",
                    figure=fig(r["figure"]),
                    colour=self.colour(r["roll"]),
                    run=r["run"],
                )
                for r in e["rolls"]
            ]
            return t("dwarves.log.race", round=e["round"], rolls=self.m.join(rolls))
        if kind == "result":
            return t("dwarves.log.result", figure=fig(e["winner"]))
        return None

    def board(self, position: Mapping[str, Any]) -> str | None:
        return None


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


class Words(Protocol):
    """A game's sentences (None: not a kind it knows) and, if it draws one, its map."""

    def sentence(
        self, e: Mapping[str, Any], position: Mapping[str, Any] | None = None
    ) -> str | None: ...

    def board(self, position: Mapping[str, Any]) -> str | None: ...


SENTENCES: dict[str, Callable[[Messages], Words]] = {
    "heroes": Heroes,
    "dice-heroes": DiceHeroes,
    "dwarves": Dwarves,
}


class Terminal:
    """What ``ludoteca play`` prints for a game, in a language."""

    def __init__(self, game_id: str, lang: str = "en") -> None:
        self.m = Messages(lang)
        make = SENTENCES.get(game_id)
        self.words = make(self.m) if make else None

    def sentence(self, event: Mapping[str, Any], position: Mapping[str, Any] | None = None) -> str:
        """The event in words; ``position`` (the seat's view of the table) names heroes, dwarves
        and tiles as the web page does."""
        said = self.words.sentence(event, position) if self.words else None
        return said or plain_sentence(event)

    def board(self, position: Mapping[str, Any]) -> str | None:
        return self.words.board(position) if self.words else None


def clock(seconds: float) -> str:
    """``1:05`` from seconds (rounded up, never below zero), as on the web table."""
    total = max(0, -int(-seconds // 1))
    return f"{total // 60}:{total % 60:02d}"
