// Verify a match (/verify, /verify?table=ID): paste or upload a match record, or open a finished
// table's. The server re-deals it (POST /api/verify) and the page shows each check with OK or
// FAILED, the problem told by its check code in the reader's language (the server's own words
// one click away); the browser also computes SHA-256 of the seed itself.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { list, t } from "../i18n.js";
import { gameName, loadGames } from "../games.js";
import { errorText } from "../announce.js";
import { icon } from "../icons.js";
import { commitmentOf, fingerprintOf } from "../fairness.js";
import { checkLog } from "../publog.js";
import { chooseReceipts, fairDetail, isFormat2, keyAndNotes, problemText, publishedKeys, receiptsField, revealedText, stepLabel, stepsFor } from "../verify-fair.js";

// where the replay page (pages/replay.js, RECORD_KEY) finds a record file opened here
const RECORD_KEY = "ludoteca.replay-record";

export function mount(root, _params, query) {
  const state = { games: [], text: "", busy: false, record: null, parseError: null, browser: null, verdict: null, failed: null, loadError: null, receiptsText: "", receipts: [], receiptSource: null, receiptError: null, keys: null, log: null };

  async function check() {
    Object.assign(state, { record: null, parseError: null, browser: null, verdict: null, failed: null, receipts: [], receiptSource: null, receiptError: null, log: null });
    if (!state.text.trim()) {
      state.parseError = t("verify.empty");
      render();
      return;
    }
    try {
      state.record = JSON.parse(state.text);
      if (!state.record || typeof state.record !== "object" || Array.isArray(state.record)) throw new Error(t("verify.not_object"));
    } catch (error) {
      state.parseError = error.message;
      render();
      return;
    }
    const chosen = chooseReceipts(state.receiptsText, state.record);
    if (chosen.error) {
      Object.assign(state, { record: null, receiptError: chosen.error });
      render();
      return;
    }
    Object.assign(state, { receipts: chosen.receipts, receiptSource: chosen.source });
    state.busy = true;
    render();
    const record = state.record;
    const revealed = revealedText(record);
    if (typeof revealed === "string" && typeof record.commitment === "string") {
      const { hex, how } = await commitmentOf(revealed);
      state.browser = { hex, how, fingerprint: fingerprintOf(hex, record.fingerprint), matches: hex === record.commitment.toLowerCase() };
    }
    try {
      state.verdict = await api.verifyText(state.text, state.receipts);
      if (isFormat2(record)) state.keys = await publishedKeys();
    } catch (error) {
      state.failed = errorText(error);
    }
    state.busy = false;
    render();
    const verdict = root.querySelector(".verdict");
    if (verdict) verdict.focus();
    if (state.verdict && state.verdict.ok && isFormat2(record) && typeof record.table === "string") {
      state.log = { checking: true };
      render();
      state.log = await checkLog(record);
      render();
    }
  }

  /** The public log (docs/log.md): this table in it, under a signed head, one history. */
  function logPanel() {
    const found = state.log;
    if (!found) return null;
    const status = found.checking ? "checking" : found.ok ? "ok" : found.problem;
    const parts = [];
    if (found.checking) parts.push(h("p", { role: "status" }, t("publog.checking")));
    else if (!found.ok) parts.push(h("p", { class: "problem", role: "alert" }, icon("cross"), t(`publog.problem.${found.problem}`)));
    else {
      parts.push(
        h("p", {}, icon("check"), t("publog.ok", { index: found.index, size: found.size })),
        h("p", {}, found.signed ? t("publog.signed") : t("publog.unsigned")),
        h("p", {}, found.seen ? t("publog.seen", { count: found.seen }) : t("publog.first")),
      );
    }
    return h("section", { class: "panel log-check", "aria-labelledby": "log-title", dataset: { log: status } }, h("h2", { id: "log-title" }, t("publog.title")), ...parts);
  }

  function statusOf(step) {
    if (step === "browser") {
      if (!state.browser) return state.record ? "skipped" : null;
      return state.browser.matches ? "ok" : "failed";
    }
    if (!state.verdict) return state.parseError && step === "record" ? "failed" : null;
    if (state.verdict.ok) return "ok";
    const bad = state.verdict.problems[0].check;
    const order = stepsFor(state.record, state.receipts).filter((s) => s !== "browser");
    const at = order.indexOf(step);
    const failedAt = order.indexOf(bad);
    return at < failedAt ? "ok" : at === failedAt ? "failed" : "skipped";
  }

  function outcomeText(outcome, record) {
    if (!outcome) return "";
    const names = (record.players || []).map((p, i) =>
      p && p.bot ? t("seat.bot", { n: i + 1, level: t(`levels.${p.level || "medium"}`) }) : (p && p.name) || t("seat.unknown", { n: i + 1 }),
    );
    // a match that ended other than by the rules (docs/records.md#an-ended-match): no result
    const ended = record.ended;
    if (ended && ended.by === "resign") return t("verify.outcome_resigned", { name: names[ended.seat] || String(ended.seat + 1), winner: names[1 - ended.seat] || String(2 - ended.seat) });
    if (ended && ended.by === "abort") return t("verify.outcome_aborted", { name: names[ended.seat] || String(ended.seat + 1) });
    if (ended) return t("verify.outcome_operator");
    const winners = outcome.winners || [];
    if (outcome.draw) return t("verify.outcome_draw");
    if (!winners.length) return t("verify.outcome_none");
    return t("verify.outcome_wins", { names: list(winners.map((w) => names[w] || String(w + 1))), count: winners.length });
  }

  function detail(step, status) {
    const record = state.record || {};
    const problem = state.verdict && !state.verdict.ok ? state.verdict.problems[0] : null;
    const game = state.games.find((g) => g.id === record.game);
    const parts = [];
    const fair = fairDetail(step, status, state);
    if (fair) {
      parts.push(...fair);
    } else if (step === "record") {
      if (state.parseError) parts.push(h("p", {}, state.text.trim() ? t("verify.parse_failed") : ""), h("p", { class: "server-message" }, state.parseError));
      else parts.push(h("p", {}, t("verify.record_detail", { game: record.game ? gameName(game, record.game) : "?", count: (record.actions || []).length, players: (record.players || []).length })));
    } else if (step === "commitment") {
      parts.push(h("p", {}, t("verify.commitment_detail")), h("p", { class: "hash" }, h("code", {}, record.commitment || "")));
    } else if (step === "browser") {
      if (state.browser) {
        parts.push(
          h("p", {}, t(state.browser.how === "webcrypto" ? "verify.browser_webcrypto" : "verify.browser_plain")),
          h("p", { class: "hash" }, t("verify.computed"), " ", h("code", { "data-computed": "" }, state.browser.hex)),
          h("p", {}, t("verify.fingerprint", { fingerprint: state.browser.fingerprint })),
          h("p", {}, state.browser.matches ? t("verify.browser_match") : t("verify.browser_mismatch")),
        );
      } else {
        parts.push(h("p", {}, t("verify.no_seed")));
      }
    } else if (step === "redeal") {
      parts.push(h("p", {}, t("verify.redeal_detail")));
    } else if (step === "actions") {
      if (status === "failed") parts.push(h("p", {}, t("verify.actions_failed", { step: problem && problem.step !== null ? problem.step : "?" })));
      else if (status === "skipped") parts.push(h("p", {}, t("verify.actions_skipped")));
      else parts.push(h("p", {}, t("verify.actions_detail", { count: (record.actions || []).length })));
    } else if (step === "outcome") {
      const outcome = state.verdict && state.verdict.outcome;
      if (status === "skipped") parts.push(h("p", {}, t("verify.outcome_skipped")));
      else if (status === "failed") parts.push(h("p", {}, t("verify.problem.outcome")));
      else parts.push(h("p", { dataset: { key: "outcome-text" } }, outcome ? outcomeText(outcome, record) : t("verify.outcome_detail")));
    }
    if (status === "failed" && problem && step !== "browser") {
      parts.push(
        h("p", { class: "problem", "data-problem": "" }, problemText(problem)),
        h("details", { class: "server-words" }, h("summary", {}, t("verify.server_says")), h("p", { class: "server-message", lang: "en" }, problem.message)),
      );
    }
    return parts;
  }

  function steps() {
    if (!state.record && !state.parseError) return null;
    return h(
      "ol",
      { class: "steps" },
      stepsFor(state.record, state.receipts).map((step) => {
        const status = statusOf(step);
        if (!status) return null;
        return h(
          "li",
          { class: ["step", status], dataset: { step, status } },
          h(
            "div",
            { class: "step-head" },
            h("span", { class: "step-status" }, icon(status === "ok" ? "check" : status === "failed" ? "cross" : "away"), t(`verify.status.${status}`)),
            h("span", {}, stepLabel(step, state.record)),
          ),
          detail(step, status),
        );
      }),
    );
  }

  function verdict() {
    if (state.busy) return h("p", { class: "loading", role: "status" }, t("verify.checking"));
    if (state.failed) return h("p", { class: "error", role: "alert" }, state.failed);
    if (state.parseError) return h("p", { class: "verdict failed", tabindex: "-1", dataset: { verdict: "failed" } }, icon("cross"), t("verify.failed"));
    if (!state.verdict) return null;
    const ok = state.verdict.ok && (!state.browser || state.browser.matches);
    const tableId = query.get("table");
    return h(
      "div",
      { class: "verdict-row" },
      h("p", { class: ["verdict", ok ? "ok" : "failed"], tabindex: "-1", role: "status", dataset: { verdict: ok ? "ok" : "failed" } }, icon(ok ? "check" : "cross"), ok ? t("verify.ok") : t("verify.failed")),
      ok && tableId && h("p", {}, h("a", { class: "button", href: `/replay/${encodeURIComponent(tableId)}`, "data-link": "", dataset: { key: "replay-link" } }, t("verify.replay"))),
      // a record that checked out, opened here: the replay page steps through it (the server
      // replays it again there, POST /api/replay), handed over in this tab's session storage
      ok && !tableId && h("p", {}, h("a", { class: "button", href: "/replay", "data-link": "", dataset: { key: "replay-file" }, onClick: handOver }, t("verify.replay_file"))),
    );
  }

  function handOver() {
    try {
      sessionStorage.setItem(RECORD_KEY, state.text);
    } catch {
      // no session storage (a locked-down browser): the replay page says there is nothing to show
    }
  }

  /** Read the file chosen in a file input as text, then `done(text)`. */
  function readFile(event, done) {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => done(String(reader.result || ""));
    reader.readAsText(file);
  }

  function upload(event) {
    readFile(event, (text) => {
      state.text = text;
      render();
      check();
    });
  }

  function uploadReceipts(event) {
    readFile(event, (text) => {
      state.receiptsText = text;
      render();
      if (state.text.trim()) check();
    });
  }

  function render() {
    document.title = `${t("verify.title")} · ludoteca`;
    replace(
      root,
      h(
        "section",
        { class: "page verify-page" },
        h("h1", {}, t("verify.title")),
        h("p", { class: "lead" }, t("verify.lead")),
        state.loadError && h("p", { class: "error", role: "alert" }, state.loadError),
        h(
          "form",
          {
            class: "verify-input",
            onSubmit: (e) => {
              e.preventDefault();
              check();
            },
          },
          h("label", { for: "record-text" }, t("verify.paste")),
          h("textarea", {
            id: "record-text",
            spellcheck: "false",
            value: state.text,
            placeholder: t("verify.placeholder"),
            onInput: (e) => {
              state.text = e.target.value;
            },
          }),
          receiptsField(
            state,
            (text) => {
              state.receiptsText = text;
            },
            uploadReceipts,
          ),
          h(
            "div",
            { class: "verify-buttons" },
            h("button", { type: "submit", class: "primary", id: "verify-button", disabled: state.busy }, icon("check"), t("verify.check")),
            h("label", { class: "file-pick" }, t("verify.upload"), " ", h("input", { type: "file", accept: ".json,application/json", id: "record-file", onChange: upload })),
          ),
        ),
        verdict(),
        keyAndNotes(state),
        logPanel(),
        steps(),
        h("p", { class: "hint" }, t("verify.how")),
      ),
    );
  }

  render();
  loadGames().then(
    (games) => {
      state.games = games;
      render();
    },
    () => {},
  );
  const tableId = query.get("table");
  if (tableId) {
    api.recordText(tableId).then(
      (text) => {
        state.text = text;
        render();
        check();
      },
      (error) => {
        state.loadError = error.code === "not_started" ? t("errors.not_started") : t("errors.no_table");
        render();
      },
    );
  }
  return { refresh: render };
}
