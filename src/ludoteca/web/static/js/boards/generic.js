// The board for any game without one of its own: the view's position (any plain JSON) as a
// readable outline, and every legal action text as a button in the dock (digits 1–9 pick the
// first nine). It draws nothing it does not get from the server, so a new game is playable as
// soon as its Python package is there.

import { h, rerender } from "../dom.js";
import { t } from "../i18n.js";

const MAX_DEPTH = 8;
const MAX_ITEMS = 200;

function scalar(value) {
  if (value === null || value === undefined) return h("span", { class: "gb-null" }, "—");
  if (typeof value === "boolean") return h("span", { class: "gb-bool" }, value ? t("generic.yes") : t("generic.no"));
  return h("span", { class: typeof value === "number" ? "gb-number" : "gb-text" }, String(value));
}

function isScalar(value) {
  return value === null || value === undefined || typeof value !== "object";
}

/** Any JSON value as nested lists: objects as term/definition pairs, arrays of plain values on
 * one line, deeper arrays as numbered lists; cut off (and said so) past a depth or a length. */
export function outline(value, depth = 0) {
  if (isScalar(value)) return scalar(value);
  if (depth >= MAX_DEPTH) return h("span", { class: "gb-more" }, "…");
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "gb-empty" }, t("generic.empty"));
    const shown = value.slice(0, MAX_ITEMS);
    const more = value.length > shown.length && h("li", { class: "gb-more" }, t("generic.more", { count: value.length - shown.length }));
    if (shown.every(isScalar)) return h("span", { class: "gb-inline" }, shown.map((item, i) => [i ? ", " : "", scalar(item)]), more ? " …" : "");
    return h("ol", { class: "gb-list", start: "0" }, shown.map((item) => h("li", {}, outline(item, depth + 1))), more);
  }
  const entries = Object.entries(value).slice(0, MAX_ITEMS);
  if (!entries.length) return h("span", { class: "gb-empty" }, t("generic.empty"));
  return h("dl", { class: "gb-map" }, entries.map(([key, item]) => h("div", { class: "gb-pair" }, h("dt", {}, key.replace(/_/g, " ")), h("dd", {}, outline(item, depth + 1)))));
}

function fields(event) {
  return Object.entries(event)
    .filter(([key]) => key !== "kind")
    .map(([key, value]) => `${key.replace(/_/g, " ")}: ${isScalar(value) ? (value === null ? "—" : String(value)) : JSON.stringify(value)}`)
    .join(", ");
}

export function createBoard(ctx) {
  let msg = null;

  function seatText(seat) {
    return typeof seat === "number" ? ctx.seatName(seat) : "";
  }

  function build() {
    const view = msg.view;
    return h(
      "div",
      { class: "generic-board" },
      h(
        "section",
        { class: "panel gb-position", "aria-labelledby": "gb-position-title" },
        h("h2", { id: "gb-position-title" }, t("generic.position")),
        !view.over && typeof view.to_move === "number" && h("p", { class: "gb-to-move" }, t("generic.to_move", { name: seatText(view.to_move) })),
        outline(view.position),
      ),
    );
  }

  function buildDock() {
    const legal = msg.legal;
    if (!legal.length) return null;
    return h(
      "div",
      { class: "gb-actions action-list", role: "group", "aria-label": t("generic.actions") },
      legal.map((text, i) =>
        h(
          "button",
          { type: "button", class: "lit gb-action", dataset: { key: `a-${text}`, action: text }, onClick: () => ctx.act(text) },
          i < 9 && h("kbd", { "aria-hidden": "true" }, String(i + 1)),
          " ",
          text,
        ),
      ),
    );
  }

  return {
    render(next) {
      msg = next;
      rerender(ctx.root, build);
      rerender(ctx.dock, buildDock);
    },
    prompt: (m) => (m.view.over ? t("generic.over") : m.legal.length ? t("generic.prompt") : t("generic.wait", { name: seatText(m.view.to_move) })),
    onKey(event) {
      if (!/^[1-9]$/.test(event.key) || !msg) return false;
      const text = msg.legal[Number(event.key) - 1];
      return text !== undefined && ctx.act(text);
    },
    describe(event, entry) {
      const who = entry && typeof entry.seat === "number" ? `${seatText(entry.seat)}: ` : "";
      const said = entry && entry.action && event === entry.events[0] ? `${entry.action}. ` : "";
      const rest = fields(event);
      return `${who}${said}${t("generic.event", { kind: String(event.kind).replace(/_/g, " ") })}${rest ? ` (${rest})` : ""}`;
    },
    describeAction: (text) => text,
    soundOf: () => null,
    seatLabel: () => null,
    seatFacts: () => [],
    outcome: (view) => t("generic.outcome", { reason: (view.outcome && view.outcome.reason) || "" }),
    revealed: () => null,
    keys: () => [["1–9", t("generic.key")]],
  };
}
