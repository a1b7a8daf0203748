// Return of the Dwarves pieces as SVG. Every colour has its own shape (yellow disc, red triangle,
// blue square, green diamond, orange pentagon, purple hexagon, white star), used for tiles, dice,
// dwarves and stones alike, so colour is never the only signal.

import { s } from "/static/js/dom.js";

const STONE_COLOUR = { gold: "yellow", ruby: "red", sapphire: "blue", emerald: "green", garnet: "purple", diamond: "white" };

function polygon(points, r, rotate = -90) {
  const out = [];
  for (let i = 0; i < points; i += 1) {
    const a = ((rotate + (360 * i) / points) * Math.PI) / 180;
    out.push(`${(12 + r * Math.cos(a)).toFixed(2)},${(12 + r * Math.sin(a)).toFixed(2)}`);
  }
  return out.join(" ");
}

function star() {
  const out = [];
  for (let i = 0; i < 10; i += 1) {
    const a = ((-90 + 36 * i) * Math.PI) / 180;
    const r = i % 2 ? 4.5 : 10;
    out.push(`${(12 + r * Math.cos(a)).toFixed(2)},${(12 + r * Math.sin(a)).toFixed(2)}`);
  }
  return out.join(" ");
}

const SHAPES = {
  yellow: () => s("circle", { cx: 12, cy: 12, r: 9 }),
  red: () => s("polygon", { points: polygon(3, 10.5, -90) }),
  blue: () => s("rect", { x: 4, y: 4, width: 16, height: 16, rx: 1.5 }),
  green: () => s("polygon", { points: polygon(4, 10.5, -90) }),
  orange: () => s("polygon", { points: polygon(5, 10, -90) }),
  purple: () => s("polygon", { points: polygon(6, 10, 0) }),
  white: () => s("polygon", { points: star() }),
};

/** The shape of a colour, filled with it (class dw-c-<colour>). */
export function colourShape(colour, extraClass = "") {
  return s(
    "svg",
    { class: `dw-shape dw-c-${colour} ${extraClass}`.trim(), viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    (SHAPES[colour] || SHAPES.white)(),
  );
}

/** A treasure stone: the shape and colour of its kind. */
export function stoneIcon(kind) {
  return colourShape(STONE_COLOUR[kind] || "white", "dw-stone");
}

/** A dwarf: a figure with a head, in its colour, with its colour's shape on the chest. */
export function dwarfToken(colour) {
  return s(
    "svg",
    { class: `dw-figure dw-dwarf dw-c-${colour}`, viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("circle", { cx: 12, cy: 6, r: 4.5, class: "dw-body" }),
    s("path", { d: "M4 23c0-6 3.5-10 8-10s8 4 8 10z", class: "dw-body" }),
    // the emblem light on the body: the dwarves tell apart in greyscale too
    s("g", { class: "dw-emblem", transform: "translate(6.5 12.5) scale(0.46)" }, (SHAPES[colour] || SHAPES.white)()),
  );
}

export function hobbitToken() {
  return s(
    "svg",
    { class: "dw-figure dw-hobbit", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("circle", { cx: 12, cy: 8, r: 5 }),
    s("path", { d: "M6 23c0-5 2.5-8 6-8s6 3 6 8z" }),
    s("path", { d: "M6 7c1-5 11-5 12 0z", class: "dw-hair" }),
  );
}

export function dragonToken() {
  return s(
    "svg",
    { class: "dw-figure dw-dragon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M2 14c3-1 5-4 6-8l2 4 2-6 2 6 2-4c1 4 3 7 6 8-3 0-5 1-6 3l-1 5h-6l-1-5c-1-2-3-3-6-3z" }),
    s("circle", { cx: 10, cy: 15, r: 1, class: "dw-eye" }),
    s("circle", { cx: 14, cy: 15, r: 1, class: "dw-eye" }),
  );
}

/** Grey tiles: the Portal (an arch) and the Secret Passage (a key). */
export function greyTileIcon(kind) {
  const d = kind === "portal" ? "M5 22V10a7 7 0 0 1 14 0v12h-3V10a4 4 0 0 0-8 0v12z" : "M14 3a7 7 0 0 0-6.7 9L2 17.3V22h4.7l.8-.8V19h2.2l1-1v-2.2h2.2l.7-.7A7 7 0 1 0 14 3zm2.5 3a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5z";
  return s("svg", { class: "dw-shape dw-grey-icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" }, s("path", { d }));
}

/** A die showing a colour (its body grey or white, the face the colour's shape). */
export function dwarfDie(body, colour) {
  return s(
    "svg",
    { class: `dw-die dw-die-${body}`, viewBox: "0 0 40 40", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7, class: "dw-die-body" }),
    s("g", { transform: "translate(8 8)", class: `dw-c-${colour}` }, (SHAPES[colour] || SHAPES.white)()),
  );
}
