// Dice Heroes in words: faces, colours, heroes, log lines per event kind, seat labels and counts.

import { h } from "/static/js/dom.js";
import { list, t } from "/static/js/i18n.js";
import { dieChip } from "./dice-art.js";

const COLOURS = ["white", "yellow", "red"];
export const colourName = (colour) => t(`dice.colour.${colour}`);
export const initial = (colour) => t(`dice.initial.${colour}`);
export const faceName = (face) => t(`dice.face.${face}`);

const HEROES = ["bears", "falcons", "otters", "ibexes"];

function heroKey(view, seat) {
  const row = view && view.position ? view.position.seats[seat] : null;
  return row ? row.hero : HEROES[seat] || "bears";
}

/** The hero of a seat (Bears, Falcons, ...) in the reader's language. */
export function heroOf(view, seat) {
  return t(`dice.hero.${heroKey(view, seat)}`);
}

function growth(dice) {
  return list(
    Object.entries(dice)
      .filter(([, n]) => n > 0)
      .map(([colour, n]) => t("dice.log.growth_part", { count: n, colour: colourName(colour) })),
  );
}

function lines(view) {
  const who = (seat) => heroOf(view, seat);
  return {
    rolloff: (e) => t("dice.log.rolloff", { hero: who(e.seat), faces: list(e.faces.map(faceName)), count: e.swords }),
    opening: (e) => t("dice.log.opening", { hero: who(e.seat), count: e.swords }),
    marker: (e) => t("dice.log.marker", { hero: who(e.seat) }),
    capture: (e) => t("dice.log.capture", { hero: who(e.seat), poster: e.poster, count: e.left }),
    roll: (e) => t("dice.log.roll", { hero: who(e.seat), roll: e.roll, faces: list(e.dice.map((d) => t("dice.die_face", { colour: colourName(d.colour), face: faceName(d.face) }))) }),
    sent_back: (e) => t("dice.log.sent_back", { hero: who(e.seat), die: e.die, colour: colourName(e.colour) }),
    hunt: (e) =>
      e.success
        ? e.previous !== null && e.previous !== undefined && e.previous !== e.seat
          ? t("dice.log.hunt_outbid", { hero: who(e.seat), count: e.swords, previous: who(e.previous) })
          : t("dice.log.hunt_lay", { hero: who(e.seat), count: e.swords })
        : t("dice.log.hunt_fail", { hero: who(e.seat), count: e.swords, to_beat: e.to_beat }),
    coins: (e) => t(e.big_treasure ? "dice.log.coins_big" : "dice.log.coins", { hero: who(e.seat), count: e.coins }),
    growth: (e) => t("dice.log.growth", { hero: who(e.seat), dice: growth(e.dice) }),
    end: (e) => t("dice.log.end", { scores: list(e.scores.map((score, seat) => `${who(seat)} ${score}`)) }),
  };
}

export function describe(event, view, seatName) {
  const line = lines(view)[event.kind];
  return line ? line(event) : null;
}

export function soundOf(event) {
  if (event.kind === "roll" || event.kind === "rolloff") return "dice";
  if (event.kind === "capture") return "capture";
  if (event.kind === "hunt" && event.success) return "place";
  return null;
}

export function seatLabel(seat, view, seatName) {
  const hero = heroKey(view, seat);
  return { mark: h("span", { class: `dh-hero-mark hero-${hero}` }, t(`dice.hero_initial.${hero}`)), text: heroOf(view, seat) };
}

export function seatFacts(seat, view, seatName) {
  const row = view.position.seats[seat];
  if (!row) return [];
  return [
    t("dice.fact.score", { count: row.score }),
    t("dice.fact.coins", { count: row.coins }),
    t("dice.fact.posters", { count: row.posters.length }),
  ];
}

export function outcome(view, seatName) {
  return t("dice.reason.score");
}

/** Dice counts per colour as chips: "W×3 Y×1". */
export function diceCounts(counts, label) {
  const shown = COLOURS.filter((c) => counts[c] > 0);
  const words = shown.map((c) => t("dice.count", { count: counts[c], colour: colourName(c) }));
  return h(
    "span",
    { class: "dh-counts", role: "img", "aria-label": `${label}: ${words.length ? list(words) : t("dice.none")}` },
    shown.length ? shown.map((c) => h("span", { class: "dh-count" }, dieChip(c, initial(c)), `×${counts[c]}`)) : h("span", { class: "dh-none" }, "—"),
  );
}
