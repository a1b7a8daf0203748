// The table's websocket, opened while the page's modules are still on their way (the server writes
// this module, which imports nothing, inline in a table's page's head): on a slow link the
// connection, its upgrade, the hello and the first state then overlap the modules' download
// instead of following it. Only with a seat token kept on this device (a person without one may
// find it in their account first: pages/table.js); TableSocket (socket.js) adopts the connection
// and what it heard meanwhile. When the table connected first (the modules came before this
// one), it has set window.__ludotecaEarlySocket already, and nothing is opened here.
// The hello carries the seat's commitment to its own seed for the deal (docs/fairness.md), so that
// the first state already shows it and no round trip is spent on a separate commit: the seed and
// salt are this table's in the store table/deal.js keeps ("ludoteca.seeds", seedFor), made and
// kept here as seedFor makes them when there are none yet. A commitment hides its seed: only the
// reveal waits for the page's checks (table/deal.js). Without crypto.subtle (plain http away
// from localhost) the hello goes without it and the page commits once its modules ran.

const SEEDS = "ludoteca.seeds";

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** This table's {seed, salt} as table/deal.js's seedFor reads them, or made and kept as it would. */
function ownSeed(tableId) {
  let all;
  try {
    all = JSON.parse(localStorage.getItem(SEEDS) || "{}");
  } catch {
    all = {};
  }
  all = all && typeof all === "object" ? all : {};
  const kept = all[tableId];
  if (kept && typeof kept.seed === "string" && /^[\x21-\x7e]{1,64}$/.test(kept.seed) && /^[0-9a-f]{32}$/.test(String(kept.salt))) return kept;
  const made = { seed: hex(crypto.getRandomValues(new Uint8Array(16))), salt: hex(crypto.getRandomValues(new Uint8Array(16))) };
  all[tableId] = { ...(kept || {}), ...made, at: Date.now() };
  const recent = Object.entries(all)
    .sort((a, b) => (b[1].at || 0) - (a[1].at || 0))
    .slice(0, 50);
  try {
    localStorage.setItem(SEEDS, JSON.stringify(Object.fromEntries(recent)));
  } catch {
    // storage disabled: the page makes its own seed and commits it itself
  }
  return made;
}

/** The hello, with this seat's commitment SHA-256(seed + "\n" + salt) when it can be computed. */
async function greeting(tableId, token) {
  try {
    if (!(window.crypto && crypto.subtle)) return { type: "hello", token };
    const { seed, salt } = ownSeed(tableId);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${seed}\n${salt}`));
    return { type: "hello", token, commitment: hex(new Uint8Array(digest)) };
  } catch {
    return { type: "hello", token };
  }
}

const found = /^\/table\/([^/]+)\/?$/.exec(location.pathname);
let seat = null;
try {
  const tableId = found && decodeURIComponent(found[1]);
  seat = tableId && (JSON.parse(localStorage.getItem("ludoteca.seats") || "{}") || {})[tableId];
  const claimed = window.__ludotecaEarlySocket !== undefined;
  if (!claimed && seat && seat.token && typeof WebSocket === "function") {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
    const ws = new WebSocket(url);
    // hello: what to say on opening (TableSocket says it instead when it adopts the connection
    // before it opened)
    const early = { url, ws, heard: [], hello: greeting(tableId, seat.token) };
    ws.onopen = () => early.hello.then((hello) => ws.send(JSON.stringify(hello)));
    ws.onmessage = (event) => early.heard.push(event);
    window.__ludotecaEarlySocket = early;
  }
} catch {
  // no storage, or a malformed address: the page connects as always
}
