// The end of a format-2 match, as proof (docs/fairness.md): the server's secret next to its
// commitment, the fingerprint told for what it is, every seat's contribution (the reader's own
// marked), the seed made from them, the chain head, the key that signed the record, the receipts
// this browser kept (to download), and a one-click check of the signed record against them
// (POST /api/verify with the receipts).

import { api } from "../api.js";
import { errorText } from "../announce.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { downloadReceipts, receiptsFor } from "../receipts.js";
import { problemText } from "../verify-fair.js";
import { seatName } from "./seats.js";

function row(label, value, hint, attr) {
  return [h("dt", {}, label), h("dd", {}, h("code", { class: "proof-hex", [`data-${attr}`]: "" }, value), hint && h("p", { class: "hint" }, hint))];
}

/**
 * The proof part of one table page's end panel.
 * @param {string} tableId
 * @param {() => void} redraw
 */
export function createProof(tableId, redraw) {
  const state = { record: null, text: null, loading: false, loadError: null, checking: false, verdict: null, failed: null };

  function load() {
    if (state.record || state.loading) return;
    state.loading = true;
    api.recordText(tableId).then(
      (text) => {
        Object.assign(state, { record: JSON.parse(text), text, loading: false });
        redraw();
      },
      (error) => {
        Object.assign(state, { loadError: errorText(error), loading: false });
        redraw();
      },
    );
  }

  async function check() {
    if (!state.record) return;
    Object.assign(state, { checking: true, verdict: null, failed: null });
    redraw();
    try {
      state.verdict = await api.verifyText(state.text, receiptsFor(tableId));
    } catch (error) {
      state.failed = errorText(error);
    }
    state.checking = false;
    redraw();
    const result = document.querySelector("[data-proof-verdict]");
    if (result) result.focus({ preventScroll: true });
  }

  function contributions(view, table, me) {
    const given = view.contributions || [];
    const promised = view.commitments || [];
    return h(
      "ul",
      { class: "proof-contributions" },
      table.seats.map((seat, index) =>
        h(
          "li",
          { class: ["proof-contribution", index === me && "mine"], dataset: { seat: String(index) } },
          h("span", { class: "seat-name" }, seatName(table, index)),
          index === me && h("span", { class: "badge you-badge" }, t("fair.proof.yours")),
          given[index]
            ? h("code", { "data-contribution": "" }, given[index])
            : h("span", { class: "hint", "data-contribution": "" }, seat.bot ? t("fair.proof.none_bot") : promised[index] ? t("fair.proof.withheld") : t("fair.proof.none_person")),
          promised[index] && h("span", { class: "hash proof-commitment" }, t("fair.proof.committed"), " ", h("code", { "data-seat-commitment": "" }, promised[index])),
        ),
      ),
    );
  }

  function result() {
    if (state.checking) return h("p", { class: "loading", role: "status" }, t("verify.checking"));
    if (state.failed) return h("p", { class: "error", role: "alert" }, state.failed);
    const verdict = state.verdict;
    if (!verdict) return null;
    const problem = verdict.ok ? null : verdict.problems[0];
    return h(
      "div",
      { class: ["proof-verdict", verdict.ok ? "ok" : "failed"], tabindex: "-1", role: "status", "data-proof-verdict": verdict.ok ? "ok" : "failed" },
      h("p", {}, icon(verdict.ok ? "check" : "cross"), verdict.ok ? t("verify.ok") : t("verify.failed")),
      verdict.ok && h("p", {}, t("fair.proof.checked", { key: verdict.key_id || "?", count: verdict.receipts })),
      problem && h("p", { "data-problem": "" }, problemText(problem)),
      problem && h("details", { class: "server-words" }, h("summary", {}, t("verify.server_says")), h("p", { class: "server-message", lang: "en" }, problem.message)),
    );
  }

  return {
    /** The proof section for a finished format-2 match, or null (format 1: end.js's own box). */
    panel(msg, me) {
      const view = msg.view;
      const table = msg.table;
      if (!view || !view.over || table.format < 2 || !view.secret) return null;
      load();
      const kept = receiptsFor(tableId).length;
      const signature = state.record && state.record.signature;
      return h(
        "section",
        { class: "proof", "aria-labelledby": "proof-title" },
        h(
          "dl",
          { class: "proof-facts" },
          row(t("fair.proof.secret"), view.secret, t("fair.proof.secret_hint"), "secret"),
          row(t("fair.proof.commitment"), view.commitment || table.commitment, null, "commitment"),
          h("dt", {}, t("fair.proof.fingerprint")),
          h(
            "dd",
            {},
            h("code", { class: "proof-fingerprint", "data-proof-fingerprint": "" }, table.fingerprint),
            h("p", { class: "hint" }, t("fair.proof.fingerprint_hint")),
          ),
          h("dt", {}, t("fair.proof.contributions")),
          h("dd", {}, contributions(view, table, me)),
          row(t("fair.proof.seed"), view.seed, t("fair.proof.seed_hint"), "seed"),
          row(t("fair.proof.chain"), view.chain, t("fair.proof.chain_hint", { count: msg.version }), "chain"),
          h("dt", {}, t("fair.proof.key")),
          h(
            "dd",
            {},
            signature ? h("code", { "data-key-id": "" }, signature.key_id) : h("span", { class: "hint" }, state.loadError || t("app.loading")),
          ),
        ),
        h("p", { "data-receipts": String(kept) }, t("fair.proof.receipts", { count: kept })),
        h(
          "p",
          { class: "card-actions" },
          h(
            "button",
            { type: "button", class: "primary", dataset: { key: "proof-check" }, disabled: !state.record || state.checking, onClick: check },
            icon("check"),
            t("fair.proof.check"),
          ),
          kept > 0 && h("button", { type: "button", dataset: { key: "proof-download" }, onClick: () => downloadReceipts(tableId) }, t("fair.proof.download")),
        ),
        result(),
      );
    },
  };
}
