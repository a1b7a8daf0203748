// The seats panel: who sits where, bots marked as bots, whose turn, the turn clock, who is away
// or disconnected, and what each seat may show of its hidden things (counts, from the board);
// below it, for a person at a match being played, Resign (asked to confirm first).

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { turnDeadline } from "../pace.js";

/** The display name of a seat: a person's name, or "Bot 2 · medium" in the reader's language. */
export function seatName(table, seat) {
  const row = table && table.seats ? table.seats[seat] : null;
  if (!row) return t("seat.unknown", { n: seat + 1 });
  const level = t(`levels.${row.level || "medium"}`);
  // a person's seat a bot took over (they resigned, or timed out too often) keeps their name
  if (row.bot && row.bot_from !== null && row.bot_from !== undefined) return t("seat.bot_for", { n: seat + 1, level, name: row.name });
  if (row.bot) return t("seat.bot", { n: seat + 1, level });
  if (row.kind === "open") return t("seat.free", { n: seat + 1 });
  return row.name;
}

/** "0:41" from seconds. */
export function clockText(seconds) {
  const total = Math.max(0, Math.ceil(seconds));
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, "0")}`;
}

function status(row, toMove, clock, me) {
  const parts = [];
  if (toMove) {
    parts.push(
      h(
        "span",
        { class: "badge turn-badge" },
        icon("turn"),
        t("seat.to_move"),
        clock &&
          (clock.pace === "turn-based"
            ? h("span", { class: "deadline" }, turnDeadline(clock, me, "until"))
            : h("span", { class: "clock", "data-clock": "", role: "timer", "aria-label": t("seat.clock") }, clockText(clock.remaining))),
      ),
    );
  }
  if (row.away) parts.push(h("span", { class: "badge away-badge" }, icon("away"), t("seat.away")));
  if (row.kind === "human" && !row.connected) parts.push(h("span", { class: "badge offline-badge" }, t("seat.offline")));
  return parts;
}

/**
 * @param {object} msg     the last state message
 * @param {number|null} me the seat this browser holds
 * @param {object} board   the game's board (seatLabel, seatFacts)
 */
export function seatsPanel(msg, me, board) {
  const table = msg.table;
  const view = msg.view;
  const toMove = view && !view.over ? view.to_move : null;
  return h(
    "section",
    { class: "panel seats-panel", "aria-labelledby": "seats-title" },
    h("h2", { id: "seats-title" }, t("table.seats")),
    h(
      "ul",
      { class: "seat-list" },
      table.seats.map((row) => {
        const label = board && view ? board.seatLabel(row.seat, view) : null;
        const facts = board && view ? board.seatFacts(row.seat, view) : [];
        return h(
          "li",
          {
            class: ["seat-row", row.seat === toMove && "to-move", row.seat === me && "mine", row.bot && "bot"],
            dataset: { seat: String(row.seat) },
          },
          h(
            "div",
            { class: "seat-head" },
            label && h("span", { class: `seat-mark seat-${row.seat}`, "aria-hidden": "true" }, label.mark),
            icon(row.bot ? "bot" : "person"),
            h("span", { class: "seat-name" }, seatName(table, row.seat)),
            row.bot && h("span", { class: "badge bot-badge" }, t("seat.bot_badge")),
            row.seat === me && h("span", { class: "badge you-badge" }, t("seat.you")),
          ),
          label && h("div", { class: "seat-label" }, label.text),
          h("div", { class: "seat-status" }, status(row, row.seat === toMove, msg.clock, me)),
          facts.length > 0 && h("ul", { class: "seat-facts" }, facts.map((fact) => h("li", {}, fact))),
        );
      }),
    ),
  );
}

/** Resign, for the person at a match being played: at 2 seats the match ends, the other side
 * the winner; with more a bot of the table's level then plays the seat
 * (docs/protocol.md#resigning); and Abort, while the server says this seat may (a person
 * before their own first move, docs/protocol.md#aborting): the match ends for everyone with no
 * result. The browser asks to confirm either first. */
export function resignPanel(msg, me, send) {
  const row = me !== null && msg.table.seats[me];
  if (!row || row.kind !== "human" || !msg.view || msg.view.over || msg.table.status !== "playing") return null;
  return h(
    "p",
    { class: "resign-row" },
    msg.abort &&
      h(
        "button",
        {
          type: "button",
          class: "quiet abort",
          dataset: { key: "abort" },
          onClick: () => {
            if (window.confirm(t("table.abort_confirm"))) send({ type: "abort" });
          },
        },
        icon("cross"),
        t("table.abort"),
      ),
    h(
      "button",
      {
        type: "button",
        class: "quiet resign",
        dataset: { key: "resign" },
        onClick: () => {
          // at 2 seats a resign ends the match, the other side the winner; with more a bot plays on
          const confirm = msg.table.seats.length === 2 ? "table.resign_confirm_two" : "table.resign_confirm";
          if (window.confirm(t(confirm))) send({ type: "resign" });
        },
      },
      icon("away"),
      t("table.resign"),
    ),
  );
}
