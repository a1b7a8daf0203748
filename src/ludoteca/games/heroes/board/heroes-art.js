// Heroes & Relics pieces as SVG: a hero token is its group's shape (Gold a disc, Blue a diamond)
// in its group's colour, with the role's icon and strength, so colour is never the only signal.

import { s } from "/static/js/dom.js";

export const STRENGTH = { halfling: "–", bard: "1", ranger: "2", fighter: "3", rogue: "4", wizard: "5", cleric: "6", paladin: "7" };

const ROLE_PATHS = {
  halfling: "M4 20c0-9 6-16 16-16 0 10-7 16-16 16zm2-2 8-8",
  bard: "M9 3h11v4h-9v10a3.5 3.5 0 1 1-2-3.2z",
  ranger: "M4 20 16 8M13 5h6v6M4 20l1-5m-1 5 5-1",
  fighter: "M19 3h2v2L9 17l1.5 1.5-1.5 1.5-2-2-3 3-1-1 3-3-2-2L5.5 13.5 7 15z",
  rogue: "M2 9c5-3 15-3 20 0-1 6-5 8-8 5l-2-1-2 1c-3 3-7 1-8-5zm5 2.5 3 1m4 0 3-1",
  wizard: "M12 2l2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 17l-6.1 3.4 1.5-6.8L2.2 9l6.9-.7z",
  cleric: "M10 2h4v6h6v4h-6v10h-4V12H4V8h6z",
  paladin: "M12 2 4 5v6c0 5 3.4 9.3 8 11 4.6-1.7 8-6 8-11V5z",
};

/** The role's icon drawn inside an SVG at (x, y) with the given size. */
function roleIcon(role, x, y, size) {
  const stroked = role === "ranger" || role === "rogue" || role === "halfling";
  return s(
    "g",
    { transform: `translate(${x} ${y}) scale(${size / 24})` },
    s("path", {
      d: ROLE_PATHS[role],
      fill: stroked ? "none" : "currentColor",
      stroke: stroked ? "currentColor" : "none",
      "stroke-width": stroked ? "2.4" : null,
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
    }),
  );
}

/** The group's shape: Gold (seat 0) a disc, Blue (seat 1) a diamond. */
function groupShape(owner, size = 40) {
  const half = size / 2;
  return owner === 0
    ? s("circle", { cx: half, cy: half, r: half - 2, class: "hr-shape" })
    : s("polygon", { points: `${half},1 ${size - 1},${half} ${half},${size - 1} 1,${half}`, class: "hr-shape" });
}

/** A hero token: shape, role icon and strength. Decorative (the button around it is labelled). */
export function heroToken(owner, role, extraClass = "") {
  return s(
    "svg",
    { class: `hr-token owner-${owner} ${extraClass}`.trim(), viewBox: "0 0 40 40", "aria-hidden": "true", focusable: "false" },
    groupShape(owner),
    roleIcon(role, 13, 6, 14),
    s("text", { x: "20", y: "33", "text-anchor": "middle", class: "hr-strength" }, STRENGTH[role]),
  );
}

/** A small mark of a group (its shape), e.g. beside a sealed ward or a seat. */
export function groupMark(owner, extraClass = "") {
  return s(
    "svg",
    { class: `hr-mark owner-${owner} ${extraClass}`.trim(), viewBox: "0 0 40 40", "aria-hidden": "true", focusable: "false" },
    groupShape(owner),
  );
}
