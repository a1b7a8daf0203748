// The person's own seed for the deal (docs/fairness.md#who-chooses-what-and-when), committed
// first and revealed only once the commitments are closed. The page makes a seed and a salt per
// table with crypto.getRandomValues (16 bytes each, 32 hex digits), shows the seed and its
// commitment, SHA-256(seed + "\n" + salt), while the table is open or starting, and lets the
// person type their own seed until the commitments close. It sends the commitment with the
// websocket's hello (table/early.js, or socket.js through helloCommitment: a commitment hides its
// seed, so it waits for nothing), else on the first state message of an open or starting table
// whose seat does not show it, and again whenever the person changes the seed; the seed and salt
// as soon as the table says the reveals are open (`revealing`) and shows this seat's commitment
// as the one the page made. It never reveals before that, and it sends each commitment and its
// reveal once per connection (state messages that arrive before the server has applied what was
// sent still show the seat without it), unless the table still does not show it RESEND_MS later
// (a refusal, a lost frame); a new connection, told by `connected()`, sends them again; the server
// accepts the same reveal twice. While the table is starting the panel
// says whose commitment or reveal the deal still waits for and counts down to `deal_by`.
// Format 5: the page reveals only against a head it checked itself: the prelude the table sent
// (every event since its creation) gives the head sent with it, starts with every event the page
// checked before, names the server's commitment shown when the person sat, has closed the
// commitments and holds this seat's own commitment as its last; the page keeps that head as a
// receipt (pages/table.js), and says plainly when a later prelude rewrote what it checked.

import { h } from "../dom.js";
import { commitmentOf } from "../fairness.js";
import { closed, extendsPrelude, preludeHeads, seatInPrelude } from "../prelude.js";
import { list, t } from "../i18n.js";
import { icon } from "../icons.js";
import { seatName } from "./seats.js";

const KEY = "ludoteca.seeds";
const MAX_TABLES = 50;
const PRINTABLE = /^[\x21-\x7e]*$/;

/** What is wrong with a seed by the server's rule ("empty", "long", "chars"), or null. */
export function seedProblem(text) {
  if (typeof text !== "string" || text.length === 0) return "empty";
  if (text.length > 64) return "long";
  if (!PRINTABLE.test(text)) return "chars";
  return null;
}

/** A fresh seed (or salt): 16 random bytes from the browser's cryptographic generator, as hex. */
export function newSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const SALT = /^[0-9a-f]{32}$/;

/** A seat commitment: SHA-256 of the seed, a newline and the salt, as lowercase hex. */
export async function seatCommitment(seed, salt) {
  return (await commitmentOf(`${seed}\n${salt}`)).hex;
}

function readAll() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function keep(tableId, entry) {
  const all = readAll();
  all[tableId] = { ...(all[tableId] || {}), ...entry, at: Date.now() };
  const recent = Object.entries(all)
    .sort((a, b) => (b[1].at || 0) - (a[1].at || 0))
    .slice(0, MAX_TABLES);
  try {
    localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(recent)));
  } catch {
    // storage disabled: the seed lasts for this page
  }
}

/** The seed and salt this browser holds for a table ({seed, salt}), made and kept on first use. */
export function seedFor(tableId) {
  const found = readAll()[tableId];
  if (found && typeof found.seed === "string" && !seedProblem(found.seed) && SALT.test(String(found.salt))) return { seed: found.seed, salt: found.salt };
  const made = { seed: newSeed(), salt: newSeed() };
  keep(tableId, made);
  return made;
}

function secondsLeft(table) {
  if (!table.deal_by) return null;
  const left = table.deal_by - Date.now() / 1000;
  // a clock ahead of the server's must not count beyond the whole wait
  const whole = table.started_at ? table.deal_by - table.started_at : left;
  return Math.max(0, Math.min(left, whole));
}

/** How long a sent commitment or reveal may go unseen in the table's state before it is sent
 * again on this connection (the server takes the same one twice). */
const RESEND_MS = 10000;

/**
 * The seed of one table page.
 * @param {string} tableId
 * @param {(message: object) => boolean} send  sends over the table's websocket
 * @param {() => void} redraw
 */
