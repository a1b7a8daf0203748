// Dice Heroes pieces as SVG. A die shows its colour three ways: body colour, border style and the
// colour's initial; a face shows its swords, coin, die symbol or X as a drawing.

import { s } from "/static/js/dom.js";

const SWORD = "M0-9 1.6-7v9H3.4v1.6H1.2V6h-2.4V3.6h-2.2V2h1.8v-9z";

function swords(count) {
  const spread = { 1: [0], 2: [-6, 6], 3: [-9, 0, 9] }[count];
  return spread.map((dx, i) =>
    s("path", { d: SWORD, transform: `translate(${20 + dx} ${count === 3 && i === 1 ? 17 : 20}) rotate(${dx * 2}) scale(1.35)`, class: "dh-sword" }),
  );
}

function glyph(face) {
  if (face.startsWith("sword")) return swords(Number(face.slice(5)));
  if (face === "coin") {
    return [s("circle", { cx: 20, cy: 20, r: 10, class: "dh-coin" }), s("circle", { cx: 20, cy: 20, r: 6, class: "dh-coin-ring" })];
  }
  if (face === "yellow-die" || face === "red-die") {
    return [
      s("rect", { x: 11, y: 11, width: 18, height: 18, rx: 4, class: `dh-mini ${face}` }),
      s("path", { d: "M20 15v10M15 20h10", class: "dh-plus" }),
    ];
  }
  return s("path", { d: "M12 12 28 28M28 12 12 28", class: "dh-x" });
}

/** A die: colour body + initial + face drawing. Decorative: the button around it is labelled. */
export function dieFace(colour, face, initial) {
  return s(
    "svg",
    { class: `dh-die ${colour}`, viewBox: "0 0 40 40", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7, class: "dh-body" }),
    glyph(face),
    s("text", { x: 34, y: 36, "text-anchor": "end", class: "dh-initial" }, initial),
  );
}

/** A small plain die of a colour (for counts in troops and tableaus). */
export function dieChip(colour, initial) {
  return s(
    "svg",
    { class: `dh-chip ${colour}`, viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1, y: 1, width: 18, height: 18, rx: 4, class: "dh-body" }),
    s("text", { x: 10, y: 14.5, "text-anchor": "middle", class: "dh-initial" }, initial),
  );
}
