// The lobby over HTTP (docs/protocol.md). Errors come back as ApiError with the server's code.

class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || "http";
  }
}

export const NETWORK_EVENT = "ludoteca:network";

/** Tell the page whether the server answered (the "offline" banner listens). */
function reached(online) {
  window.dispatchEvent(new CustomEvent(NETWORK_EVENT, { detail: online }));
}

// A string body is sent as it is: a record's numbers must reach the server as the record writes
// them (3.0 is not 3 to a signature), which a JSON.parse / JSON.stringify round trip would not keep.
async function call(method, path, body, token, asText = false) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  } catch {
    reached(false);
    throw new ApiError(0, "offline", "");
  }
  reached(true);
  let text = "";
  let data = null;
  try {
    text = await response.text();
    data = JSON.parse(text);
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, data && data.error, data && data.message);
  }
  return asText ? text : data;
}

export const api = {
  games: () => call("GET", "/api/games"),
  game: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  tables: (status = "open") => call("GET", `/api/tables?status=${status}`),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (body) => call("POST", "/api/tables", body),
  playNow: (body) => call("POST", "/api/play-now", body),
  findPeople: (body) => call("POST", "/api/pairing", body),
  pairingState: (id) => call("GET", `/api/pairing/${encodeURIComponent(id)}`),
  cancelSearch: (id) => call("DELETE", `/api/pairing/${encodeURIComponent(id)}`),
  postSeek: (body) => call("POST", "/api/seeks", body),
  takeSeek: (id, body) => call("POST", `/api/seeks/${encodeURIComponent(id)}/take`, body),
  join: (id, body) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, body),
  leave: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {}, token),
  start: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/start`, {}, token),
  record: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/record`),
  keys: () => call("GET", "/api/keys"),
  recordText: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/record`, undefined, null, true),
  verify: (record) => call("POST", "/api/verify", record),
  verifyText: (recordText, receipts) => call("POST", "/api/verify", receipts.length ? `{"record":${recordText},"receipts":${JSON.stringify(receipts)}}` : recordText),
  analysis: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/analysis`),
  chat: (id, token) => call("GET", `/api/tables/${encodeURIComponent(id)}/chat`, undefined, token),
  replay: (id, seat) => call("GET", `/api/tables/${encodeURIComponent(id)}/replay${seat === null ? "" : `?seat=${seat}`}`),
  session: () => call("GET", "/api/session"),
  signUp: (body) => call("POST", "/api/accounts", body),
  signIn: (body) => call("POST", "/api/session", body),
  askReset: (body) => call("POST", "/api/password-reset", body),
  resetAccount: (body) => call("POST", "/api/password-reset/account", body),
  resetPassword: (body) => call("POST", "/api/password-reset/password", body),
  signOut: () => call("DELETE", "/api/session"),
  signOutEverywhere: () => call("DELETE", "/api/sessions"),
  deleteMe: () => call("DELETE", "/api/me"),
  myTables: () => call("GET", "/api/me/tables"),
  keepSeats: (body) => call("POST", "/api/me/seats", body),
  passkeyOptions: (body) => call("POST", "/api/passkeys/options", body),
  addPasskey: (body) => call("POST", "/api/passkeys", body),
  passkeyLoginOptions: () => call("POST", "/api/passkeys/login-options", {}),
  passkeyLogin: (body) => call("POST", "/api/passkeys/login", body),
  player: (name) => call("GET", `/api/players/${encodeURIComponent(name)}`),
  rematch: (id, token, bots = false) => call("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, bots ? { bots: true } : {}, token),
  declineRematch: (id, token) => call("DELETE", `/api/tables/${encodeURIComponent(id)}/rematch`, undefined, token),
  tableRating: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/rating`),
  leaderboard: (game) => call("GET", `/api/leaderboard/${encodeURIComponent(game)}`),
  notifyOffer: () => call("GET", "/api/notify"),
  subscribePush: (body) => call("POST", "/api/notify/push", body),
  unsubscribe: (token) => call("POST", `/api/notify/unsubscribe?t=${encodeURIComponent(token)}`),
  myNotify: () => call("GET", "/api/me/notify"),
  setMail: (body) => call("PUT", "/api/me/notify/mail", body),
  dropMail: () => call("DELETE", "/api/me/notify/mail"),
  seatsState: (body) => call("POST", "/api/seats", body),
  friends: () => call("GET", "/api/friends"),
  follow: (body) => call("POST", "/api/friends", body),
  unfollow: (name) => call("DELETE", `/api/friends/${encodeURIComponent(name)}`),
  removeFollower: (name) => call("DELETE", `/api/followers/${encodeURIComponent(name)}`),
  block: (body) => call("POST", "/api/blocks", body),
  unblock: (name) => call("DELETE", `/api/blocks/${encodeURIComponent(name)}`),
  privacy: (body) => call("PUT", "/api/me/privacy", body),
  invite: (body) => call("POST", "/api/invites", body),
  report: (body) => call("POST", "/api/reports", body),
  adminReports: (closed) => call("GET", `/api/admin/reports?closed=${closed ? "true" : "false"}`),
  adminClose: (id, body) => call("POST", `/api/admin/reports/${id}/close`, body),
  adminHide: (body) => call("POST", "/api/admin/messages/hide", body),
  adminSanction: (body) => call("POST", "/api/admin/sanctions", body),
  adminLift: (body) => call("POST", "/api/admin/sanctions/lift", body),
  adminEnd: (id, body) => call("POST", `/api/admin/tables/${encodeURIComponent(id)}/end`, body),
  adminAudit: () => call("GET", "/api/admin/audit"),
  replayRecord: (record, seat) => call("POST", `/api/replay${seat === null ? "" : `?seat=${seat}`}`, record),
};
