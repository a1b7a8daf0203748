// The end of a match: the result, the scores, the revealed seed next to the commitment, hidden
// items, and the links to verify and to replay the match.

import { h } from "../dom.js";
import { list, t } from "../i18n.js";
import { icon } from "../icons.js";
import { seatName } from "./seats.js";

function headline(view, table, me) {
  const outcome = view.outcome || {};
  const winners = outcome.winners || [];
  if (outcome.draw) return t("end.draw");
  if (!winners.length) return t("end.no_winner");
  if (me !== null && winners.includes(me)) return winners.length > 1 ? t("end.you_share") : t("end.you_win");
  return t("end.wins", { names: list(winners.map((seat) => seatName(table, seat))), count: winners.length });
}

export function endPanel(msg, me, board, proof) {
  const view = msg.view;
  const table = msg.table;
  const scores = (view.outcome && view.outcome.scores) || [];
  // the commitment is the SHA-256 of the server's secret (of the seed itself in older matches)
  const seed = view.secret || view.seed || table.secret || table.seed;
  return h(
    "section",
    { class: "panel end-panel", "aria-labelledby": "end-title", tabindex: "-1" },
    h("h2", { id: "end-title" }, icon("trophy"), headline(view, table, me)),
    board && h("p", { class: "end-reason" }, board.outcome(view)),
    scores.length > 0 &&
      h(
        "table",
        { class: "scores" },
        h("caption", {}, t("end.scores")),
        h("tbody", {}, scores.map((score, seat) => h("tr", {}, h("th", { scope: "row" }, seatName(table, seat)), h("td", {}, String(score))))),
      ),
    (proof && proof.panel(msg, me)) ||
      (seed &&
      h(
        "div",
        { class: "seed-box" },
        h("h3", {}, t("end.seed")),
        h("code", { class: "seed", "data-seed": "" }, seed),
        h("p", { class: "hint" }, t("end.seed_hint", { fingerprint: table.fingerprint })),
        h("h3", {}, t("end.commitment")),
        h("code", { class: "seed", "data-commitment": "" }, view.commitment || table.commitment),
      )),
    board && board.revealed(view),
    h(
      "p",
      { class: "card-actions" },
      h("a", { class: "button primary", href: `/verify?table=${encodeURIComponent(table.id)}`, "data-link": "", dataset: { key: "verify-link" } }, t("end.verify")),
      h("a", { class: "button", href: `/replay/${encodeURIComponent(table.id)}`, "data-link": "", dataset: { key: "replay-link" } }, t("end.replay")),
      h("a", { class: "button", href: "/", "data-link": "" }, t("end.again")),
    ),
  );
}
