// The analysis of a finished match on the replay page (docs/analysis.md): at each step, the win
// chance of the person's action against the best action the hard bot found searching what that
// person knew; the graded decisions as buttons that jump to them; and a small chart of each
// person's win chance over the match, with a text alternative. The server makes the analysis
// (GET /api/tables/{id}/analysis: 202 while it is made, then 200); nothing is worked out here.
// Actions are told in words, the log's own sentences: the move taken by the step's log entry,
// the better move by the events the server adds to it (`best.events`); an action code only when
// there are no words for it. A point of the chart jumps to its step.

import { h, s } from "../dom.js";
import { number, t } from "../i18n.js";

const W = 320;
const H = 120;
const PAD = { left: 34, right: 8, top: 8, bottom: 18 };
const COLOURS = ["var(--accent)", "var(--blue)", "var(--ok)", "var(--warn)", "var(--gold)", "var(--muted)"];

const pct = (chance) => number(chance, { style: "percent", maximumFractionDigits: 0 });
const points = (loss) => Math.round(loss * 100);

function x(version, steps) {
  return PAD.left + ((W - PAD.left - PAD.right) * version) / Math.max(1, steps);
}

function y(chance) {
  return PAD.top + (H - PAD.top - PAD.bottom) * (1 - chance);
}

/** What the chart shows, in words (its text alternative). */
function chartText(analysis, seatName) {
  return analysis.seats
    .map((seat) => {
      const line = analysis.chart[String(seat)] || [];
      if (!line.length) return t("analysis.chart_empty", { name: seatName(seat) });
      const low = line.reduce((a, b) => (b[1] < a[1] ? b : a));
      return t("analysis.chart_seat", {
        name: seatName(seat),
        first: pct(line[0][1]),
        low: pct(low[1]),
        low_step: low[0],
        last: pct(line[line.length - 1][1]),
      });
    })
    .join(" ");
}

/** The step nearest to where the chart was clicked (its x across the plotted width). */
function stepAt(event, steps) {
  const svg = event.currentTarget;
  const box = svg.getBoundingClientRect();
  const at = ((event.clientX - box.left) / Math.max(1, box.width)) * W;
  const share = (at - PAD.left) / (W - PAD.left - PAD.right);
  return Math.max(0, Math.min(steps, Math.round(share * steps)));
}

function chart(analysis, k, seatName, go) {
  const steps = analysis.steps;
  const graded = new Map(analysis.decisions.filter((d) => d.grade).map((d) => [`${d.seat}/${d.version}`, d.grade]));
  const grid = [0, 0.5, 1].map((level) => [
    s("line", { class: "chart-grid", x1: PAD.left, x2: W - PAD.right, y1: y(level), y2: y(level) }),
    s("text", { class: "chart-axis", x: PAD.left - 4, y: y(level) + 4, "text-anchor": "end" }, pct(level)),
  ]);
  const lines = analysis.seats.map((seat, n) => {
    const line = analysis.chart[String(seat)] || [];
    const colour = COLOURS[n % COLOURS.length];
    return s(
      "g",
      { class: "chart-seat", dataset: { seat: String(seat) } },
      s("polyline", { points: line.map(([v, c]) => `${x(v, steps).toFixed(1)},${y(c).toFixed(1)}`).join(" "), fill: "none", stroke: colour }),
      line.map(([v, c], i) => {
        // the result's point (the last) shares its step with a decision that was the last action:
        // the grade marks the decision's point only
        const result = i === line.length - 1 && i > 0 && line[i - 1][0] === v;
        const grade = result ? undefined : graded.get(`${seat}/${v}`);
        return s("circle", { class: ["chart-point", grade && `grade-${grade}`], dataset: { step: String(v) }, cx: x(v, steps).toFixed(1), cy: y(c).toFixed(1), r: grade ? 4.5 : 3, fill: grade ? "var(--bad)" : colour });
      }),
    );
  });
  const label = t("analysis.chart_title");
  return h(
    "figure",
    { class: "analysis-chart" },
    s(
      "svg",
      { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "analysis-chart-title analysis-chart-desc", class: "chart", onClick: (event) => go(stepAt(event, steps)) },
      s("title", { id: "analysis-chart-title" }, label),
      s("desc", { id: "analysis-chart-desc" }, chartText(analysis, seatName)),
      grid,
      s("line", { class: "chart-now", x1: x(k, steps), x2: x(k, steps), y1: PAD.top, y2: H - PAD.bottom }),
      lines,
      s("text", { class: "chart-axis", x: W - PAD.right, y: H - 4, "text-anchor": "end" }, t("analysis.chart_axis", { n: steps })),
    ),
    h(
      "figcaption",
      {},
      h("span", { class: "hint chart-hint" }, t("analysis.chart_click")),
      analysis.seats.map((seat, n) => h("span", { class: "chart-key" }, h("span", { class: "chart-swatch", style: { background: COLOURS[n % COLOURS.length] }, "aria-hidden": "true" }), seatName(seat))),
    ),
  );
}

