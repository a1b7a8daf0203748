// The verify page's format-2 to 5 part (docs/fairness.md, docs/records.md): which checks a
// record gets, their names and details (signature, secret, each seat's reveal against its
// commitment, seed, chain, receipts), the key that signed
// next to the keys this server publishes, what a format-1 record cannot prove, and the receipts
// to check against (pasted, uploaded, or the ones this browser kept for the record's table).

import { api } from "./api.js";
import { h } from "./dom.js";
import { has, t } from "./i18n.js";
import { parseReceipts, receiptsFor } from "./receipts.js";

const FORMAT_1 = ["record", "commitment", "browser", "redeal", "actions", "outcome"];
const FORMAT_2 = ["record", "signature", "commitment", "browser", "seed", "redeal", "actions", "chain", "outcome"];
const FORMAT_3 = ["record", "signature", "commitment", "browser", "reveal", "seed", "redeal", "actions", "chain", "outcome"];
// format 4: who played each step against the seats, and bots committed to nothing
const FORMAT_4 = ["record", "signature", "seats", "commitment", "browser", "reveal", "seed", "redeal", "actions", "chain", "outcome"];
// format 5: and the prelude, every event from the table's creation to the deal
const FORMAT_5 = ["record", "signature", "seats", "prelude", "commitment", "browser", "reveal", "seed", "redeal", "actions", "chain", "outcome"];

let published = null;

/** The keys this server publishes (GET /api/keys), fetched once per page load. */
export function publishedKeys() {
  if (!published) published = api.keys().then((answer) => answer.keys, () => null);
  return published;
}

export function isFormat2(record) {
  return Boolean(record) && Number(record.format) >= 2;
}

/** The checks shown for a record, in the order the server makes them. */
export function stepsFor(record, receipts) {
  if (!isFormat2(record)) return FORMAT_1;
  const form = Number(record.format);
  const steps = form >= 5 ? FORMAT_5 : form >= 4 ? FORMAT_4 : form >= 3 ? FORMAT_3 : FORMAT_2;
  return receipts && receipts.length ? [...steps, "receipt"] : steps;
}

/** How many seats of a format-3 record committed and never revealed. */
function withheldCount(record) {
  const commitments = Array.isArray(record.commitments) ? record.commitments : [];
  const contributions = Array.isArray(record.contributions) ? record.contributions : [];
  return commitments.filter((c, seat) => c !== null && c !== undefined && (contributions[seat] === null || contributions[seat] === undefined)).length;
}

/** What the browser hashes itself: the secret (format 2) or the seed (format 1). */
export function revealedText(record) {
  return isFormat2(record) ? record.secret : record.seed;
}

export function stepLabel(step, record) {
  return isFormat2(record) && has(`fair.verify.step.${step}`) ? t(`fair.verify.step.${step}`) : t(`verify.step.${step}`);
}

/** The reader's sentence for the first problem of a verdict, by its check code. */
export function problemText(problem) {
  const step = problem.step ?? "?";
  return has(`fair.problem.${problem.check}`) ? t(`fair.problem.${problem.check}`, { step }) : t(`verify.problem.${problem.check}`, { step });
}

/**
 * The receipts to check the record against: the pasted text if there is one, else the ones this
 * browser kept for the record's table. Returns {receipts, source} or {error}.
 */
export function chooseReceipts(text, record) {
  if (!isFormat2(record)) return { receipts: [], source: null };
  if (text.trim()) {
    const parsed = parseReceipts(text);
    return parsed.error ? parsed : { receipts: parsed.receipts, source: "given" };
  }
  const kept = typeof record.table === "string" ? receiptsFor(record.table) : [];
  return { receipts: kept, source: kept.length ? "browser" : null };
}

