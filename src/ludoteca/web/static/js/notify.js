// "Your turn" (docs/turn-based.md): what the server offers, turning web push on for this device
// (for the signed-in account, or for a guest's seat by its token), and the state of every seat
// this browser holds or the account holds: whose turn, until when.

import { api } from "./api.js";
import { language } from "./i18n.js";
import { me } from "./account.js";
import { seatsHeld } from "./store.js";

const STOPS = "ludoteca.push"; // this device's unsubscribe tokens, by table ("" for the account)
let offer = null;

/** What the server sends: inline in the page (no request), else asked. */
export function offered() {
  if (!offer) {
    try {
      const inline = JSON.parse(document.getElementById("notify-data").textContent);
      if ("push" in inline) offer = Promise.resolve(inline);
    } catch {
      offer = null;
    }
  }
  if (!offer) offer = api.notifyOffer().catch(() => ({ push: false, mail: false, key: null }));
  return offer;
}

export function pushPossible() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function zone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function stops() {
  try {
    return JSON.parse(localStorage.getItem(STOPS) || "{}");
  } catch {
    return {};
  }
}

export function pushOn(tableId) {
  const kept = stops();
  return Boolean(kept[tableId] || kept[""]);
}

/**
 * Ask for permission, subscribe this device and tell the server: for the account when signed
 * in, else for the seat this browser holds at `seat.table`. Returns "on", "denied" (no
 * permission), "refused" (permission, but the browser will not subscribe), "unsupported", or
 * throws what the server answered.
 */
export async function enablePush(seat) {
  const offer = await offered();
  if (!offer.push || !pushPossible()) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return "denied";
  let subscription;
  try {
    const registration = await navigator.serviceWorker.ready;
    subscription =
      (await registration.pushManager.getSubscription()) ||
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(offer.key) }));
  } catch {
    return "refused"; // the browser will not subscribe here (a private window, a blocked service)
  }
  const body = { ...subscription.toJSON(), lang: language(), zone: zone() };
  delete body.expirationTime;
  const signedIn = await me();
  if (!signedIn && seat) Object.assign(body, { table: seat.table, token: seat.token });
  const made = await api.subscribePush(body);
  const kept = stops();
  kept[signedIn ? "" : seat.table] = made.unsubscribe;
  localStorage.setItem(STOPS, JSON.stringify(kept));
  return "on";
}

/** Stop the pushes this device gets for a table (or for the account). */
export async function disablePush(tableId) {
  const kept = stops();
  const key = kept[tableId] ? tableId : "";
  if (kept[key]) await api.unsubscribe(kept[key]);
  delete kept[key];
  localStorage.setItem(STOPS, JSON.stringify(kept));
}

let asked = null;
let askedAt = 0;
// One answer serves this tab's pages for half a minute (kept in sessionStorage across page
// loads): moving between pages does not ask again, and the title's count refreshes every minute.
const FRESH_MS = 30_000;
const KEPT = "ludoteca.turns";

function keptTurns() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEPT) || "null");
    const seats = seatsHeld().map((held) => held.table).sort().join(",");
    if (kept && kept.seats === seats && Date.now() - kept.at <= FRESH_MS) return kept;
  } catch {
    // private mode, or something else written there: ask
  }
  return null;
}

function keepTurns(answer) {
  try {
    const seats = seatsHeld().map((held) => held.table).sort().join(",");
    sessionStorage.setItem(KEPT, JSON.stringify({ at: Date.now(), seats, answer }));
  } catch {
    // private mode: this page only
  }
}

/** Every seat I hold (this browser's, and the account's when signed in): where it is my turn
 * first, soonest deadline first, then the rest. One request serves the list and the title's
 * count of the tab's pages for FRESH_MS; a seat taken or left here asks again. */
export function myTurns() {
  if (!asked || Date.now() - askedAt > FRESH_MS) {
    const kept = keptTurns();
    askedAt = kept ? kept.at : Date.now();
    asked = kept ? Promise.resolve(kept.answer) : askTurns();
    asked.then(
      (answer) => kept || keepTurns(answer),
      () => {
        asked = null;
      },
    );
  }
  return asked;
}

async function askTurns() {
  const seats = new Map(seatsHeld().map((held) => [held.table, held]));
  if (await me()) {
    for (const table of await api.myTables().catch(() => [])) {
      if (!seats.has(table.table)) seats.set(table.table, { table: table.table, token: table.token });
    }
  }
  if (!seats.size) return [];
  return api.seatsState({ seats: [...seats.values()].slice(0, 50) });
}

/** A deadline (epoch seconds) as a date and time in the viewer's time zone and language. */
export function deadlineText(deadline) {
  return new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(deadline * 1000));
}
