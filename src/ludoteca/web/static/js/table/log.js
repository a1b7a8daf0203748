// The match log: one line per accepted action, each event told by the game's board in the
// reader's language, marking actions a bot chose and those the table played for a seat.

import { h } from "../dom.js";
import { t } from "../i18n.js";

const SHOWN = 150;

/** The sentences for one log entry (events the board can tell; unknown kinds are skipped). */
export function entryLines(entry, board) {
  return entry.events.map((event) => board.describe(event, entry)).filter(Boolean);
}

function line(entry, board) {
  const lines = entryLines(entry, board);
  if (entry.v === 0) lines.unshift(t("log.start"));
  if (!lines.length) return null;
  return h(
    "li",
    { class: ["log-entry", entry.by && `by-${entry.by}`], dataset: { v: String(entry.v) } },
    h("span", { class: "log-v", "aria-hidden": "true" }, String(entry.v)),
    h(
      "span",
      { class: "log-text" },
      lines.join(" "),
      entry.by === "table" && h("em", { class: "played-by-table" }, ` ${t("log.by_table")}`),
    ),
  );
}

export function logPanel(entries, board) {
  const shown = entries.slice(-SHOWN);
  return h(
    "section",
    { class: "panel log-panel", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, t("table.log")),
    h("ol", { class: "log-list", tabindex: "0", "aria-label": t("table.log") }, shown.map((entry) => line(entry, board))),
  );
}