export function createDeal(tableId, send, redraw) {
  const own = seedFor(tableId);
  // commitment: of the current seed and salt (null while it is computed); each state message that
  // does not show it yet sends it again
  // sentCommit / sentReveal: what this connection already sent (reset by connected()), at sentAt;
  // sent again only if the table still does not show it RESEND_MS later (a refusal, a lost frame)
  const state = { seed: own.seed, salt: own.salt, commitment: null, draft: null, problem: null, msg: null, seat: null, sentCommit: null, sentReveal: false, sentAt: 0 };
  // format 5: the prelude this page checked (its events and head) and whether a later one
  // rewrote it (`rewritten`)
  const proof = { events: [], head: null, rewritten: false };

  async function checkPrelude(msg) {
    const events = msg.prelude;
    const heads = await preludeHeads(events);
    if (heads[heads.length - 1] !== msg.chain) return; // not the head it came with: not checked
    if (!extendsPrelude(proof.events, events)) {
      proof.rewritten = true;
      redraw();
      return;
    }
    [proof.events, proof.head] = [events, msg.chain];
    sendIfDue();
  }

  /** Format 5: whether the deal shows every seat's last commitment and every reveal of the
   * prelude this page checked. */
  function dealtAsChecked(view) {
    const commitments = view.commitments || [];
    const contributions = view.contributions || [];
    return proof.events.every((e, i) => {
      if (e.event === "reveal") return contributions[e.seat] === e.contribution;
      if (e.event !== "commit") return true;
      const later = proof.events.slice(i + 1).some((x) => x.seat === e.seat && ["commit", "leave", "sit"].includes(x.event));
      return later || commitments[e.seat] === e.commitment;
    });
  }

  /** Format 5: whether the head the table shows now is one this page checked and binds this
   * seat's own commitment and the server's commitment shown when it sat (older formats: yes). */
  function checkedNow(msg, kept) {
    if (!msg.prelude || !msg.prelude.length) return msg.table.format < 5;
    const events = proof.events;
    return !proof.rewritten && proof.head === msg.chain && closed(events) && events[0].commitment === kept.server && seatInPrelude(events, state.seat).commitment === state.commitment;
  }

  async function recompute() {
    const seed = state.seed;
    const made = await seatCommitment(seed, state.salt);
    if (state.seed !== seed) return;
    state.commitment = made;
    sendIfDue();
    redraw();
  }
  let computing = recompute();

  function open(msg) {
    return msg && msg.table.format >= 2 && (msg.table.status === "open" || msg.table.status === "starting");
  }

  // What this browser was shown, kept with its seed: the table's commitment when it first held
  // a seat here (`server`), and its own commitment once the table took its reveal (`revealed`).
  // The page reveals only while the table still shows the commitment it sat at, and says plainly
  // when the table later disagrees with either (alarm()).
  function remember(msg, seat) {
    if (!msg || msg.table.format < 3 || seat === null) return;
    const row = msg.table.seats[seat];
    const kept = readAll()[tableId] || {};
    if (!row || (row.kind !== "human" && !row.bot_from)) return;
    if (!kept.server && row.kind === "human") keep(tableId, { server: msg.table.commitment });
    if (!kept.revealed && row.contributed && state.commitment && row.commitment === state.commitment) keep(tableId, { revealed: state.commitment });
  }

  /** What the table shows that disagrees with what this browser was shown: [code, values]. */
  function disagreements(msg, seat) {
    if (!msg || msg.table.format < 3 || seat === null) return [];
    const kept = readAll()[tableId] || {};
    const row = msg.table.seats[seat];
    const found = [];
    if (kept.server && msg.table.commitment !== kept.server) found.push(["secret", { shown: kept.server, now: msg.table.commitment }]);
    if (kept.revealed && row && row.commitment !== kept.revealed) found.push(["commitment", { shown: kept.revealed, now: row.commitment || "—" }]);
    const given = msg.view && msg.view.contributions;
    if (kept.revealed && given && given[seat] == null) found.push(["withheld", {}]);
    if (proof.rewritten || (msg.view && !dealtAsChecked(msg.view))) found.push(["history", {}]);
    return found;
  }

  function overdue() {
    return Date.now() - state.sentAt > RESEND_MS;
  }

  function sendIfDue() {
    const msg = state.msg;
    if (!open(msg) || state.seat === null || !state.commitment) return;
    const row = msg.table.seats[state.seat];
    if (!row || row.kind !== "human") return;
    const kept = readAll()[tableId] || {};
    if (kept.server && msg.table.commitment !== kept.server) return; // not against another secret
    if (!msg.table.revealing) {
      if (row.commitment !== state.commitment && (state.sentCommit !== state.commitment || overdue())) {
        if (send({ type: "commit", commitment: state.commitment })) [state.sentCommit, state.sentAt] = [state.commitment, Date.now()];
      }
      return;
    }
    // the reveals are open: reveal only the seed of the commitment the table shows for this seat,
    // against a head this page checked (format 5)
    if (!checkedNow(msg, kept)) return;
    if (!row.contributed && row.commitment === state.commitment && (!state.sentReveal || overdue())) {
      if (send({ type: "reveal", seed: state.seed, salt: state.salt })) [state.sentReveal, state.sentAt] = [true, Date.now()];
    }
  }

  function use(event) {
    event.preventDefault();
    const text = state.draft === null ? state.seed : state.draft;
    state.problem = seedProblem(text);
    if (!state.problem && !(state.msg && state.msg.table.revealing)) {
      state.seed = text;
      state.draft = null;
      state.commitment = null;
      keep(tableId, { seed: state.seed, salt: state.salt });
      computing = recompute();
    }
    redraw();
  }

  function countdown() {
    for (const el of document.querySelectorAll("[data-deal-countdown]")) {
      const left = state.msg ? secondsLeft(state.msg.table) : null;
      if (left !== null) el.textContent = t("fair.deal.countdown", { count: Math.ceil(left) });
    }
  }
  const timer = setInterval(countdown, 250);

  function waits(table) {
    const waiting = table.revealing
      ? table.seats.filter((row) => row.kind === "human" && row.commitment && !row.contributed)
      : table.seats.filter((row) => row.kind === "human" && !row.commitment);
    if (!waiting.length) return h("p", { "data-deal-waits": "" }, t("fair.deal.dealing"));
    const names = waiting.map((row) => (row.seat === state.seat ? t("seat.you") : seatName(table, row.seat)));
    const left = secondsLeft(table);
    return [
      h("p", { "data-deal-waits": "" }, t(table.revealing ? "fair.deal.waits_reveal" : "fair.deal.waits_for", { names: list(names), count: names.length })),
      left !== null && h("p", { class: "deal-countdown", role: "timer", "data-deal-countdown": "" }, t("fair.deal.countdown", { count: Math.ceil(left) })),
    ];
  }

  function seedForm(table) {
    const row = table.seats[state.seat];
    const committed = Boolean(row && state.commitment && row.commitment === state.commitment);
    const revealed = committed && row.contributed;
    const sent = revealed ? "revealed" : committed ? "committed" : "no";
    const value = state.draft === null ? state.seed : state.draft;
    return [
      h("p", {}, t("fair.deal.explain")),
      h("p", { class: "hash deal-commitment" }, t("fair.deal.commitment"), " ", h("code", { "data-deal-commitment": "" }, state.commitment || "…")),
      h(
        "form",
        { class: "deal-form", onSubmit: use },
        h("label", { for: "deal-seed" }, t("fair.deal.label")),
        h(
          "div",
          { class: "deal-row" },
          h("input", {
            id: "deal-seed",
            class: "deal-seed",
            value,
            maxlength: "64",
            spellcheck: "false",
            autocomplete: "off",
            autocapitalize: "off",
            "aria-describedby": "deal-seed-rule",
            "aria-invalid": state.problem ? "true" : null,
            readonly: table.revealing ? "" : null,
            onInput: (e) => {
              state.draft = e.target.value;
            },
          }),
          h("button", { type: "submit", class: "deal-use", dataset: { key: "deal-use" } }, t("fair.deal.use")),
        ),
        h("p", { id: "deal-seed-rule", class: "hint" }, t("fair.deal.rule")),
        state.problem && h("p", { class: "error", role: "alert", "data-deal-problem": "" }, t(`fair.deal.bad.${state.problem}`)),
        h("p", { class: ["deal-sent", sent !== "no" && "ok"], "data-deal-sent": sent }, icon(sent !== "no" ? "check" : "away"), t(`fair.deal.${sent === "no" ? "not_sent" : sent}`)),
      ),
    ];
  }

  return {
    /** A new connection (its welcome): what the last one sent may not have arrived. */
    connected() {
      state.sentCommit = null;
      state.sentReveal = false;
    },
    /** The commitment a hello may carry (socket.js), as `commit` would send it: the page's
     * own, unless the last state showed the table past taking it (or with another secret). */
    async helloCommitment() {
      await computing;
      const msg = state.msg;
      const kept = readAll()[tableId] || {};
      if (msg && (!open(msg) || msg.table.revealing || (kept.server && msg.table.commitment !== kept.server))) return null;
      return state.commitment;
    },
    /** Remember the state and send the seed if the table waits for it. */
    onState(msg, seat) {
      state.msg = msg;
      state.seat = seat;
      remember(msg, seat);
      if (msg.prelude && msg.prelude.length && seat !== null) checkPrelude(msg);
      sendIfDue();
    },
    /** A plain alarm when the table disagrees with what this browser kept (null otherwise). */
    alarm(msg, seat) {
      const found = disagreements(msg, seat);
      if (!found.length) return null;
      return h(
        "section",
        { class: "panel fair-alarm", role: "alert", "aria-labelledby": "fair-alarm-title" },
        h("h2", { id: "fair-alarm-title" }, icon("cross"), t("fair.alarm.title")),
        found.map(([code, values]) => h("p", { "data-fair-problem": code }, t(`fair.alarm.${code}`, values))),
      );
    },
    /** The panel while the table is open or starting (null otherwise). */
    panel(msg, seat) {
      if (!open(msg)) return null;
      const table = msg.table;
      const mine = seat !== null && table.seats[seat] && table.seats[seat].kind === "human";
      if (!mine && table.status !== "starting") return null;
      return h(
        "section",
        { class: "panel deal-panel", "aria-labelledby": "deal-title", dataset: { status: table.status } },
        h("h2", { id: "deal-title" }, icon("key"), mine ? t("fair.deal.title") : t("fair.deal.title_watching")),
        mine && seedForm(table),
        table.status === "starting" && waits(table),
      );
    },
    destroy() {
      clearInterval(timer);
    },
  };
}
