// Return of the Dwarves in words: figures, tiles, stones, log lines per event kind, seat labels.

import { h } from "/static/js/dom.js";
import { list, t } from "/static/js/i18n.js";
import { colourShape, stoneIcon } from "./dwarves-art.js";

export const KINDS = ["gold", "ruby", "sapphire", "emerald", "garnet", "diamond"];
export const colourName = (colour) => t(`dwarves.colour.${colour}`);
export const stoneName = (kind) => t(`dwarves.stone.${kind}`);

function dwarfOf(view, colour) {
  return view && view.position ? view.position.dwarves.find((d) => d.colour === colour) : null;
}

/** "Red dwarf (Ana)", "Green dwarf (extra)", "the dragon". */
export function figureName(view, colour, seatName) {
  if (colour === "dragon") return t("dwarves.dragon");
  const dwarf = dwarfOf(view, colour);
  const name = t(`dwarves.dwarf.${colour}`);
  if (!dwarf) return name;
  return dwarf.extra ? t("dwarves.extra_named", { dwarf: name }) : t("dwarves.player_named", { dwarf: name, name: seatName(dwarf.seat) });
}

/** "tile 7 (purple)", "tile 2 (Portal)". */
export function tileName(view, tile) {
  const ring = view && view.position ? view.position.ring : [];
  const found = ring[tile];
  const kind = found ? found.kind : "";
  const what = kind === "portal" || kind === "passage" ? t(`dwarves.tile_kind.${kind}`) : colourName(kind);
  return t("dwarves.tile", { n: tile, what });
}

function lines(view, seatName) {
  const fig = (colour) => figureName(view, colour, seatName);
  const stones = (kinds) => list(kinds.map(stoneName));
  return {
    setup: (e) => t("dwarves.log.setup", { hobbit: tileName(view, e.hobbit), dragon: tileName(view, e.dragon), start: fig(e.start) }),
    deal: (e) => t("dwarves.log.deal", { dwarf: fig(e.dwarf), stones: stones(e.stones) }),
    round: (e) => t("dwarves.log.round", { round: e.round }),
    roll: (e) => t("dwarves.log.roll", { figure: fig(e.figure), grey: colourName(e.grey), white: colourName(e.white) }),
    move: (e) => (e.from === e.to ? t("dwarves.log.stay", { dwarf: fig(e.dwarf), tile: tileName(view, e.to) }) : t("dwarves.log.move", { dwarf: fig(e.dwarf), tile: tileName(view, e.to) })),
    bite: (e) => t("dwarves.log.bite", { dwarf: fig(e.dwarf), stone: stoneName(e.stone) }),
    gift: (e) => t("dwarves.log.gift", { dwarf: fig(e.dwarf), stone: stoneName(e.stone) }),
    hobbit: (e) => t("dwarves.log.hobbit", { tile: tileName(view, e.to) }),
    trade: (e) => t(e.blind ? "dwarves.log.trade_blind" : "dwarves.log.trade", { dwarf: fig(e.dwarf), other: fig(e.with), give: stoneName(e.give), take: stoneName(e.take) }),
    steal: (e) => t("dwarves.log.steal", { dwarf: fig(e.dwarf), other: fig(e.from), stone: stoneName(e.stone) }),
    dragon: (e) => t("dwarves.log.dragon", { tile: tileName(view, e.to) }),
    hoard: (e) => t("dwarves.log.hoard", { stone: stoneName(e.stone) }),
    end: (e) => t(e.cause === "cap" ? "dwarves.log.end_cap" : "dwarves.log.end_pool", { round: e.round }),
    race: (e) => t("dwarves.log.race", { round: e.round, rolls: list(e.rolls.map((r) => t("dwarves.log.race_roll", { figure: fig(r.figure), colour: colourName(r.roll), run: r.run }))) }),
    result: (e) => t("dwarves.log.result", { figure: fig(e.winner) }),
  };
}

export function describe(event, view, seatName) {
  const line = lines(view, seatName)[event.kind];
  if (!line) return null;
  const text = line(event); // may start with "the dragon": a sentence starts with a capital
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function soundOf(event) {
  if (event.kind === "roll") return "dice";
  if (event.kind === "bite" || event.kind === "steal" || event.kind === "hoard") return "capture";
  if (event.kind === "move" || event.kind === "gift" || event.kind === "trade") return "place";
  return null;
}

function seatDwarf(view, seat) {
  return view.position.dwarves.find((d) => d.seat === seat && !d.extra);
}

export function seatLabel(seat, view, seatName) {
  const dwarf = seatDwarf(view, seat);
  if (!dwarf) return null;
  return { mark: colourShape(dwarf.colour), text: t(`dwarves.dwarf.${dwarf.colour}`) };
}

export function seatFacts(seat, view, seatName) {
  const dwarf = seatDwarf(view, seat);
  if (!dwarf) return [];
  return [t("dwarves.fact.stones", { count: dwarf.chest.length }), t("dwarves.fact.best", { count: dwarf.score[0] }), tileName(view, dwarf.tile)];
}

export function outcome(view, seatName) {
  const reason = (view.outcome && view.outcome.reason) || "score";
  const result = view.position.result;
  return t(`dwarves.reason.${reason}`, { figure: result ? figureName(view, result.winner, seatName) : "" });
}

/** A chest as stones grouped by kind: [icon ×2] ... */
export function chestView(stones) {
  if (!stones.length) return h("span", { class: "dw-none" }, t("dwarves.no_stones"));
  const counts = KINDS.map((kind) => [kind, stones.filter((x) => x === kind).length]).filter(([, n]) => n);
  return h(
    "span",
    { class: "dw-chest", role: "img", "aria-label": list(counts.map(([kind, n]) => t("dwarves.stone_count", { count: n, stone: stoneName(kind) }))) },
    counts.map(([kind, n]) => h("span", { class: "dw-stone-count" }, stoneIcon(kind), `×${n}`)),
  );
}
