// The Heroes & Relics panels around the keep: each seat's strip (relics, counts, discard), the
// hand, the buttons, and a room's stack and wards. Pure builders: the board passes its state
// ({position, me, lifted, info, can, text, striking, seatName}: `can(kind)` whether an action of
// that kind is legal, `text(kind)` its text) and its actions.

import { h } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { STRENGTH, groupMark, heroToken } from "./heroes-art.js";
import { group, heroName, roleName } from "./heroes-text.js";

export function stripPanel(state, seat) {
  const p = state.position;
  const filled = Math.min(6, p.relics[seat]);
  return h(
    "div",
    { class: ["hr-strip", `strip-${seat}`, seat === state.me && "mine"] },
    groupMark(seat),
    h("strong", {}, group(seat)),
    h("span", { class: "hr-name" }, state.seatName(seat)),
    h(
      "span",
      { class: "hr-relic-meter", role: "img", "aria-label": t("heroes.fact.relics", { count: p.relics[seat] }) },
      [0, 1, 2, 3, 4, 5].map((i) => h("span", { class: ["relic", i < filled && "won"] })),
      h("span", { class: "hr-relic-count" }, `${p.relics[seat]}/6`),
    ),
    h("span", { class: "hr-count" }, t("heroes.fact.hand", { count: p.hand_counts[seat] })),
    h("span", { class: "hr-count" }, t("heroes.fact.reserve", { count: p.reserve_counts[seat] })),
    h(
      "details",
      { class: "hr-discard", dataset: { key: `discard-${seat}` } },
      h("summary", {}, t("heroes.fact.discard", { count: p.discards[seat].length })),
      p.discards[seat].length ? h("p", {}, p.discards[seat].map(roleName).join(", ")) : h("p", {}, t("heroes.none")),
    ),
  );
}

export function handPanel(state, actions) {
  const roles = state.position.hand;
  if (!roles) return null;
  return h(
    "div",
    { class: "hr-hand", role: "group", "aria-label": t("heroes.hand") },
    h("span", { class: "hr-hand-title" }, t("heroes.hand")),
    roles.length ? null : h("span", { class: "empty" }, t("heroes.empty_hand")),
    roles.map((role, index) => {
      const can = actions.placeable(role) && !state.striking;
      const up = state.lifted && state.lifted.index === index;
      return h(
        "button",
        {
          type: "button",
          class: ["hr-hero", up && "lifted", !can && "idle"],
          dataset: { key: `hand-${index}`, role, index: String(index) },
          "aria-pressed": up ? "true" : "false",
          // what the role's trick does, on hover and for a screen reader (after the name)
          title: t(`heroes.trick.${role}`),
          "aria-description": t(`heroes.trick.${role}`),
          onClick: () => actions.lift(index),
        },
        // the name comes from the content (so it holds the visible text): the spoken line
        h("span", { class: "sr-only" }, t("heroes.hand_hero", { n: index + 1, role: roleName(role), strength: STRENGTH[role] })),
        h("kbd", { "aria-hidden": "true" }, String(index + 1)),
        heroToken(state.me, role),
        h("span", { class: "hr-role", "aria-hidden": "true" }, roleName(role)),
      );
    }),
  );
}

export function controlsPanel(state, actions) {
  const can = state.can;
  return h(
    "div",
    { class: "hr-controls" },
    h("button", { type: "button", class: "primary hr-draw", dataset: { key: "draw", action: state.text("draw") }, disabled: !can("draw"), onClick: actions.draw }, t("heroes.draw"), h("kbd", { "aria-hidden": "true" }, "R")),
    can("skip") && h("button", { type: "button", class: "hr-skip", dataset: { key: "skip", action: state.text("skip") }, onClick: actions.skip }, t("heroes.skip"), h("kbd", { "aria-hidden": "true" }, "S")),
    state.lifted &&
      h(
        "button",
        { type: "button", class: "quiet hr-putback", dataset: { key: "putback" }, onClick: actions.putBack },
        t("heroes.put_back_button"),
        h("kbd", { "aria-hidden": "true" }, "Esc"),
      ),
  );
}

export function infoBox(state, room, actions) {
  const wards = state.position.wards.filter((w) => room.wards.includes(w.ward));
  return h(
    "section",
    { class: "hr-info", "aria-labelledby": "hr-info-title" },
    h("h2", { id: "hr-info-title" }, t("heroes.room", { room: room.room }), room.sanctuary ? ` · ${t("heroes.sanctuary")}` : ""),
    h("h3", {}, t("heroes.stack")),
    room.stack.length
      ? h("ol", { class: "hr-stack", reversed: true }, [...room.stack].reverse().map((hero) => h("li", {}, heroToken(hero.owner, hero.role, "small"), heroName(hero))))
      : h("p", {}, t("heroes.empty")),
    h("h3", {}, t("heroes.wards")),
    h(
      "ul",
      {},
      wards.map((w) =>
        h("li", {}, w.sealed_by === null ? t("heroes.ward_open", { ward: w.ward, count: w.relics }) : t("heroes.ward_sealed", { ward: w.ward, count: w.relics, group: group(w.sealed_by) })),
      ),
    ),
    h("button", { type: "button", class: "quiet", dataset: { key: "close-info" }, onClick: actions.closeInfo }, t("heroes.close")),
  );
}
