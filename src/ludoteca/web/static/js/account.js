// The signed-in person (docs/accounts.md): who it is, signing up and in with a password or a
// passkey (WebAuthn), and the seats that follow the account: after signing in, the seats this
// browser holds are given to the account, and the account's seats come to this browser.

import { api } from "./api.js";
import { keepSeat, seatsHeld } from "./store.js";

let known; // undefined: not asked yet; null: nobody; {name}: signed in
const listeners = new Set();

/** Who is signed in ({name}) or null; asked once per page load (GET /api/session, which
 * answers 200 either way, so a signed-out page logs no failed request). */
let asking = null;

/** The server sets this readable cookie (no secret in it) beside the session's: without it nobody
 * is signed in here, and a guest's page asks nothing. */
function maybeSignedIn() {
  return document.cookie.split("; ").some((c) => c.startsWith("ludoteca_signed_in="));
}

export async function me(fresh = false) {
  if (known === undefined && !fresh && !maybeSignedIn()) known = null;
  if (known === undefined || fresh) {
    if (!asking || fresh) {
      asking = api.session().then(
        (found) => (found && found.name ? { name: found.name } : null),
        () => null,
      );
    }
    known = await asking;
  }
  return known;
}

export function onAccountChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(value) {
  known = value;
  asking = Promise.resolve(value);
  for (const listener of listeners) listener(value);
}

/** After signing in: the browser's seats go to the account, the account's come here. */
async function follow(who) {
  const held = seatsHeld();
  if (held.length) await api.keepSeats({ seats: held.slice(0, 50) });
  for (const table of await api.myTables()) {
    if (table.status !== "over" && table.status !== "expired") keepSeat(table.table, table.seat, table.token);
  }
  changed(who);
  return who;
}

/** The seat the signed-in account holds at this table, kept in this browser (if any). */
export async function seatFromAccount(tableId) {
  try {
    if (!(await me())) return;
    const held = (await api.myTables()).find((table) => table.table === tableId);
    if (held && held.status !== "over") keepSeat(held.table, held.seat, held.token);
  } catch {
    // not signed in after all, or the server is away: the table opens as a spectator's
  }
}

export async function signUp(name, password) {
  return follow(await api.signUp({ name, password }));
}

export async function signIn(name, password) {
  return follow(await api.signIn({ name, password }));
}

/** Set a new password with a mailed reset link's token: signed in as after signing in. */
export async function resetPassword(token, password) {
  return follow(await api.resetPassword({ token, password }));
}

export async function signOut(everywhere = false) {
  await (everywhere ? api.signOutEverywhere() : api.signOut());
  changed(null);
}

export async function deleteAccount() {
  await api.deleteMe();
  changed(null);
}

// ------------------------------------------------------------------------------ passkeys
export function passkeysAvailable() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

function bytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function text(buffer) {
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function described(list) {
  return (list || []).map((item) => ({ ...item, id: bytes(item.id) }));
}

function asJSON(credential) {
  const r = credential.response;
  const response = { clientDataJSON: text(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = text(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  } else {
    response.authenticatorData = text(r.authenticatorData);
    response.signature = text(r.signature);
    if (r.userHandle) response.userHandle = text(r.userHandle);
  }
  return {
    id: credential.id,
    rawId: text(credential.rawId),
    type: credential.type,
    response,
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
  };
}

/** A new passkey: for a new account named `name`, or (name null) for the signed-in one. */
export async function makePasskey(name) {
  const options = await api.passkeyOptions(name ? { name } : {});
  const credential = await navigator.credentials.create({
    publicKey: {
      ...options,
      challenge: bytes(options.challenge),
      user: { ...options.user, id: bytes(options.user.id) },
      excludeCredentials: described(options.excludeCredentials),
    },
  });
  return follow(await api.addPasskey({ credential: asJSON(credential) }));
}

/** Sign in with a passkey this device knows. */
export async function passkeySignIn() {
  const options = await api.passkeyLoginOptions();
  const credential = await navigator.credentials.get({
    publicKey: { ...options, challenge: bytes(options.challenge), allowCredentials: described(options.allowCredentials) },
  });
  return follow(await api.passkeyLogin({ credential: asJSON(credential) }));
}
