// Receipts (docs/fairness.md#receipts): every {table, version, chain} a state message showed this
// browser for the person's own matches, and the latest one of each match it watched, kept in
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
  const { table, version, chain } = value;
  if (typeof table !== "string" || !Number.isInteger(version) || version < 0 || !HEX64.test(String(chain))) return null;
  return { table, version, chain };
}

/** Keep the head a state message showed (once per version); `latest`: keep only the newest of
 * the table (a spectator's). */
export function keepReceipt(table, version, chain, latest = false) {
  const receipt = receiptOf({ table, version, chain });
  if (!receipt) return;
  const all = readAll();
  const entry = all[table] && Array.isArray(all[table].list) ? all[table] : { list: [] };
  if (!entry.list.some((r) => r.version === version && r.chain === chain)) {
    entry.list = [...entry.list, receipt].sort((a, b) => a.version - b.version).slice(latest ? -1 : -PER_TABLE);
  }
  entry.at = Date.now();
  all[table] = entry;
  const recent = Object.entries(all)
    .sort((a, b) => (b[1].at || 0) - (a[1].at || 0))
    .slice(0, MAX_TABLES);
  writeAll(Object.fromEntries(recent));
}

/** The receipts this browser kept for a table, oldest version first. */
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
