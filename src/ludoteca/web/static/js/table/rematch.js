// The rematch on the end panel (docs/protocol.md#rematch): offer one, see the offer the moment
// someone makes it ("Ana wants a rematch", also said aloud by table.js), accept or decline it,
// who has accepted and the time left; once everyone has, the page moves to the new table by
// itself (table.js).

import { h } from "../dom.js";
import { list, t } from "../i18n.js";
import { icon } from "../icons.js";

/** An offer past its time reads as lapsed, whatever the last message said. */
export function liveOffer(rematch, deadline) {
  return Boolean(rematch && rematch.state === "offered" && deadline !== null && deadline > performance.now());
}

function personName(table, seat) {
  const row = table.seats[seat];
  return (row && row.name) || t("seat.unknown", { n: seat + 1 });
}

/** Why the last offer ended, in a sentence (null when none ended). */
function endedNote(rematch, table) {
  if (!rematch || rematch.state === "offered" || rematch.state === "accepted") return null;
  const no = rematch.answers.indexOf("no");
  if (rematch.reason === "left" && no >= 0) return t("rematch.left", { name: personName(table, no) });
  if (rematch.reason === "declined" && no >= 0) return t("rematch.declined", { name: personName(table, no) });
  return t("rematch.lapsed");
}

/**
 * The rematch part of the end panel.
 * @param {object|null} rematch the table's `rematch` as last received
 * @param {number|null} deadline when a live offer lapses (performance.now() milliseconds)
 * @param {{offer: Function, decline: Function}} actions
 */
export function rematchBox(rematch, table, me, deadline, actions) {
  const live = liveOffer(rematch, deadline);
  const state = rematch ? (live ? "offered" : rematch.state === "offered" ? "lapsed" : rematch.state) : "none";
  const box = (...children) => h("div", { class: "rematch-box", dataset: { key: "rematch-box", state } }, ...children);
  if (state === "accepted") {
    return box(
      h("p", { class: "rematch-note" }, icon("reroll"), t("rematch.accepted")),
      h("a", { class: "button", href: `/table/${encodeURIComponent(rematch.table)}`, "data-link": "", dataset: { key: "rematch-link" } }, t("rematch.go")),
    );
  }
  const seated = me !== null && table.seats[me] && table.seats[me].kind !== "open";
  const offerButton = (key, text) =>
    h("button", { type: "button", class: "primary", dataset: { key }, "aria-keyshortcuts": "R", onClick: (e) => actions.offer(e.currentTarget) }, icon("reroll"), text);
  const declineButton = () =>
    h("button", { type: "button", dataset: { key: "rematch-decline" }, "aria-keyshortcuts": "D", onClick: (e) => actions.decline(e.currentTarget) }, t("rematch.decline"));
  if (!live) {
    const note = endedNote(rematch, table);
    if (!seated) return note ? box(h("p", { class: "hint" }, note)) : null;
    return box(note && h("p", { class: "hint rematch-ended" }, note), h("p", { class: "card-actions" }, offerButton("rematch", t("rematch.offer"))), h("p", { class: "hint" }, t("rematch.hint")));
  }
  const by = personName(table, rematch.by);
  const waiting = rematch.answers.map((answer, seat) => (answer === null ? personName(table, seat) : null)).filter(Boolean);
  const accepted = rematch.answers.map((answer, seat) => (answer === "yes" ? personName(table, seat) : null)).filter(Boolean);
  const mine = me !== null ? rematch.answers[me] : null;
  const lines = [
    h("p", { class: "rematch-note" }, icon("reroll"), mine === "yes" && rematch.by === me ? t("rematch.you_offered") : t("rematch.wants", { name: by })),
    accepted.length > 0 && h("p", { class: "rematch-yes" }, t("rematch.accepted_by", { names: list(accepted), count: accepted.length })),
    waiting.length > 0 && h("p", { class: "rematch-waiting" }, t("rematch.waiting", { names: list(waiting), count: waiting.length })),
    h("p", { class: "hint" }, h("span", { class: "rematch-clock", "data-rematch-clock": "" }, "")),
  ];
  if (!seated) return box(...lines);
  const buttons = mine === "yes" ? [declineButton()] : [offerButton("rematch-accept", t("rematch.accept")), declineButton()];
  return box(...lines, h("p", { class: "card-actions" }, buttons));
}

