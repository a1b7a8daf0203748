// Before the start: the seats, the invite link with a copy button, join, start and leave. A
// guest who followed an invite link (no seat here yet) reads first who invites them to which
// game at which pace, and types the name the others will see before taking a seat; what only
// the host can act on (how to make the link reach other devices) is shown to the seated only.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { seatName } from "./seats.js";
import { paceLabel } from "../pace.js";
import { playerName } from "../store.js";

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

// What a guest typed in the name field, and what was wrong with it, per table: the room is drawn
// again on every change to the table (another person joining, a seat taken by a bot), which must
// wipe neither the name nor the reason said beside it.
const typed = new Map();
const problems = new Map();

/**
 * @param {object} table  the table summary
 * @param {number|null} me
 * @param {{join: Function, start: Function, leave: Function, copied: Function}} actions
 * @param {string|null} link  the invite link the server gave (the network address when it
 *   listens on the network), else this page's own address
 * @param {string} game  the game's name in the reader's language
 */
export function waitingRoom(table, me, actions, link, game) {
  const invite = link || `${location.origin}/table/${table.id}`;
  // a code to scan from the screen, when the link leads somewhere from another device
  const reachable = !LOOPBACK.has(new URL(invite).hostname);
  const input = h("input", { id: "invite-link", class: "invite-input", readonly: true, value: invite, "aria-labelledby": "invite-label", onFocus: (e) => e.target.select() });
  const free = table.seats.filter((seat) => seat.kind === "open").length;
  const guest = me === null && free > 0;
  const host = table.seats.find((seat) => seat.kind === "human");
  const nameInput = guest && h("input", { id: "guest-name", name: "name", autocomplete: "nickname", maxlength: 24, required: true, value: typed.get(table.id) ?? playerName(), "aria-describedby": "guest-name-error", onInput: (e) => { typed.set(table.id, e.target.value); mark(null); } });
  const nameError = guest && h("p", { id: "guest-name-error", class: "field-error", role: "alert", hidden: true });
  if (guest) show(problems.get(table.id) ?? null);
  /** The field marked and the reason said beside it (null: nothing wrong). */
  function show(problem) {
    nameInput.setAttribute("aria-invalid", problem ? "true" : "false");
    nameError.hidden = !problem;
    nameError.textContent = problem || "";
  }
  /** A new reason (or none), kept for the next drawing; the field takes the focus for it. */
  function mark(problem) {
    if (problem) problems.set(table.id, problem);
    else problems.delete(table.id);
    show(problem);
    if (problem) nameInput.focus();
  }
  function join(seat, button) {
    if (!guest) return actions.join(seat, button);
    const name = nameInput.value.trim();
    if (!name) return mark(t("waiting.name_needed"));
    return actions.join(seat, button, name);
  }
  return h(
    "section",
    { class: "panel waiting", "aria-labelledby": "waiting-title" },
    h("h2", { id: "waiting-title" }, guest ? (host ? t("waiting.invited", { name: host.name, game }) : t("waiting.invited_game", { game })) : t("waiting.title")),
    h("p", { class: "waiting-pace", "data-pace": table.pace || "real-time" }, icon("turn"), t("waiting.pace", { pace: paceLabel(table) })),
    h("p", {}, free ? t("waiting.free", { count: free }) : t("waiting.full")),
    guest && h("div", { class: "field guest-name" }, h("label", { for: "guest-name" }, t("waiting.guest_name")), nameInput, nameError),
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
              h("button", { type: "button", class: "primary join-seat", dataset: { key: `join-${row.seat}` }, onClick: (e) => join(row.seat, e.currentTarget) }, t("waiting.join")),
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
      // how to reach other devices is the operator's business: the seated host's, never a guest's
      !reachable && me !== null && h("p", { class: "hint invite-local" }, t("waiting.local_only")),
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
