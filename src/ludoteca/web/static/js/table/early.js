// The table's websocket, opened while the page's modules are still on their way (the server writes
// this module, which imports nothing, inline in a table's page's head): on a slow link the
// connection, its upgrade, the hello and the first state then overlap the modules' download
// instead of following it. Only with a seat token kept on this device (a person without one may
// find it in their account first: pages/table.js); TableSocket (socket.js) adopts the connection
// and what it heard meanwhile. When the table connected first (the modules came before this
// one), it has set window.__ludotecaEarlySocket already, and nothing is opened here.

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
    const early = { url, ws, heard: [] };
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: seat.token }));
    ws.onmessage = (event) => early.heard.push(event);
    window.__ludotecaEarlySocket = early;
  }
} catch {
  // no storage, or a malformed address: the page connects as always
}
