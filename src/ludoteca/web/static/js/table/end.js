// The end of a match: the result, the scores, whether it was rated and each person's rating
// change, the rematch (offered, accepted, declined), the revealed seed next to the commitment, hidden items, and the links to verify and to
// replay the match, and the signed record to download. On a wide screen the panel sits beside the
// final position (pages/table.js places it), on a phone above it.

import { h } from "../dom.js";
import { list, number, t } from "../i18n.js";
import { icon } from "../icons.js";
import { rematchBox } from "./rematch.js";
import { seatName } from "./seats.js";

/** The heading of a resigned 2-player match (docs/protocol.md#resigning): who resigned and who
 * wins, in the reader's own words when it is them. */
export function resignedLine(ended, table, me) {
  const winner = 1 - ended.seat;
  if (me === ended.seat) return t("end.you_resigned", { winner: seatName(table, winner) });
  if (me === winner) return t("end.resigned_you_win", { name: seatName(table, ended.seat) });
  return t("end.resigned", { name: seatName(table, ended.seat), winner: seatName(table, winner) });
}

function headline(view, table, me) {
  // a resigned 2-player match has a result: the other seat wins (docs/protocol.md#resigning)
  if (view.ended && view.ended.by === "resign") return resignedLine(view.ended, table, me);
  // a match that ended other than by the rules (docs/protocol.md#aborting): no result
  if (view.ended) return view.ended.by === "abort" ? t("end.aborted", { name: seatName(table, view.ended.seat) }) : t("end.operator");
  const outcome = view.outcome || {};
  const winners = outcome.winners || [];
  if (outcome.draw) return t("end.draw");
  if (!winners.length) return t("end.no_winner");
  if (me !== null && winners.includes(me)) return winners.length > 1 ? t("end.you_share") : t("end.you_win");
  return t("end.wins", { names: list(winners.map((seat) => seatName(table, seat))), count: winners.length });
}

/** A rating change as people read it: "+12", "−8", "±0". */
export function signed(value) {
  return value > 0 ? `+${number(value)}` : value < 0 ? `−${number(-value)}` : "±0";
}

/** "Rated match" and each person's new rating with its change, from GET /api/tables/{id}/rating
 * (nothing for a casual match, or before the answer). */
function ratedNote(rating, me) {
  if (!rating || !rating.rated) return null;
  const head = (text) => h("p", { class: "rated-note", role: "status", dataset: { key: "rated", state: rating.state } }, icon("trophy"), text);
  if (rating.state === "waiting") return head(t("end.rated_waiting"));
  if (rating.state !== "rated") return head(t("end.rated_none", { reason: rating.reason || "" }));
  return h(
    "div",
    { class: "rated-box" },
    head(t("end.rated")),
    h(
      "ul",
      { class: "rating-changes" },
      rating.changes.map((c) =>
        h(
          "li",
          { class: c.change > 0 ? "up" : c.change < 0 ? "down" : "same", dataset: { seat: String(c.seat), change: String(c.change) }, "aria-current": c.seat === me ? "true" : null },
          t("end.rating_line", { name: c.name || "", after: number(c.after, { useGrouping: false }), change: signed(c.change) }),
        ),
      ),
    ),
  );
}

/** What each seat held, as the board reveals it; folded on a phone, where the panel sits above
 * the final position and is kept short (on a wide screen it sits beside the board, open). */
function heldBy(board, view) {
  const held = board && board.revealed(view);
  if (!held || !matchMedia("(max-width: 980px)").matches) return held;
  return h("details", { class: "revealed-fold", dataset: { key: "revealed-fold" } }, h("summary", {}, t("end.held")), held);
}

/**
 * The end panel, in the order a player wants it: the result (headline, how it ended, scores),
 * then Play again, Replay and Verify, then what each seat held, and the proof folded below.
 * @param {{again: (button: HTMLButtonElement) => void, offer: Function, decline: Function}} actions
 * @param {object|null} rating the answer of GET /api/tables/{id}/rating, once it came
 * @param {{offer: object|null, deadline: number|null}} rematch the rematch offered (the newest
 *   heard) and when it lapses (performance.now() milliseconds)
 */
