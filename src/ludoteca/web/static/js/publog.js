// The public log of tables (docs/log.md), checked in the browser: the record's table is in the
// server's log under a head signed by one of its published keys (Ed25519 by WebCrypto where the
// browser has it), the entry binds the record's commitments, and every head this browser has
// seen is one history with the new one (same size, same root; a larger head extends a smaller
// one by the server's consistency proof, RFC 6962/9162). The heads seen are kept in localStorage.

import { sha256Plain } from "./fairness.js";
import { closedHead } from "./prelude.js";

const HEADS_KEY = "ludoteca.log-heads";
const KEPT = 20; // heads kept, the largest sizes

function bytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function join(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const sha = (data) => bytes(sha256Plain(data));
const leafHash = (text) => sha(join([0], new TextEncoder().encode(text)));
const nodeHash = (left, right) => sha(join([1], left, right));
const hex = (data) => Array.from(data, (b) => b.toString(16).padStart(2, "0")).join("");
const half = (n) => Math.floor(n / 2);
const odd = (n) => n % 2 === 1;
const powerOfTwo = (n) => {
  let m = n;
  while (m > 1 && m % 2 === 0) m /= 2;
  return m === 1;
};

/** RFC 9162 2.1.3.2: the root the audit path leads to (hex), or null when it cannot be one. */
export function rootFromPath(index, size, leafText, pathHex) {
  if (!(index >= 0 && index < size)) return null;
  let fn = index;
  let sn = size - 1;
  let r = leafHash(leafText);
  for (const p of pathHex.map(bytes)) {
    if (sn === 0) return null;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!odd(fn)) while (!odd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      r = nodeHash(r, p);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 ? hex(r) : null;
}

/** RFC 9162 2.1.4.2: whether the path proves the tree (first, firstRoot) is a prefix of
 * (second, secondRoot). */
export function consistent(first, second, firstRoot, secondRoot, pathHex) {
  if (first === second) return pathHex.length === 0 && firstRoot === secondRoot;
  if (first === 0) return pathHex.length === 0;
  if (!(first < second) || !pathHex.length) return false;
  const path = pathHex.map(bytes);
  if (powerOfTwo(first)) path.unshift(bytes(firstRoot));
  let fn = first - 1;
  let sn = second - 1;
  while (odd(fn)) [fn, sn] = [half(fn), half(sn)];
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!odd(fn)) while (!odd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      sr = nodeHash(sr, c);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  return sn === 0 && hex(fr) === firstRoot && hex(sr) === secondRoot;
}

/** Whether the log's entry binds the record's table, server commitment and seat commitments. */
export function entryBinds(leafText, record) {
  let entry;
  try {
    entry = JSON.parse(leafText);
  } catch {
    return false;
  }
  const logged = (entry.seats || []).map((s) => s.commitment ?? null);
  const mine = (record.commitments || []).map((c) => c ?? null);
  return (
    entry.kind === "table" &&
    entry.table === record.table &&
    entry.server_commitment === record.commitment &&
    logged.length === mine.length &&
    logged.every((c, i) => c === mine[i])
  );
}

/** The head's Ed25519 signature by `publicHex`: true, false, or null where WebCrypto lacks Ed25519. */
async function signedBy(publicHex, head) {
  const subtle = window.crypto && window.crypto.subtle;
  if (!subtle) return null;
  try {
    const key = await subtle.importKey("raw", bytes(publicHex), { name: "Ed25519" }, false, ["verify"]);
    const payload = new TextEncoder().encode(`ludoteca log head v1\n${head.size}\n${head.root}`);
    return await subtle.verify({ name: "Ed25519" }, key, bytes(head.signature), payload);
  } catch {
    return null;
  }
}

async function getJson(path) {
  const answer = await fetch(path, { headers: { Accept: "application/json" } });
  if (!answer.ok) {
    const error = new Error(`${answer.status}`);
    error.status = answer.status;
    throw error;
  }
  return answer.json();
}

export function seenHeads() {
  try {
    const found = JSON.parse(localStorage.getItem(HEADS_KEY) || "{}");
    return found && typeof found === "object" ? found : {};
  } catch {
    return {};
  }
}

function keepHead(heads, head) {
  heads[head.size] = { root: head.root, signature: head.signature, key_id: head.key_id };
  const sizes = Object.keys(heads).map(Number).sort((a, b) => b - a);
  for (const size of sizes.slice(KEPT)) delete heads[size];
  try {
    localStorage.setItem(HEADS_KEY, JSON.stringify(heads));
  } catch {
    // storage full or refused: the check still happened
  }
}

/**
 * Check the record's table in the log. Returns {ok: true, index, size, root, signed, seen} or
 * {ok: false, problem}: "unreachable", "key", "signature", "missing", "inclusion", "entry" or
 * "fork" (then `heads` holds the two heads that disagree, both signed).
 */
export async function checkLog(record) {
  let head;
  let keys;
  try {
    [head, keys] = await Promise.all([getJson("/api/log/head"), getJson("/api/keys")]);
  } catch {
    return { ok: false, problem: "unreachable" };
  }
  const key = (keys.keys || []).find((k) => k.key_id === head.key_id);
  if (!key) return { ok: false, problem: "key" };
  const signed = await signedBy(key.public_key, head);
  if (signed === false) return { ok: false, problem: "signature" };
  let proof;
  try {
    proof = await getJson(`/api/log/tables/${encodeURIComponent(record.table)}?size=${head.size}`);
  } catch (error) {
    return { ok: false, problem: error.status === 404 ? "missing" : "unreachable" };
  }
  if (rootFromPath(proof.index, head.size, proof.leaf, proof.path) !== head.root) return { ok: false, problem: "inclusion" };
  if (!entryBinds(proof.leaf, record)) return { ok: false, problem: "entry" };
  // format 5: the entry pins the head at the close, the one the record's prelude gives
  const pinned = JSON.parse(proof.leaf).chain;
  if (pinned !== undefined && pinned !== (await closedHead(record.prelude))) return { ok: false, problem: "entry" };
  const heads = seenHeads();
  const same = heads[head.size];
  if (same && same.root !== head.root) return { ok: false, problem: "fork", heads: [{ size: head.size, ...same }, head] };
  for (const size of Object.keys(heads).map(Number)) {
    if (size === head.size) continue;
    const [first, second] = size < head.size ? [size, head.size] : [head.size, size];
    const roots = { [size]: heads[size].root, [head.size]: head.root };
    let answer;
    try {
      answer = await getJson(`/api/log/consistency?first=${first}&second=${second}`);
    } catch {
      return { ok: false, problem: "fork", heads: [{ size, ...heads[size] }, head] };
    }
    if (!consistent(first, second, roots[first], roots[second], answer.path || [])) {
      return { ok: false, problem: "fork", heads: [{ size, ...heads[size] }, head] };
    }
  }
  const seen = Object.keys(heads).length;
  keepHead(heads, head);
  return { ok: true, index: proof.index, size: head.size, root: head.root, signed, seen };
}
