// The Dice Heroes board: the dice of the roll (tap to mark for a re-roll; Roll / Stop), the
// wanted posters with the holder's swords and duel markers, and every seat's troop, tableau,
// coins and posters. A die can be marked exactly when rerolling it alone is a legal action, and
// Roll sends the legal reroll of the marked dice (the server's text for it: no notation here).
// On the player's turn the parts the decision weighs (the posters the swords are laid against, and
// the player's own troop and tableau, first among the seats) carry data-refers: the page keeps
// them clear of the dock (tests/web/test_web_fit.py).

import { boardKit } from "/static/js/boards/kit.js";
import { h, rerender } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { icon } from "/static/js/icons.js";
import { dieFace } from "./dice-art.js";
import * as text from "./dice-heroes-text.js";

const { colourName, diceCounts, faceName, heroOf, initial } = text;

export function createBoard(ctx) {
  const kit = boardKit(ctx);
  let msg = null;
  let marked = new Set();
  let markedFor = null; // the version the marks belong to

  const me = () => ctx.seat();
  const pos = () => msg.view.position;
  const canMark = (die) => kit.can("reroll", { dice: [die] });
  const markedDice = () => ({ dice: [...marked].sort((a, b) => a - b) });
  // the legal reroll of the marked dice (null: none marked, or that reroll is not legal)
  const reroll = () => (marked.size ? kit.find("reroll", markedDice()) : null);

  function toggle(die) {
    if (!canMark(die)) return;
    if (marked.has(die)) marked.delete(die);
    else marked.add(die);
    const d = pos().turn.dice.find((x) => x.die === die);
    ctx.announce(t(marked.has(die) ? "dice.marked" : "dice.unmarked", { die, colour: colourName(d.colour), face: faceName(d.face) }));
    kit.redraw();
  }

  function markAll() {
    const dice = pos().turn ? pos().turn.dice.filter((d) => canMark(d.die)) : [];
    const all = dice.every((d) => marked.has(d.die));
    marked = all ? new Set() : new Set(dice.map((d) => d.die));
    kit.redraw();
  }

  function roll() {
    if (marked.size && kit.play("reroll", markedDice())) {
      marked = new Set();
      kit.redraw();
    }
  }

  function stop() {
    if (kit.play("stop")) {
      marked = new Set();
      kit.redraw();
    }
  }

  // ----------------------------------------------------------------------------- drawing
  const deciding = () => msg.legal.length > 0;

  function posters() {
    const p = pos();
    const holder = p.holder;
    const holderRow = holder !== null && holder !== undefined ? p.seats[holder] : null;
    return h(
      "section",
      { class: "dh-posters", "aria-labelledby": "dh-posters-title", dataset: { refers: deciding() ? "" : undefined } },
      h("h2", { id: "dh-posters-title" }, t("dice.posters")),
      h(
        "div",
        { class: "dh-poster-row" },
        p.posters_left.length
          ? h(
              "div",
              { class: "dh-poster", role: "img", "aria-label": t("dice.top_poster", { value: p.posters_left[0], count: p.posters_left.length }) },
              h("span", { class: "dh-wanted" }, t("dice.wanted")),
              h("strong", {}, String(p.posters_left[0])),
              h("span", { class: "dh-left" }, t("dice.posters_left", { count: p.posters_left.length })),
            )
          : h("p", {}, t("dice.no_posters")),
        h("p", { class: "dh-stack" }, p.posters_left.map((value, i) => h("span", { class: ["dh-poster-chip", i === 0 && "top"] }, String(value)))),
      ),
      h(
        "div",
        { class: "dh-holder" },
        holderRow
          ? [
              h("p", {}, t("dice.holder", { hero: heroOf(msg.view, holder), name: ctx.seatName(holder), count: p.laid_swords })),
              h("div", { class: "dh-laid" }, p.laid.map((d) => dieFace(d.colour, d.face, initial(d.colour))), holderRow.marker && h("span", { class: "dh-marker", title: t("dice.marker") }, t("dice.marker"))),
            ]
          : h("p", {}, t("dice.no_holder")),
      ),
    );
  }

  function rollPanel() {
    const turn = pos().turn;
    if (!turn) return null;
    const mine = msg.legal.length > 0;
    return h(
      "section",
      { class: ["dh-roll", mine && "mine"], "aria-labelledby": "dh-roll-title" },
      h("h2", { id: "dh-roll-title" }, t("dice.roll_title", { hero: heroOf(msg.view, turn.seat), name: ctx.seatName(turn.seat), roll: turn.roll })),
      h(
        "div",
        { class: "dh-dice", role: "group", "aria-label": t("dice.dice") },
        turn.dice.map((d) => {
          const can = mine && canMark(d.die);
          const on = marked.has(d.die);
          const label = [
            t("dice.die_label", { die: d.die, colour: colourName(d.colour), face: faceName(d.face) }),
            d.locked && t("dice.locked"),
            on && t("dice.marked_short"),
          ]
            .filter(Boolean)
            .join(", ");
          return h(
            "button",
            {
              type: "button",
              class: ["dh-die-button", on && "marked", d.locked && "locked", can && "lit"],
              dataset: { key: `die-${d.die}`, die: String(d.die), face: d.face },
              "aria-pressed": on ? "true" : "false",
              disabled: !can,
              onClick: () => toggle(d.die),
            },
            h("span", { class: "sr-only" }, label),
            h("kbd", { "aria-hidden": "true" }, String(d.die)),
            dieFace(d.colour, d.face, initial(d.colour)),
            on && icon("reroll", "dh-reroll-mark"),
          );
        }),
      ),
      h(
        "p",
        { class: "dh-sum" },
        t("dice.sum", { count: turn.swords, to_beat: turn.to_beat }),
        " ",
        h("strong", {}, turn.would_lay ? t("dice.would_lay") : t("dice.would_not_lay")),
        " ",
        t("dice.rolls_left", { count: turn.rolls_left }),
      ),
      mine &&
        h(
          "div",
          { class: "dh-controls" },
          h("button", { type: "button", class: "primary dh-reroll", dataset: { key: "reroll", action: reroll() ? reroll().text : undefined }, disabled: !reroll(), onClick: roll }, t("dice.reroll", { count: marked.size }), h("kbd", { "aria-hidden": "true" }, "R")),
          h("button", { type: "button", class: "dh-stop", dataset: { key: "stop", action: kit.text("stop") }, disabled: !kit.can("stop"), onClick: stop }, t("dice.stop"), h("kbd", { "aria-hidden": "true" }, "S")),
          h("button", { type: "button", class: "quiet dh-all", dataset: { key: "all" }, onClick: markAll }, t("dice.mark_all"), h("kbd", { "aria-hidden": "true" }, "A")),
        ),
    );
  }

  function seatCard(row) {
    const p = pos();
    const turnSeat = p.turn ? p.turn.seat : null;
    const label = text.seatLabel(row.seat, msg.view, ctx.seatName);
    return h(
      "li",
      {
        class: ["dh-seat", row.seat === turnSeat && "to-move", row.seat === me() && "mine"],
        dataset: { seat: String(row.seat), refers: row.seat === me() && deciding() ? "" : undefined },
      },
      h("div", { class: "dh-seat-head" }, label.mark, h("strong", {}, label.text), h("span", { class: "dh-seat-name" }, ctx.seatName(row.seat))),
      h(
        "dl",
        { class: "dh-facts" },
        h("dt", {}, t("dice.troop")),
        h("dd", {}, diceCounts(row.troop, t("dice.troop"))),
        h("dt", {}, t("dice.tableau")),
        h("dd", {}, diceCounts(row.tableau, t("dice.tableau"))),
        h("dt", {}, t("dice.at_posters")),
        h("dd", {}, diceCounts(row.at_posters, t("dice.at_posters")), row.marker && h("span", { class: "dh-marker small" }, t("dice.marker"))),
        h("dt", {}, t("dice.coins")),
        h("dd", {}, h("span", { class: "dh-coin-count" }, String(row.coins))),
        h("dt", {}, t("dice.posters_taken")),
        h("dd", {}, row.posters.length ? row.posters.map((v) => h("span", { class: "dh-poster-chip" }, String(v))) : "—"),
        h("dt", {}, t("dice.score")),
        h("dd", {}, h("strong", {}, String(row.score))),
      ),
    );
  }

  /** What each face does, at the table (the same as the rules page says). */
  function legend() {
    const faces = [
      ["white", "sword2", "swords"],
      ["white", "coin", "coin"],
      ["white", "yellow-die", "yellow"],
      ["yellow", "red-die", "red"],
      ["red", "x", "x"],
    ];
    return h(
      "details",
      { class: "dh-legend", dataset: { key: "legend" } },
      h("summary", {}, t("dice.legend.title")),
      h("ul", {}, faces.map(([colour, face, key]) => h("li", {}, dieFace(colour, face, initial(colour)), h("span", {}, t(`dice.legend.${key}`))))),
    );
  }

  function build() {
    // the player's own card first: what the roll is weighed with, nearest the posters
    const seats = [...pos().seats].sort((a, b) => (b.seat === me()) - (a.seat === me()));
    return h(
      "div",
      { class: "dh-board" },
      h("div", { class: "dh-top" }, posters()),
      h("ul", { class: "dh-seats" }, seats.map(seatCard)),
      legend(),
    );
  }

  function render(next) {
    msg = next;
    kit.show(next);
    if (markedFor !== msg.version) {
      marked = new Set([...marked].filter((die) => canMark(die)));
      markedFor = msg.version;
    }
    rerender(ctx.root, build);
    rerender(ctx.dock, rollPanel);
  }

  function prompt(m) {
    const v = m.view;
    if (v.over) return t("dice.prompt.over");
    if (!m.legal.length) return t("dice.prompt.wait", { name: ctx.seatName(v.to_move), hero: heroOf(v, v.to_move) });
    return t("dice.prompt.turn", { roll: v.position.turn ? v.position.turn.roll : 1 });
  }

  function onKey(event) {
    const inBoard = kit.inBoard();
    const key = event.key;
    if (/^[1-9]$/.test(key)) {
      toggle(Number(key));
      return true;
    }
    if (key === "r" || key === "R" || (key === "Enter" && inBoard)) {
      roll();
      return true;
    }
    if (key === "s" || key === "S") {
      stop();
      return true;
    }
    if (kit.isSpace(event)) {
      roll();
      return true;
    }
    if (key === "Escape" && marked.size) {
      marked = new Set();
      kit.redraw();
      return true;
    }
    if (key === "a" || key === "A") {
      markAll();
      return true;
    }
    return false;
  }

  return {
    render,
    prompt,
    onKey,
    ...kit.texts(text),
    revealed: () => null,
    keys: () => [
      ["1–9", t("dice.keys.toggle")],
      [`${t("keys.enter")} / ${t("keys.space")} / R`, t("dice.keys.roll")],
      ["Esc", t("dice.keys.escape")],
      ["S", t("dice.keys.stop")],
      ["A", t("dice.keys.all")],
    ],
  };
}
