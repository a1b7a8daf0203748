// Format 5: the chain from the table's creation (docs/fairness.md#the-prelude). The table sends,
// until the deal, every event since its creation (`prelude`) with the head (`chain`) they give;
// the page hashes them itself: the first head is SHA-256("ludoteca/5 chain\n" + the creation's
// canonical JSON), each next one SHA-256(head + "\n" + the event's canonical JSON).

import { commitmentOf } from "./fairness.js";

/** Canonical JSON (keys sorted at every depth, no spaces, characters as themselves), as the
 * server hashes it. */
export function canonical(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
}

/** The head after each event of the prelude. */
export async function preludeHeads(events) {
  const heads = [];
  for (const event of events) {
    const text = heads.length ? `${heads[heads.length - 1]}\n${canonical(event)}` : `ludoteca/5 chain\n${canonical(event)}`;
    heads.push((await commitmentOf(text)).hex);
  }
  return heads;
}

/** Whether `later` starts with every event of `earlier`. */
export function extendsPrelude(earlier, later) {
  return earlier.length <= later.length && earlier.every((e, i) => canonical(e) === canonical(later[i]));
}

/** What the prelude says of one seat: the commitment of whoever holds it now (a commitment made
 * before the seat was freed is not theirs), whether it revealed, whether it was marked withheld. */
export function seatInPrelude(events, seat) {
  const mine = events.filter((e) => e.seat === seat);
  let commitment = null;
  for (const e of mine) {
    if (e.event === "commit") commitment = e.commitment;
    else if (e.event === "leave" || e.event === "sit") commitment = null;
  }
  return {
    commitment,
    revealed: mine.some((e) => e.event === "reveal"),
    withheld: mine.some((e) => e.event === "withheld"),
  };
}

export function closed(events) {
  return events.some((e) => e.event === "close");
}

/** The head right after the `close` event (what the public log pins for a format-5 table), or
 * null. */
export async function closedHead(events) {
  const at = (events || []).findIndex((e) => e && e.event === "close");
  if (at < 0) return null;
  return (await preludeHeads(events.slice(0, at + 1)))[at];
}
