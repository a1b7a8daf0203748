// The match log, newest first so the last move is always in view: one entry per accepted action,
// headed by the seat's mark and name, then one short line per event, each told by the game's
// board in the reader's language; actions a bot chose and those the table played for a seat say so.

import { h } from "../dom.js";
import { t } from "../i18n.js";

const SHOWN = 150;

/** The sentences for one log entry (events the board can tell; unknown kinds are skipped). */
export function entryLines(entry, board) {
  return entry.events.map((event) => board.describe(event, entry)).filter(Boolean);
}

function who(entry, board, view, seatName) {
  if (entry.seat === null || entry.seat === undefined) return null;
  const label = board && view ? board.seatLabel(entry.seat, view) : null;
  return h("span", { class: `log-who seat-${entry.seat}` }, label && h("span", { class: "seat-mark", "aria-hidden": "true" }, label.mark), seatName ? seatName(entry.seat) : "");
}

function line(entry, board, view, seatName, newest) {
  const lines = entryLines(entry, board);
  if (entry.v === 0) lines.unshift(t("log.start"));
  if (!lines.length) return null;
  return h(
    "li",
    { class: ["log-entry", entry.by && `by-${entry.by}`, newest && "newest"], dataset: { v: String(entry.v) } },
    h("span", { class: "log-v", "aria-hidden": "true" }, String(entry.v)),
    h(
      "div",
      { class: "log-text" },
      who(entry, board, view, seatName),
      entry.by === "table" && h("em", { class: "played-by-table" }, ` ${t("log.by_table")}`),
      h("ul", { class: "log-lines" }, lines.map((text) => h("li", {}, text))),
    ),
  );
}

/**
 * @param {object[]} entries  the merged log, oldest first
 * @param {object} board      the game's board (describe, seatLabel)
 * @param {object} [view]     the view, for the seats' marks
 * @param {(seat: number) => string} [seatName]
 */
export function logPanel(entries, board, view = null, seatName = null) {
  const shown = entries.slice(-SHOWN).reverse();
  return h(
    "section",
    { class: "panel log-panel", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, t("table.log")),
    h("ol", { class: "log-list", reversed: true, tabindex: "0", "aria-label": t("table.log") }, shown.map((entry, i) => line(entry, board, view, seatName, i === 0))),
  );
}