/** An action in words: the sentences if there are any, else its code. */
function told(lines, action, cls) {
  if (lines && lines.length) return h("span", { class: ["analysis-words", cls] }, lines.join(" "));
  return h("code", { class: ["analysis-code", cls] }, action);
}

function here(analysis, k, seatName, words) {
  const d = analysis.decisions.find((item) => item.version === k);
  if (!d) return h("p", { class: "analysis-step", "data-step": String(k) }, t(k === 0 ? "analysis.deal" : "analysis.not_analysed"));
  const name = seatName(d.seat);
  if (d.forced) return h("p", { class: "analysis-step", "data-step": String(k) }, t("analysis.forced", { name }));
  const same = d.best.action === d.taken.action;
  return h(
    "div",
    { class: ["analysis-step", d.grade && `grade-${d.grade}`], "data-step": String(k), "data-grade": d.grade || "" },
    h("p", {}, t("analysis.played", { name }), " ", told(words.taken(d), d.taken.action, "analysis-taken"), " · ", t("analysis.chance", { chance: pct(d.taken.chance) })),
    same
      ? h("p", {}, t("analysis.was_best"))
      : h("p", {}, t("analysis.best"), " ", told(words.best(d), d.best.action, "analysis-best"), " · ", t("analysis.chance", { chance: pct(d.best.chance) })),
    d.grade && h("p", { class: "analysis-grade" }, h("strong", {}, t(`analysis.grade.${d.grade}`)), " — ", t("analysis.loss", { count: points(d.loss) })),
    !same && h("p", { class: "hint analysis-loss-help" }, t("analysis.loss_help", { points: number(points(d.loss)), best: pct(d.best.chance), taken: pct(d.taken.chance) })),
  );
}

function totals(analysis, seatName) {
  return h(
    "ul",
    { class: "analysis-totals" },
    analysis.seats.map((seat) => {
      const total = analysis.totals[String(seat)];
      return h(
        "li",
        { dataset: { seat: String(seat) } },
        t("analysis.totals", { name: seatName(seat), count: total.decisions, loss: number(total.average_loss * 100, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) }),
        " ",
        ["inaccuracy", "mistake", "blunder"].map((g) => t(`analysis.count.${g}`, { count: total[g] })).join(", "),
      );
    }),
  );
}

function marked(analysis, k, seatName, go, words) {
  const graded = analysis.decisions.filter((d) => d.grade);
  if (!graded.length) return h("p", { class: "analysis-clean" }, t("analysis.clean"));
  return h(
    "ul",
    { class: "analysis-marked", "aria-label": t("analysis.marked") },
    graded.map((d) =>
      h(
        "li",
        { dataset: { step: String(d.version) } },
        h(
          "button",
          { type: "button", class: ["analysis-jump", `grade-${d.grade}`], dataset: { key: `jump-${d.version}`, step: String(d.version) }, "aria-current": d.version === k ? "step" : null, onClick: () => go(d.version) },
          t("analysis.jump", { k: d.version, grade: t(`analysis.grade.${d.grade}`), name: seatName(d.seat) }),
        ),
        h(
          "p",
          { class: "analysis-mistake" },
          t("analysis.played", { name: seatName(d.seat) }),
          " ",
          told(words.taken(d), d.taken.action, "mistake-taken"),
          " ",
          t("analysis.better"),
          " ",
          told(words.best(d), d.best.action, "mistake-best"),
          " (",
          t("analysis.loss", { count: points(d.loss) }),
          ")",
        ),
      ),
    ),
  );
}

const CODES = { taken: () => null, best: () => null };

/** The analysis panel: `answer` is null (not asked), {pending}, {error} or the analysis;
 * `words.taken(decision)` and `words.best(decision)` tell its actions in sentences. */
export function analysisPanel(answer, k, seatName, go, words = CODES) {
  const title = h("h2", {}, t("analysis.title"));
  if (!answer) return null;
  if (answer.error) return h("section", { class: "analysis" }, title, h("p", { class: "analysis-status" }, answer.error));
  if (answer.pending) return h("section", { class: "analysis", "aria-busy": "true" }, title, h("p", { class: "analysis-status", role: "status" }, t("analysis.pending")));
  if (answer.status === "failed") return h("section", { class: "analysis" }, title, h("p", { class: "analysis-status" }, t("analysis.failed", { why: answer.message })));
  if (!answer.decisions.length) return h("section", { class: "analysis" }, title, h("p", { class: "analysis-status" }, t("analysis.nobody")));
  return h(
    "section",
    { class: "analysis", "aria-labelledby": "analysis-title" },
    h("h2", { id: "analysis-title" }, t("analysis.title")),
    h("p", { class: "hint" }, t("analysis.lead", { iterations: answer.iterations })),
    here(answer, k, seatName, words),
    chart(answer, k, seatName, go),
    totals(answer, seatName),
    h("p", { class: "hint analysis-points-help" }, t("analysis.points_help")),
    marked(answer, k, seatName, go, words),
  );
}
