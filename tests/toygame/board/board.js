// High Card's board, kept in the game's own package (tests/toygame/board) and served by the table
// at /boards/high-card/<version>/: the pile, both discards, your cards as cards, and a button per
// legal action. It imports the web table's helpers by their absolute paths.

import { h, rerender } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";

// its words are in words.<lang>.json beside it, under the namespace its GameSpec declares
const say = (key, params = {}) => t(`high-card.${key}`, params);

const cards = (list, label) => h("ul", { class: "hc-cards", "aria-label": label }, (list || []).map((n) => h("li", { class: "hc-card" }, String(n))));

export function createBoard(ctx) {
  let msg = null;
  const who = (seat) => (typeof seat === "number" ? ctx.seatName(seat) : "");

  function build() {
    const pos = msg.view.position;
    return h(
      "section",
      { class: "panel hc-board", "aria-label": say("pile") },
      h("p", { class: "hc-pile" }, `${say("pile")}: ${pos.pile}`),
      h("h2", {}, say("discards")),
      pos.discards.map((list, seat) => h("div", { class: "hc-discards" }, h("span", {}, who(seat)), cards(list, `${say("discards")} ${who(seat)}`))),
      pos.hand && [h("h2", {}, say("hand")), cards(pos.hand, say("hand"))],
      pos.revealed && [h("h2", {}, say("shown")), pos.revealed.map((list, seat) => h("div", { class: "hc-shown" }, h("span", {}, who(seat)), cards(list, who(seat))))],
    );
  }

  function buildDock() {
    if (!msg.legal.length) return null;
    return h(
      "div",
      { class: "hc-actions action-list", role: "group" },
      msg.legal.map((text, i) => h("button", { type: "button", class: "lit hc-action", dataset: { key: `a-${text}`, action: text }, onClick: () => ctx.act(text) }, h("kbd", { "aria-hidden": "true" }, String(i + 1)), " ", text)),
    );
  }

  return {
    render(next) {
      msg = next;
      rerender(ctx.root, build);
      rerender(ctx.dock, buildDock);
    },
    prompt: (m) => (m.view.over ? say("over") : m.legal.length ? say("yours") : say("wait", { who: who(m.view.to_move) })),
    onKey(event) {
      if (!/^[1-9]$/.test(event.key) || !msg) return false;
      const text = msg.legal[Number(event.key) - 1];
      return text !== undefined && ctx.act(text);
    },
    describe(event) {
      if (event.kind === "showdown") return say("showdown", { cards: event.cards.join(" / ") }) + ".";
      return say(event.kind, { who: who(event.seat), card: event.card }) + ".";
    },
    describeAction: (text) => text,
    soundOf: () => null,
    seatLabel: () => null,
    seatFacts: () => [],
    outcome: () => say("high"),
    revealed: () => null,
    keys: () => [["1–9", say("yours")]],
  };
}