export function endPanel(msg, me, board, proof, actions, rating = null, rematch = { offer: null, deadline: null }) {
  const view = msg.view;
  const table = msg.table;
  const scores = (view.outcome && view.outcome.scores) || [];
  // resigned at 2 seats: a result, the other seat's win; aborted or ended by the operator: none
  const resigned = Boolean(view.ended && view.ended.by === "resign");
  const noResult = Boolean(view.ended) && !resigned;
  // the commitment is the SHA-256 of the server's secret (of the seed itself in older matches)
  const seed = view.secret || view.seed || table.secret || table.seed;
  const others = table.seats.some((seat, index) => index !== me && !seat.bot);
  const check =
    (proof && proof.panel(msg, me)) ||
    (seed &&
      h(
        "div",
        { class: "seed-box" },
        h("h4", {}, t("end.seed")),
        h("code", { class: "seed", "data-seed": "" }, seed),
        h("p", { class: "hint" }, t("end.seed_hint", { fingerprint: table.fingerprint })),
        h("h4", {}, t("end.commitment")),
        h("code", { class: "seed", "data-commitment": "" }, view.commitment || table.commitment),
      ));
  return h(
    "section",
    { class: "panel end-panel", "aria-labelledby": "end-title" },
    h("h2", { id: "end-title", tabindex: "-1" }, icon(noResult ? "cross" : "trophy"), headline(view, table, me)),
    resigned
      ? h("p", { class: "end-reason", dataset: { key: "resigned" } }, t("end.resigned_reason"))
      : noResult
        ? h("p", { class: "end-reason", dataset: { key: "no-result" } }, t("end.no_result"))
        : board && h("p", { class: "end-reason" }, board.outcome(view)),
    scores.length > 0 &&
      h(
        "table",
        { class: "scores" },
        h("caption", {}, t("end.scores")),
        h("tbody", {}, scores.map((score, seat) => h("tr", {}, h("th", { scope: "row" }, seatName(table, seat)), h("td", {}, typeof score === "number" ? number(score) : String(score))))),
      ),
    ratedNote(rating, me),
    rematchBox(rematch.offer, table, me, rematch.deadline, actions),
    h(
      "p",
      { class: "card-actions end-actions" },
      me !== null
        ? h("button", { type: "button", class: "primary", dataset: { key: "again" }, onClick: (e) => actions.again(e.currentTarget) }, icon("reroll"), t("end.again"))
        : h("a", { class: "button primary", href: "/", "data-link": "", dataset: { key: "again" } }, t("end.again")),
      h("a", { class: "button", href: `/replay/${encodeURIComponent(table.id)}`, "data-link": "", dataset: { key: "replay-link" } }, t("end.replay")),
      h("a", { class: "button", href: `/verify?table=${encodeURIComponent(table.id)}`, "data-link": "", dataset: { key: "verify-link" } }, t("end.verify")),
      // the signed record (GET /api/tables/{id}/record is public: a guest downloads it too)
      h("a", { class: "button", href: `/api/tables/${encodeURIComponent(table.id)}/record`, download: `ludoteca-${table.id}.json`, dataset: { key: "download-record" } }, icon("download"), t("end.download")),
    ),
    // phones: the panel sits above the final position; one tap brings the board into view
    h("p", { class: "end-to-board" }, h("button", { type: "button", dataset: { key: "to-board" }, onClick: actions.toBoard }, t("end.to_board"), " ↓")),
    me !== null && h("p", { class: "hint end-again-hint" }, others ? t("end.again_invite") : t("end.again_bots")),
    heldBy(board, view),
    check &&
      h(
        "details",
        { class: "proof-fold", dataset: { key: "proof-fold" } },
        h("summary", {}, h("h3", { id: "proof-title" }, icon("key"), t("fair.proof.title"))),
        check,
      ),
  );
}
