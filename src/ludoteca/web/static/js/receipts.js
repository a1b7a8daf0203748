// Receipts (docs/fairness.md#receipts): every {table, version, chain} a state message showed this
// browser for the person's own matches (and, format 5, before the deal every {table, prelude,
// chain}: the head after that many events since the table's creation), and the latest one of each match it watched, kept in
// localStorage so that the finished record can be checked against what the table really showed.
// Bounded: the last PER_TABLE heads of each table, the MAX_TABLES most recently seen tables.

const KEY = "ludoteca.receipts";
export const PER_TABLE = 200;
export const MAX_TABLES = 50;
const HEX64 = /^[0-9a-f]{64}$/;

function readAll() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

function writeAll(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // storage full or disabled: the receipts of this page are lost, the match is not
  }
}

/** A receipt as the verifier takes it, or null for anything else. */
export function receiptOf(value) {
  if (!value || typeof value !== "object") return null;
  const { table, version, chain, prelude } = value;
  if (typeof table !== "string" || !HEX64.test(String(chain))) return null;
  if (prelude !== undefined) return Number.isInteger(prelude) && prelude >= 1 && version === undefined ? { table, prelude, chain } : null;
  if (!Number.isInteger(version) || version < 0) return null;
  return { table, version, chain };
}

// before the deal first (by events), then by version
const order = (r) => (r.prelude !== undefined ? r.prelude - 1e9 : r.version);

/** Keep the head a state message showed (once per version, or per prelude length before the
 * deal: `prelude`); `latest`: keep only the newest of the table (a spectator's). */
export function keepReceipt(table, version, chain, latest = false, prelude = null) {
  const receipt = receiptOf(prelude ? { table, prelude, chain } : { table, version, chain });
  if (!receipt) return;
  const all = readAll();
  const entry = all[table] && Array.isArray(all[table].list) ? all[table] : { list: [] };
  if (!entry.list.some((r) => order(r) === order(receipt) && r.chain === chain)) {
    entry.list = [...entry.list, receipt].sort((a, b) => order(a) - order(b)).slice(latest ? -1 : -PER_TABLE);
  }
  entry.at = Date.now();
  all[table] = entry;
  const recent = Object.entries(all)
    .sort((a, b) => (b[1].at || 0) - (a[1].at || 0))
    .slice(0, MAX_TABLES);
  writeAll(Object.fromEntries(recent));
}

/** The receipts this browser kept for a table, the oldest first. */
export function receiptsFor(table) {
  const entry = readAll()[table];
  return entry && Array.isArray(entry.list) ? entry.list.map(receiptOf).filter(Boolean) : [];
}

/**
 * Receipts from a pasted or uploaded text: one receipt or a list of them (JSON). Returns
 * {receipts} or {error}: "not_json" or "bad".
 */
export function parseReceipts(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: "not_json" };
  }
  const items = Array.isArray(data) ? data : [data];
  const receipts = items.map(receiptOf);
  if (!receipts.length || receipts.some((r) => r === null)) return { error: "bad" };
  return { receipts };
}

/** Offer the table's receipts as a JSON file (the form `ludoteca verify --receipt` reads). */
export function downloadReceipts(table) {
  const text = `${JSON.stringify(receiptsFor(table), null, 1)}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `receipts-${table}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
