"""Return of the Dwarves in words for the terminal, as ``boards/dwarves-text.js`` says them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.games.words import Messages


class DwarvesWords:
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

    def board(self, position: Mapping[str, Any]) -> str:
        """The ring tile by tile with who stands there, every chest and the dragon's hoard, the
        dice, the round and the pool."""
        dice = position["dice"]
        lines = [
            f"Round {position['round']} of {position['round_cap']} · pool {position['pool']} · "
            f"dice: grey {self.colour(dice['grey'])}, white {self.colour(dice['white'])}"
        ]
        for tile in position["ring"]:
            here = [
                self.figure(position, d["colour"])
                for d in position["dwarves"]
                if d["tile"] == tile["tile"]
            ]
            if position["hobbit"] == tile["tile"]:
                here.append(self.m.t("dwarves.hobbit"))
            if position["dragon"]["tile"] == tile["tile"]:
                here.append(self.m.t("dwarves.dragon"))
            lines.append(f"  {self.tile(position, tile['tile']):<24} {', '.join(here)}".rstrip())
        for dwarf in position["dwarves"]:
            chest = ", ".join(self.stone(k) for k in dwarf["chest"]) or "-"
            lines.append(f"  {self.figure(position, dwarf['colour'])}: {chest}")
        hoard = ", ".join(self.stone(k) for k in position["dragon"]["hoard"]) or "-"
        dragon = self.m.t("dwarves.dragon")
        lines.append(f"  {dragon[:1].upper()}{dragon[1:]}: {hoard}")
        return "\n".join(lines)
