// Before the start: the seats, the invite link with a copy button, join, start and leave.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { seatName } from "./seats.js";

async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/**
 * @param {object} table  the table summary
 * @param {number|null} me
 * @param {{join: Function, start: Function, leave: Function, copied: Function}} actions
 */
export function waitingRoom(table, me, actions) {
  const invite = `${location.origin}/table/${table.id}`;
  const input = h("input", { id: "invite-link", class: "invite-input", readonly: true, value: invite, "aria-labelledby": "invite-label", onFocus: (e) => e.target.select() });
  const free = table.seats.filter((seat) => seat.kind === "open").length;
  return h(
    "section",
    { class: "panel waiting", "aria-labelledby": "waiting-title" },
    h("h2", { id: "waiting-title" }, t("waiting.title")),
    h("p", {}, free ? t("waiting.free", { count: free }) : t("waiting.full")),
    h(
      "ul",
      { class: "seat-list" },
      table.seats.map((row) =>
        h(
          "li",
          { class: ["seat-row", row.seat === me && "mine", row.kind === "open" && "free"], dataset: { seat: String(row.seat) } },
          h(
            "div",
            { class: "seat-head" },
            icon(row.bot ? "bot" : "person"),
            h("span", { class: "seat-name" }, seatName(table, row.seat)),
            row.bot && h("span", { class: "badge bot-badge" }, t("seat.bot_badge")),
            row.seat === me && h("span", { class: "badge you-badge" }, t("seat.you")),
            row.kind === "open" &&
              me === null &&
              h("button", { type: "button", class: "primary join-seat", dataset: { key: `join-${row.seat}` }, onClick: (e) => actions.join(row.seat, e.currentTarget) }, t("waiting.join")),
          ),
        ),
      ),
    ),
    h(
      "div",
      { class: "invite" },
      h("label", { id: "invite-label", for: "invite-link" }, icon("link"), t("waiting.invite")),
      h(
        "div",
        { class: "invite-row" },
        input,
        h(
          "button",
          {
            type: "button",
            class: "copy-invite",
            dataset: { key: "copy" },
            onClick: async () => actions.copied(await copy(invite, input)),
          },
          icon("copy"),
          t("waiting.copy"),
        ),
      ),
    ),
    me !== null &&
      h(
        "div",
        { class: "card-actions" },
        h("button", { type: "button", class: "primary start-table", dataset: { key: "start" }, onClick: (e) => actions.start(e.currentTarget) }, t("waiting.start")),
        h("button", { type: "button", class: "quiet leave-table", dataset: { key: "leave" }, onClick: (e) => actions.leave(e.currentTarget) }, t("waiting.leave")),
      ),
    me !== null && h("p", { class: "hint" }, t("waiting.start_hint")),
    me === null && !free && h("p", { class: "hint" }, t("waiting.watch")),
  );
}
