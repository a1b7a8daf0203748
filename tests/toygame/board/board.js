// High Card's board, kept in the game's own package (tests/toygame/board) and served by the table
// at /boards/high-card/: the pile, both discards, your cards as cards, and a button per legal
// action. It imports the web table's helpers by their absolute paths.

import { h, rerender } from "/static/js/dom.js";
import { language } from "/static/js/i18n.js";

const WORDS = {
  en: { pile: "Pile", hand: "Your cards", discards: "Discards", shown: "Shown", yours: "Your turn: stand, or draw and discard.", wait: "{who} is thinking.", over: "Showdown.", seat: "Player {n}", dealt: "{who} was dealt a card", drew: "{who} drew a card", discarded: "{who} discarded the {card}", stood: "{who} stands", showdown: "Showdown: {cards}", high: "The higher card wins" },
  pt: { pile: "Monte", hand: "Suas cartas", discards: "Descartes", shown: "Reveladas", yours: "Sua vez: passe, ou compre e descarte.", wait: "{who} está pensando.", over: "Revelação.", seat: "Jogador {n}", dealt: "{who} recebeu uma carta", drew: "{who} comprou uma carta", discarded: "{who} descartou o {card}", stood: "{who} passa", showdown: "Revelação: {cards}", high: "A carta mais alta vence" },
  de: { pile: "Stapel", hand: "Deine Karten", discards: "Abwurf", shown: "Aufgedeckt", yours: "Du bist dran: bleib, oder zieh und wirf ab.", wait: "{who} überlegt.", over: "Aufdecken.", seat: "Spieler {n}", dealt: "{who} bekam eine Karte", drew: "{who} zog eine Karte", discarded: "{who} warf die {card} ab", stood: "{who} bleibt", showdown: "Aufdecken: {cards}", high: "Die höhere Karte gewinnt" },
};

function say(key, params = {}) {
  const text = (WORDS[language()] || WORDS.en)[key] || WORDS.en[key];
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

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
