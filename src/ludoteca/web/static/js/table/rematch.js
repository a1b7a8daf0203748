// The rematch at the end of a match (docs/protocol.md#rematch): the end panel's part (offer one,
// see the offer the moment someone makes it, "Ana wants a rematch", accept or decline it, who
// has accepted and the time left) and the table page's side of it (createRematch: the newest
// offer heard, the requests, the keys, and moving to the new table once everyone accepted).

import { api } from "../api.js";
import { announce, toastError } from "../announce.js";
import { h } from "../dom.js";
import { list, t } from "../i18n.js";
import { icon } from "../icons.js";
import { navigate } from "../nav.js";
import { play } from "../sound.js";
import { keepSeat } from "../store.js";

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
    // after someone declined or left, the others may choose a bot for them instead of asking again
    const gone = rematch && (rematch.reason === "declined" || rematch.reason === "left") ? rematch.answers.indexOf("no") : -1;
    const withBot =
      gone >= 0 && gone !== me &&
      h("button", { type: "button", dataset: { key: "rematch-bots" }, onClick: (e) => actions.offer(e.currentTarget, true) }, icon("bot"), t("rematch.with_bot", { name: personName(table, gone) }));
    return box(note && h("p", { class: "hint rematch-ended" }, note), h("p", { class: "card-actions" }, offerButton("rematch", t("rematch.offer")), withBot), h("p", { class: "hint" }, t("rematch.hint")));
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


/**
 * The rematch of the table page: the newest offer heard (from a state message, or the answer to
 * this page's own request), its clock, the requests, the keys (R: offer or accept, D: decline),
 * and leaving: a page that goes away while an offer is live leaves the table ("Ana left").
 * @param {{tableId: string, token: () => string|null, seat: () => number|null,
 *   table: () => object|null, endEl: HTMLElement, redraw: () => void}} page
 */
export function createRematch(page) {
  let offer = null;
  let deadline = null; // when a live offer lapses (performance.now() milliseconds)
  let gone = false; // this page moves to the rematch's table (or left): nothing more to send

  const live = () => liveOffer(offer, deadline);

  /** Said aloud (the live region) as it happens: an offer from someone else, its end. */
  function tell(held, rematch) {
    const table = page.table();
    if (!table || (held && held.version === rematch.version && held.table === rematch.table)) return;
    const me = page.seat();
    const fresh = !held || held.table !== rematch.table;
    if (rematch.state === "offered" && fresh && rematch.by !== me) {
      announce(t("rematch.wants", { name: personName(table, rematch.by) }));
      play("turn");
    } else if (held && held.state === "offered" && held.table === rematch.table && rematch.state === "declined") {
      const no = rematch.answers.indexOf("no");
      if (no >= 0 && no !== me) announce(t(rematch.reason === "left" ? "rematch.left" : "rematch.declined", { name: personName(table, no) }));
    }
  }

  /** Everyone accepted: to my seat at the new table (my answer gave me its token). */
  function go(newTable) {
    if (gone) return;
    gone = true;
    announce(t("rematch.accepted"));
    setTimeout(() => navigate(`/table/${newTable}`), 0);
  }

  /** Keep the newest offer heard (`mine`: the answer to this page's request). One accepted while
   * this page watched it (or by its own answer) takes the page there; one accepted long ago
   * does not, when the old table is opened again. */
  function heard(rematch, mine = false) {
    if (!rematch || (offer && offer.version > rematch.version)) return;
    const watched = mine || Boolean(offer && offer.state === "offered");
    tell(offer, rematch);
    offer = rematch;
    deadline = rematch.state === "offered" ? performance.now() + rematch.expires_in * 1000 : null;
    if (rematch.state === "accepted" && page.seat() !== null && watched) go(rematch.table);
  }

  /** The clock of a live offer; once it runs out, the panel says it lapsed. */
  function tick() {
    if (deadline === null) return;
    if (!live()) {
      deadline = null;
      page.redraw();
      return;
    }
    const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
    for (const el of page.endEl.querySelectorAll("[data-rematch-clock]")) el.textContent = t("rematch.time_left", { seconds: String(left) });
  }

  async function want(button, bots = false) {
    if (button) button.disabled = true;
    try {
      const answer = await api.rematch(page.tableId, page.token(), bots);
      keepSeat(answer.table, answer.seat, answer.token);
      heard(answer.rematch, true);
      if (!gone) page.redraw();
    } catch (error) {
      toastError(error);
      if (button) button.disabled = false;
    }
  }

  async function decline(button) {
    if (button) button.disabled = true;
    try {
      heard((await api.declineRematch(page.tableId, page.token())).rematch);
      page.redraw();
    } catch (error) {
      toastError(error);
      if (button) button.disabled = false;
    }
  }

  /** Leaving the page leaves the finished table, which lapses a live offer for the others. */
  function leave() {
    const token = page.token();
    if (!live() || gone || page.seat() === null || !token) return;
    gone = true;
    const headers = { Authorization: `Bearer ${token}`, Accept: "application/json", "Content-Type": "application/json" };
    fetch(`/api/tables/${encodeURIComponent(page.tableId)}/leave`, { method: "POST", keepalive: true, headers, body: "{}" }).catch(() => {});
  }
  window.addEventListener("pagehide", leave);

  return {
    heard,
    tick,
    want,
    decline,
    offer: () => offer,
    deadline: () => deadline,
    /** R offers or accepts, D declines, at the end of a match for a seated person. */
    onKey(event) {
      const me = page.seat();
      if (me === null) return false;
      const key = event.key.toLowerCase();
      const mine = live() ? offer.answers[me] : null;
      if (key === "r" && mine !== "yes" && !(offer && offer.state === "accepted")) {
        want(page.endEl.querySelector("[data-key=rematch], [data-key=rematch-accept]"));
        return true;
      }
      if (key === "d" && live()) {
        decline(page.endEl.querySelector("[data-key=rematch-decline]"));
        return true;
      }
      return false;
    },
    destroy() {
      leave();
      window.removeEventListener("pagehide", leave);
    },
  };
}
