// The lobby over HTTP (docs/protocol.md). Errors come back as ApiError with the server's code.

class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || "http";
  }
}

async function call(method, path, body, token, asText = false) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      // a string goes as it is: a signed record must reach the server byte for byte (JavaScript
      // would turn a score of 6.0 into 6 and so change what was signed)
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "offline", "");
  }
  if (asText && response.ok) return response.text();
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, data && data.error, data && data.message);
  }
  return data;
}

export const api = {
  games: () => call("GET", "/api/games"),
  game: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  tables: (status = "open") => call("GET", `/api/tables?status=${status}`),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (body) => call("POST", "/api/tables", body),
  playNow: (body) => call("POST", "/api/play-now", body),
  join: (id, body) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, body),
  leave: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/leave`, {}, token),
  start: (id, token) => call("POST", `/api/tables/${encodeURIComponent(id)}/start`, {}, token),
  record: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/record`),
  /** The record exactly as the server wrote it (to verify or replay it unchanged). */
  recordText: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}/record`, undefined, null, true),
  verify: (record) => call("POST", "/api/verify", record),
  replay: (id, seat) => call("GET", `/api/tables/${encodeURIComponent(id)}/replay${seat === null ? "" : `?seat=${seat}`}`),
  replayRecord: (record, seat) => call("POST", `/api/replay${seat === null ? "" : `?seat=${seat}`}`, record),
};
