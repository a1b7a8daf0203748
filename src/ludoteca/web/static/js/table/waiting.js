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

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * @param {object} table  the table summary
 * @param {number|null} me
 * @param {{join: Function, start: Function, leave: Function, copied: Function}} actions
 * @param {string|null} link  the invite link the server gave (the network address when it
 *   listens on the network), else this page's own address
 */
export function waitingRoom(table, me, actions, link) {
  const invite = link || `${location.origin}/table/${table.id}`;
  // a code to scan from the screen, when the link leads somewhere from another device
  const reachable = !LOOPBACK.has(new URL(invite).hostname);
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
      reachable &&
        h(
          "figure",
          { class: "invite-qr" },
          h("img", { src: `/api/tables/${encodeURIComponent(table.id)}/invite.svg`, width: "148", height: "148", alt: t("waiting.qr_alt", { link: invite }) }),
          h("figcaption", { class: "hint" }, t("waiting.qr")),
        ),
      !reachable && h("p", { class: "hint invite-local" }, t("waiting.local_only")),
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