/** Details of the format-2 checks (null for the others: the page's own details apply). */
export function fairDetail(step, status, state) {
  const record = state.record || {};
  const verdict = state.verdict || {};
  if (!isFormat2(record)) return null;
  if (step === "commitment") {
    return [h("p", {}, t("fair.verify.commitment_detail")), h("p", { class: "hash" }, h("code", {}, record.commitment || ""))];
  }
  if (step === "browser") {
    if (!state.browser) return [h("p", {}, t("fair.verify.no_secret"))];
    return [
      h("p", {}, t(state.browser.how === "webcrypto" ? "fair.verify.browser_webcrypto" : "fair.verify.browser_plain")),
      h("p", { class: "hash" }, t("fair.verify.computed"), " ", h("code", { "data-computed": "" }, state.browser.hex)),
      h("p", {}, t("verify.fingerprint", { fingerprint: state.browser.fingerprint })),
      h("p", {}, state.browser.matches ? t("verify.browser_match") : t("verify.browser_mismatch")),
    ];
  }
  if (status !== "ok") return status === "skipped" ? [h("p", {}, t("fair.verify.skipped"))] : [];
  if (step === "signature") return [h("p", {}, t("fair.verify.signature_detail", { key: (record.signature || {}).key_id || "?" }))];
  if (step === "reveal") {
    const withheld = withheldCount(record);
    return [h("p", {}, t("fair.verify.reveal_detail")), withheld ? h("p", { "data-withheld": String(withheld) }, t("fair.verify.withheld", { count: withheld })) : null];
  }
  if (step === "seed") return [h("p", {}, t("fair.verify.seed_detail"))];
  if (step === "chain") return [h("p", {}, t("fair.verify.chain_detail")), h("p", { class: "hash" }, h("code", {}, record.chain || ""))];
  if (step === "receipt") {
    const count = state.receipts ? state.receipts.length : 0;
    return [h("p", { "data-receipt-detail": "" }, t(state.receiptSource === "browser" ? "fair.verify.receipts_kept" : "fair.verify.receipts_given", { count }))];
  }
  return null;
}

/** The key that signed (format 2) and whether this server publishes it; the notes of a format-1
 * record, in the reader's language with the server's words one click away. */
export function keyAndNotes(state) {
  const verdict = state.verdict;
  if (!verdict) return null;
  const parts = [];
  const signature = state.record && state.record.signature;
  // the record's signature held (whatever failed later): name its key
  const signed = verdict.ok || !["record", "signature"].includes(verdict.problems[0].check);
  if (isFormat2(state.record) && signature && signed) {
    const keys = state.keys;
    const listed = keys ? keys.find((k) => k.public_key === signature.public_key) : null;
    parts.push(
      h(
        "section",
        { class: "panel key-facts", "aria-labelledby": "key-title", "data-key-facts": "" },
        h("h2", { id: "key-title" }, t("fair.verify.key_title")),
        h("p", {}, t("fair.verify.key_id"), " ", h("code", { "data-signing-key": "" }, signature.key_id)),
        verdict.key_fingerprint && h("p", {}, t("fair.verify.key_fingerprint"), " ", h("code", {}, verdict.key_fingerprint)),
        keys &&
          h(
            "p",
            { "data-key-published": listed ? "yes" : "no" },
            listed ? t(listed.retired_at ? "fair.verify.key_retired" : "fair.verify.key_current") : t("fair.verify.key_unknown"),
          ),
        h("p", {}, h("a", { href: "/api/keys", target: "_blank", rel: "noopener" }, t("fair.verify.key_list"))),
      ),
    );
  }
  if (verdict.notes && verdict.notes.length) {
    parts.push(
      h(
        "section",
        { class: "panel notes", "aria-labelledby": "notes-title", "data-notes": "" },
        h("h2", { id: "notes-title" }, t("fair.verify.notes_title")),
        h("p", {}, t("fair.verify.format1_note")),
        h("details", { class: "server-words" }, h("summary", {}, t("verify.server_says")), verdict.notes.map((note) => h("p", { class: "server-message", lang: "en" }, note))),
      ),
    );
  }
  return parts;
}

/** The receipts field of the verify form. */
export function receiptsField(state, onText, onFile) {
  return h(
    "div",
    { class: "receipts-input" },
    h("label", { for: "receipts-text" }, t("fair.verify.receipts_label")),
    h("textarea", {
      id: "receipts-text",
      spellcheck: "false",
      value: state.receiptsText,
      "aria-describedby": "receipts-hint",
      onInput: (e) => onText(e.target.value),
    }),
    h("p", { id: "receipts-hint", class: "hint" }, t("fair.verify.receipts_hint")),
    h("label", { class: "file-pick" }, t("fair.verify.receipts_upload"), " ", h("input", { type: "file", accept: ".json,application/json", id: "receipts-file", onChange: onFile })),
    state.receiptError && h("p", { class: "error", role: "alert", "data-receipt-error": "" }, t(`fair.receipts.${state.receiptError}`)),
  );
}
