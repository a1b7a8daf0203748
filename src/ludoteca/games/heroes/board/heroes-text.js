// Heroes & Relics in words: log lines per event kind, seat labels and counts, the outcome and the
// set-aside heroes revealed at the end, all in the reader's language.

import { h } from "/static/js/dom.js";
import { list, t } from "/static/js/i18n.js";
import { groupMark } from "./heroes-art.js";

export const group = (seat) => t(`heroes.group.${seat}`);
export const roleName = (role) => t(`heroes.role.${role}`);
const roleA = (role) => t(`heroes.role_a.${role}`);
export const heroName = (hero) => t("heroes.hero", { group: group(hero.owner), role: roleName(hero.role) });

function drew(event) {
  const who = group(event.seat);
  const base = event.cause === "deal" ? t("heroes.log.dealt", { group: who, count: event.count }) : t("heroes.log.drew", { group: who, count: event.count });
  const why = event.cause !== "deal" && event.cause !== "draw" ? ` ${t(`heroes.cause.${event.cause}`)}` : "";
  const seen = event.heroes && event.heroes.length ? ` ${t("heroes.log.which", { heroes: list(event.heroes.map(roleName)) })}` : "";
  return `${base}${why}${seen}.`;
}

const LINES = {
  start: (e) => t("heroes.log.start", { group: group(e.first) }),
  drew,
  placed: (e) =>
    e.room === "camp"
      ? t("heroes.log.camp", { group: group(e.seat), role: roleA(e.role) })
      : e.covered
        ? t("heroes.log.placed_on", { group: group(e.seat), role: roleA(e.role), room: e.room, covered: heroName(e.covered) })
        : t("heroes.log.placed", { group: group(e.seat), role: roleA(e.role), room: e.room }),
  sealed: (e) => t("heroes.log.sealed", { group: group(e.seat), ward: e.ward, count: e.relics, total: e.total }),
  wizard: (e) => t("heroes.log.wizard", { group: group(e.seat), rival: group(e.rival), role: roleA(e.role) }),
  struck: (e) =>
    e.revealed
      ? t("heroes.log.struck_reveal", { group: group(e.seat), hero: heroName(e.hero), room: e.room, revealed: heroName(e.revealed) })
      : t("heroes.log.struck", { group: group(e.seat), hero: heroName(e.hero), room: e.room }),
  skip: (e) => t(e.trick === "strike" ? "heroes.log.skip_strike" : "heroes.log.skip_ranger", { group: group(e.seat) }),
  extra: (e) => t("heroes.log.extra", { group: group(e.seat), room: e.room }),
  end: (e) =>
    e.draw || !e.winners.length
      ? t("heroes.log.end_draw", { reason: t(`heroes.reason.${e.reason}`) })
      : t("heroes.log.end", { group: group(e.winners[0]), reason: t(`heroes.reason.${e.reason}`) }),
};

export function describe(event, view, seatName) {
  const line = LINES[event.kind];
  return line ? line(event) : null;
}

export function soundOf(event) {
  if (event.kind === "placed") return "place";
  if (event.kind === "struck" || event.kind === "wizard" || event.kind === "sealed") return "capture";
  return null;
}

export function seatLabel(seat, view, seatName) {
  const camp = view.position.seats[seat] ? view.position.seats[seat].camp : "";
  return { mark: groupMark(seat), text: t("heroes.seat_label", { group: group(seat), camp: t(`heroes.camp_side.${camp}`) }) };
}

export function seatFacts(seat, view, seatName) {
  const p = view.position;
  return [
    t("heroes.fact.relics", { count: p.relics[seat] }),
    t("heroes.fact.hand", { count: p.hand_counts[seat] }),
    t("heroes.fact.reserve", { count: p.reserve_counts[seat] }),
    t("heroes.fact.discard", { count: p.discards[seat].length }),
    t("heroes.fact.aside", { count: p.set_aside_counts[seat] }),
  ];
}

export function outcome(view, seatName) {
  const o = view.outcome || {};
  return t(`heroes.reason.${o.reason}`);
}

export function revealed(view) {
  const aside = view.position.set_aside;
  if (!aside) return null;
  return h(
    "div",
    { class: "revealed" },
    h("h3", {}, t("heroes.set_aside_title")),
    h(
      "ul",
      {},
      aside.map((roles, seat) => h("li", {}, groupMark(seat), h("strong", {}, `${group(seat)}: `), list(roles.map(roleName)))),
    ),
  );
}
