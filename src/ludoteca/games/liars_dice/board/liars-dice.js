// The Liar's Dice board: every player's cup with its number of dice (your own dice face up), the
// round's bids, and after a challenge the lifted cups with the dice that matched the bid marked
// and who lost a die. In the dock on your turn: the suggested raises (the smallest legal raise
// on each face), a quantity and face picker with Bid, and Liar!. Every control sends the text of
// a legal action the server listed (no notation here).

import { boardKit } from "/static/js/boards/kit.js";
import { h, rerender } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import * as text from "./liars-text.js";

const { bidText } = text;
const FACES = [1, 2, 3, 4, 5, 6];
const matches = (die, face) => die === face || (face !== 6 && die === 6);

const pip = (face, extra = {}) => h("span", { class: ["ld-die", extra.match && "match"], role: "img", "aria-label": extra.label || String(face), dataset: { face: String(face) } }, String(face));

export function createBoard(ctx) {
  const kit = boardKit(ctx);
  let msg = null;
  let quantity = 1;
  let face = 1;
  let pickedFor = null; // the version the picker belongs to

  const pos = () => msg.view.position;
  const bids = () => kit.actions("bid");
  // the smallest legal raise on each face (lowest quantity), in face order
  const suggestions = () => FACES.map((f) => bids().filter((b) => b.args.face === f).sort((a, b) => a.args.quantity - b.args.quantity)[0]).filter(Boolean);
  const chosen = () => kit.find("bid", { quantity, face });

  function resetPicker() {
    const first = suggestions()[0];
    if (first) {
      quantity = first.args.quantity;
      face = first.args.face;
    }
  }

  function pickFace(f) {
    face = f;
    if (!chosen()) {
      const lowest = suggestions().find((b) => b.args.face === f);
      if (lowest && lowest.args.quantity > quantity) quantity = lowest.args.quantity;
    }
    kit.redraw();
  }

  function step(by) {
    const most = pos().total;
    quantity = Math.min(most, Math.max(1, quantity + by));
    kit.redraw();
  }

  function bid() {
    const action = chosen();
    return Boolean(action) && ctx.act(action.text);
  }

  // ----------------------------------------------------------------------------- drawing
  function cups() {
    const p = pos();
    return h(
      "section",
      { class: "ld-cups", "aria-labelledby": "ld-cups-title" },
      h("h2", { id: "ld-cups-title" }, t("liars.cups"), " ", h("small", {}, t("liars.round", { round: p.round, count: p.total }))),
      h(
        "ul",
        { class: "ld-cup-list" },
        p.counts.map((count, seat) => {
          const mine = seat === ctx.seat();
          const out = p.out.includes(seat);
          return h(
            "li",
            // on the player's turn: their own dice and the bid to raise are what the decision weighs
            // (the page keeps them clear of the dock)
            { class: ["ld-cup", seat === p.to_move && "to-move", mine && "mine", out && "out"], dataset: { seat: String(seat), count: String(count), refers: mine && msg.legal.length ? "" : undefined } },
            h("strong", { class: "ld-cup-name" }, ctx.seatName(seat)),
            h("span", { class: "ld-count" }, out ? t("liars.out") : t("liars.cup_of", { count })),
            mine && p.hand ? h("span", { class: "ld-hand", "aria-label": t("liars.your_dice") }, p.hand.map((d) => pip(d))) : h("span", { class: "ld-hidden", "aria-hidden": "true" }, "▮".repeat(count)),
            seat === p.to_move && h("span", { class: "ld-turn" }, t("liars.to_move")),
          );
        }),
      ),
    );
  }

  function bidList() {
    const p = pos();
    return h(
      "section",
      { class: "ld-bids", "aria-labelledby": "ld-bids-title" },
      h("h2", { id: "ld-bids-title" }, t("liars.bids")),
      p.bids.length ? h("ol", { class: "ld-bid-list" }, p.bids.map((b, i) => { const last = i === p.bids.length - 1; return h("li", { class: ["ld-bid", last && "last"], dataset: { refers: last && msg.legal.length ? "" : undefined } }, h("span", {}, ctx.seatName(b.seat)), " ", h("strong", {}, bidText(b.quantity, b.face))); })) : h("p", { class: "ld-none" }, t("liars.no_bids")),
      h("p", { class: "ld-wild" }, t("liars.wild")),
    );
  }

  function showdown() {
    const s = pos().showdown;
    if (!s) return null;
    const said = bidText(s.quantity, s.face);
    return h(
      "section",
      { class: "ld-showdown", "aria-labelledby": "ld-showdown-title" },
      h("h2", { id: "ld-showdown-title" }, t("liars.lifted")),
      h("p", {}, t("liars.showdown", { name: ctx.seatName(s.challenger), bidder: ctx.seatName(s.bidder), bid: said, count: s.count }), " ", h("strong", { class: "ld-loser" }, t(s.lost_die ? "liars.lost_die" : "liars.lost_match", { name: ctx.seatName(s.loser) }))),
      h(
        "ul",
        { class: "ld-lifted" },
        s.hands.map((hand, seat) =>
          h(
            "li",
            { class: ["ld-lifted-cup", seat === s.loser && "loser"], dataset: { seat: String(seat) } },
            h("span", { class: "ld-cup-name" }, ctx.seatName(seat)),
            h("span", { class: "ld-hand" }, hand.map((d) => pip(d, { match: matches(d, s.face), label: matches(d, s.face) ? `${d} (${t("liars.matching")})` : String(d) }))),
          ),
        ),
      ),
    );
  }

  function dock() {
    if (!msg.legal.length) return null;
    const p = pos();
    const action = chosen();
    const liar = kit.text("liar");
    return h(
      "section",
      { class: "ld-dock", "aria-label": t("liars.suggested") },
      suggestions().length > 0 &&
        h(
          "div",
          { class: "ld-suggest", role: "group", "aria-label": t("liars.suggested") },
          suggestions().map((b) => h("button", { type: "button", class: "lit ld-raise", dataset: { key: `raise-${b.args.face}`, action: b.text }, onClick: () => ctx.act(b.text) }, bidText(b.args.quantity, b.args.face))),
        ),
      bids().length > 0 &&
        h(
          "div",
          { class: "ld-faces", role: "group", "aria-label": t("liars.face") },
          FACES.map((f) => h("button", { type: "button", class: ["ld-face", f === face && "picked"], "aria-pressed": f === face ? "true" : "false", "aria-label": t("liars.face_n", { face: f }), dataset: { key: `face-${f}`, face: String(f) }, onClick: () => pickFace(f) }, pip(f))),
        ),
      h(
        "div",
        { class: "ld-controls" },
        bids().length > 0 && [
          h("button", { type: "button", class: "ld-less", "aria-label": t("liars.less"), dataset: { key: "less" }, disabled: quantity <= 1, onClick: () => step(-1) }, "−"),
          h("output", { class: "ld-quantity", "aria-label": t("liars.quantity") }, String(quantity)),
          h("button", { type: "button", class: "ld-more", "aria-label": t("liars.more"), dataset: { key: "more" }, disabled: quantity >= p.total, onClick: () => step(1) }, "+"),
          h("button", { type: "button", class: "primary ld-bid-button", dataset: { key: "bid", action: action ? action.text : undefined }, disabled: !action, onClick: bid }, action ? t("liars.bid", { bid: bidText(quantity, face) }) : t("liars.no_bid"), h("kbd", { "aria-hidden": "true" }, "↵")),
        ],
        liar && h("button", { type: "button", class: "ld-liar", dataset: { key: "liar", action: liar }, onClick: () => ctx.act(liar) }, t("liars.liar"), h("kbd", { "aria-hidden": "true" }, "L")),
      ),
    );
  }

  function build() {
    return h("div", { class: "ld-board" }, cups(), showdown(), bidList());
  }

  function render(next) {
    msg = next;
    kit.show(next);
    if (pickedFor !== msg.version) {
      resetPicker();
      pickedFor = msg.version;
    }
    rerender(ctx.root, build);
    rerender(ctx.dock, dock);
  }

  function prompt(m) {
    const v = m.view;
    if (v.over) return t("liars.prompt.over");
    if (!m.legal.length) return t("liars.prompt.wait", { name: ctx.seatName(v.to_move) });
    if (!v.position.bids.length) return t("liars.prompt.first");
    return (m.legal_actions || []).some((a) => a.kind === "bid") ? t("liars.prompt.turn") : t("liars.prompt.top");
  }

  function onKey(event) {
    if (!msg || !msg.legal.length) return false;
    const key = event.key;
    if (/^[1-6]$/.test(key)) {
      pickFace(Number(key));
      return true;
    }
    if (key === "ArrowUp" || key === "+") {
      step(1);
      return true;
    }
    if (key === "ArrowDown" || key === "-") {
      step(-1);
      return true;
    }
    if (key === "ArrowLeft" || key === "ArrowRight") {
      pickFace(Math.min(6, Math.max(1, face + (key === "ArrowRight" ? 1 : -1))));
      return true;
    }
    if (key === "Enter" && kit.inBoard()) return bid();
    if (key === "l" || key === "L") return kit.play("liar");
    return false;
  }

  return {
    render,
    prompt,
    onKey,
    ...kit.texts(text),
    describeAction: (action) => {
      const words = action.split(" ");
      return words[0] === "bid" ? bidText(words[1], words[2]) : t("liars.liar");
    },
    revealed: () => null,
    keys: () => [
      ["1–6", t("liars.keys.face")],
      ["← →", t("liars.keys.faces")],
      ["↑ ↓", t("liars.keys.quantity")],
      [t("keys.enter"), t("liars.keys.bid")],
      ["L", t("liars.keys.liar")],
    ],
  };
}
