// Liar's Dice in words: bids, log lines per event kind, seat labels and facts.

import { h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

/** A bid as people say it: "3 × 5". */
export const bidText = (quantity, face) => t("liars.bid_text", { quantity, face });

export function describe(event, view, seatName) {
  const who = (seat) => seatName(seat);
  switch (event.kind) {
    case "starter":
      return t("liars.log.starter", { name: who(event.seat) });
    case "rolled":
      return event.dice ? t("liars.log.rolled_mine", { round: event.round, dice: event.dice.join(" ") }) : t("liars.log.rolled", { round: event.round, count: event.counts.reduce((a, b) => a + b, 0) });
    case "bid":
      return t("liars.log.bid", { name: who(event.seat), bid: bidText(event.quantity, event.face) });
    case "challenge": {
      const called = t("liars.log.challenge", { name: who(event.seat), bidder: who(event.bidder), bid: bidText(event.quantity, event.face), count: event.count });
      const lost = t(event.lost_die ? "liars.log.lost_die" : "liars.log.lost_match", { name: who(event.loser) });
      const out = event.lost_die && event.out ? ` ${t("liars.log.out", { name: who(event.loser) })}` : "";
      return `${called} ${lost}${out}`;
    }
    default:
      return null;
  }
}

export function soundOf(event) {
  if (event.kind === "rolled") return "dice";
  if (event.kind === "bid") return "place";
  if (event.kind === "challenge") return "capture";
  return null;
}

export function seatLabel(seat, view, seatName) {
  return null;
}

export function seatFacts(seat, view, seatName) {
  const pos = view.position;
  if (!pos || pos.counts[seat] === undefined) return [];
  const facts = [t("liars.fact.dice", { count: pos.counts[seat] })];
  if (pos.out.includes(seat)) facts.push(t("liars.fact.out"));
  return facts;
}

export function outcome(view, seatName) {
  return t(view.position && view.position.rounds === "one" ? "liars.reason.one" : "liars.reason.last");
}
