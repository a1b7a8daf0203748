// What the browser remembers (localStorage): seat tokens per table, the player's name.

const TOKENS = "ludoteca.seats";
const NAME = "ludoteca.name";

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or disabled: the seat lasts until the page is closed
  }
}

/** The {seat, token} this browser holds at a table, or null. */
export function seatAt(tableId) {
  return read(TOKENS, {})[tableId] || null;
}

export function keepSeat(tableId, seat, token) {
  const all = read(TOKENS, {});
  all[tableId] = { seat, token, at: Date.now() };
  // keep the 50 most recent tables
  const recent = Object.entries(all).sort((a, b) => b[1].at - a[1].at).slice(0, 50);
  write(TOKENS, Object.fromEntries(recent));
}

/** Every {table, token} this browser holds, newest first. */
export function seatsHeld() {
  return Object.entries(read(TOKENS, {}))
    .sort((a, b) => b[1].at - a[1].at)
    .map(([table, held]) => ({ table, token: held.token }));
}

export function dropSeat(tableId) {
  const all = read(TOKENS, {});
  delete all[tableId];
  write(TOKENS, all);
}

export function playerName() {
  return read(NAME, "");
}

export function keepName(name) {
  write(NAME, name);
}
