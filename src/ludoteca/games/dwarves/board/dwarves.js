// The Return of the Dwarves board: the ring of tiles with the hobbit, the dragon and the dwarves,
// the dice, the pool, every chest and the dragon's hoard. A tile lights up exactly when a legal
// action goes to it; a meeting offers the stones to give and take, each lit exactly when the trade
// or steal it completes is legal. The legal actions are read as data ({text, kind, args}).

import { boardKit } from "/static/js/boards/kit.js";
import { h, rerender } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { colourShape, dragonToken, dwarfDie, dwarfToken, greyTileIcon, hobbitToken, stoneIcon } from "./dwarves-art.js";
import * as text from "./dwarves-text.js";

const { KINDS, chestView, colourName, figureName, stoneName, tileName } = text;

const WAYS = { g: "grey", w: "white", n: "step", h: "stay" };

export function createBoard(ctx) {
  const kit = boardKit(ctx);
  let msg = null;
  let cursor = null; // tile number under the keyboard cursor
  let mode = null; // "trade" | "steal" while meeting
  let give = null; // the stone kind chosen to give

  const me = () => ctx.seat();
  const view = () => msg.view;
  const pos = () => msg.view.position;
  const fig = (colour) => figureName(msg && msg.view, colour, ctx.seatName);

  // ----------------------------------------------------------------------------- choices
  const actions = kit.actions;

  function destinations() {
    return actions("to").map((a) => a.args.tile);
  }

  function trades() {
    return actions("trade")
      .filter((a) => !a.args.blind)
      .map((a) => ({ give: a.args.give, take: a.args.take }));
  }

  function steals() {
    return actions("steal").map((a) => a.args.take);
  }

  function meeting() {
    return actions("trade").length > 0 || actions("steal").length > 0;
  }

  function go(tile) {
    if (kit.play("to", { tile })) cursor = null;
  }

  function way(name) {
    const pending = pos().pending;
    if (!pending || pending.choice !== "move") return;
    const found = pending.moves.find((m) => m.ways.includes(name) && kit.can("to", { tile: m.tile }));
    if (found) go(found.tile);
  }

  function pickStone(kind, side) {
    if (side === "give") {
      if (!trades().some((x) => x.give === kind)) return;
      give = give === kind ? null : kind;
      ctx.announce(give ? t("dwarves.giving", { stone: stoneName(kind) }) : t("dwarves.give_cleared"));
      kit.redraw();
      return;
    }
    if (mode === "steal") {
      if (kit.play("steal", { take: kind })) give = null;
    } else if (give && kit.play("trade", { give, take: kind })) {
      give = null;
    }
  }

  function setMode(next) {
    if ((next === "trade" && !trades().length) || (next === "steal" && !steals().length)) return;
    mode = next;
    give = null;
    kit.redraw();
  }

  function blind() {
    kit.play("trade", { blind: true });
  }

  // ----------------------------------------------------------------------------- drawing
  function figuresOn(tile) {
    const p = pos();
    const out = [];
    for (const d of p.dwarves) if (d.tile === tile) out.push(h("span", { class: ["dw-on", d.seat === me() && !d.extra && "mine"], title: fig(d.colour) }, dwarfToken(d.colour)));
    if (p.hobbit === tile) out.push(h("span", { class: "dw-on", title: t("dwarves.hobbit") }, hobbitToken()));
    if (p.dragon.tile === tile) out.push(h("span", { class: "dw-on", title: t("dwarves.dragon") }, dragonToken()));
    return out;
  }

  function tileLabel(tile, lit) {
    const p = pos();
    const who = [
      ...p.dwarves.filter((d) => d.tile === tile).map((d) => fig(d.colour)),
      p.hobbit === tile && t("dwarves.hobbit"),
      p.dragon.tile === tile && t("dwarves.dragon"),
    ].filter(Boolean);
    const pending = p.pending;
    const ways = lit && pending && pending.moves ? (pending.moves.find((m) => m.tile === tile) || { ways: [] }).ways : [];
    return [tileName(view(), tile), who.length ? who.join(", ") : t("dwarves.free_tile"), lit && t("dwarves.can_go", { ways: ways.map((w) => t(`dwarves.way.${w}`)).join(", ") })].filter(Boolean).join(". ");
  }

  function ring() {
    const p = pos();
    const n = p.ring.length;
    const lit = new Set(destinations());
    return h(
      "div",
      // the tiles to choose from are what the decision is about (the page keeps them clear of the dock)
      { class: ["dw-ring", lit.size && "choosing"], role: "group", "aria-label": t("dwarves.ring"), dataset: { refers: lit.size ? "" : undefined } },
      p.ring.map((tile) => {
        const angle = -90 + (360 * tile.tile) / n;
        const rad = (angle * Math.PI) / 180;
        const isLit = lit.has(tile.tile);
        const pending = p.pending;
        const ways = isLit && pending && pending.moves ? (pending.moves.find((m) => m.tile === tile.tile) || { ways: [] }).ways : [];
        return h(
          "button",
          {
            type: "button",
            class: ["dw-tile", `dw-tile-${tile.colour}`, isLit && "lit", cursor === tile.tile && "cursor"],
            style: { left: `${50 + 41 * Math.cos(rad)}%`, top: `${50 + 41 * Math.sin(rad)}%` },
            dataset: { key: `tile-${tile.tile}`, tile: String(tile.tile), action: isLit ? kit.text("to", { tile: tile.tile }) : undefined },
            onClick: () => {
              cursor = tile.tile;
              go(tile.tile);
            },
          },
          h("span", { class: "sr-only" }, tileLabel(tile.tile, isLit)),
          h("span", { class: "dw-tile-head", "aria-hidden": "true" }, tile.colour === "grey" ? greyTileIcon(tile.kind) : colourShape(tile.colour), h("span", { class: "dw-tile-n" }, String(tile.tile))),
          h("span", { class: "dw-figures", "aria-hidden": "true" }, figuresOn(tile.tile)),
          isLit && h("span", { class: "dw-ways", "aria-hidden": "true" }, ways.filter((w) => w !== "doubles").map((w) => t(`dwarves.way_short.${w}`)).join(" ")),
        );
      }),
      centre(),
    );
  }

  function centre() {
    const p = pos();
    return h(
      "div",
      { class: "dw-centre" },
      h(
        "div",
        { class: "dw-dice", role: "img", "aria-label": t("dwarves.dice_label", { grey: colourName(p.dice.grey), white: colourName(p.dice.white) }) },
        h("span", { class: "dw-die-wrap" }, dwarfDie("grey", p.dice.grey), h("small", {}, colourName(p.dice.grey))),
        h("span", { class: "dw-die-wrap" }, dwarfDie("white", p.dice.white), h("small", {}, colourName(p.dice.white))),
      ),
      p.dice.doubles && h("strong", { class: "dw-doubles" }, t("dwarves.doubles")),
      h("p", { class: "dw-pool" }, t("dwarves.pool", { count: p.pool })),
      h("p", { class: "dw-round" }, t("dwarves.round", { round: p.round, cap: p.round_cap })),
    );
  }

  function moveChoices() {
    const pending = pos().pending;
    if (!pending || pending.choice !== "move" || !msg.legal.length) return null;
    const moves = pending.moves.filter((m) => kit.can("to", { tile: m.tile }));
    const doubles = moves.some((m) => m.ways.includes("doubles"));
    return h(
      "section",
      { class: "dw-choices", "aria-labelledby": "dw-choice-title" },
      h("h2", { id: "dw-choice-title" }, doubles ? t("dwarves.choose_doubles") : t("dwarves.choose_move")),
      h(
        "div",
        { class: "dw-way-buttons" },
        ["grey", "white", "step", "stay"].map((w) => {
          const m = moves.find((x) => x.ways.includes(w));
          if (!m) return null;
          const key = Object.keys(WAYS).find((k) => WAYS[k] === w).toUpperCase();
          return h(
            "button",
            { type: "button", class: "dw-way", dataset: { key: `way-${w}`, action: m.text }, onClick: () => go(m.tile) },
            t(`dwarves.way.${w}`),
            " → ",
            tileName(view(), m.tile),
            h("kbd", { "aria-hidden": "true" }, key),
          );
        }),
      ),
    );
  }

  function stoneRow(side, stones, isLit, chosen, actionOf = () => null) {
    const kinds = KINDS.filter((k) => stones.includes(k));
    return h(
      "div",
      { class: "dw-stone-row", role: "group", "aria-label": side === "give" ? t("dwarves.give") : t("dwarves.take") },
      h("span", { class: "dw-row-title" }, side === "give" ? t("dwarves.give") : t("dwarves.take")),
      kinds.map((kind, i) =>
        h(
          "button",
          {
            type: "button",
            class: ["dw-stone-button", isLit(kind) && "lit", chosen === kind && "chosen"],
            disabled: !isLit(kind),
            dataset: { key: `${side}-${kind}`, stone: kind, side, action: isLit(kind) ? actionOf(kind) : null },
            "aria-pressed": chosen === kind ? "true" : "false",
            onClick: () => pickStone(kind, side),
          },
          h("kbd", { "aria-hidden": "true" }, String(i + 1)),
          stoneIcon(kind),
          stoneName(kind),
          h("small", {}, `×${stones.filter((x) => x === kind).length}`),
        ),
      ),
    );
  }

  function meetChoices() {
    if (!meeting()) return null;
    const p = pos();
    const pending = p.pending;
    const mine = p.dwarves.find((d) => d.colour === pending.dwarf);
    const other = p.dwarves.find((d) => d.colour === pending.with);
    const tradeList = trades();
    const stealList = steals();
    if (!mode || (mode === "trade" && !tradeList.length) || (mode === "steal" && !stealList.length)) mode = tradeList.length ? "trade" : stealList.length ? "steal" : null;
    return h(
      "section",
      { class: "dw-choices dw-meet", "aria-labelledby": "dw-meet-title" },
      h("h2", { id: "dw-meet-title" }, t("dwarves.meet", { other: fig(pending.with) })),
      h(
        "div",
        { class: "dw-modes" },
        tradeList.length > 0 && h("button", { type: "button", class: ["dw-mode", mode === "trade" && "chosen"], dataset: { key: "mode-trade" }, "aria-pressed": mode === "trade" ? "true" : "false", onClick: () => setMode("trade") }, t("dwarves.trade"), h("kbd", { "aria-hidden": "true" }, "T")),
        stealList.length > 0 && h("button", { type: "button", class: ["dw-mode", mode === "steal" && "chosen"], dataset: { key: "mode-steal" }, "aria-pressed": mode === "steal" ? "true" : "false", onClick: () => setMode("steal") }, t("dwarves.steal"), h("kbd", { "aria-hidden": "true" }, "X")),
        kit.can("trade", { blind: true }) && h("button", { type: "button", class: "primary dw-blind", dataset: { key: "blind", action: kit.text("trade", { blind: true }) }, onClick: blind }, t("dwarves.blind"), h("kbd", { "aria-hidden": "true" }, "B")),
      ),
      mode === "trade" && [
        h("p", { class: "hint" }, give ? t("dwarves.pick_take", { stone: stoneName(give) }) : t("dwarves.pick_give")),
        stoneRow("give", mine.chest, (k) => tradeList.some((x) => x.give === k), give),
        stoneRow("take", other.chest, (k) => give !== null && kit.can("trade", { give, take: k }), null, (k) => kit.text("trade", { give, take: k })),
      ],
      mode === "steal" && [h("p", { class: "hint" }, t("dwarves.pick_steal")), stoneRow("take", other.chest, (k) => stealList.includes(k), null, (k) => kit.text("steal", { take: k }))],
    );
  }

  function chests(where = "board") {
    const p = pos();
    // the end panel's copy is no landmark of its own: the board's "Chests" region is the one
    return h(
      where === "end" ? "div" : "section",
      { class: "dw-chests", "aria-labelledby": `dw-chests-title-${where}` },
      h("h2", { id: `dw-chests-title-${where}` }, t("dwarves.chests")),
      h(
        "ul",
        {},
        p.dwarves.map((d) =>
          h(
            "li",
            { class: ["dw-chest-row", p.turn === d.colour && "to-move", d.seat === me() && !d.extra && "mine"], dataset: { dwarf: d.colour } },
            dwarfToken(d.colour),
            h("span", { class: "dw-who" }, fig(d.colour)),
            chestView(d.chest),
            h("span", { class: "dw-score", title: t("dwarves.score_hint") }, t("dwarves.score", { best: d.score[0], total: d.score[1], count: d.score[1] })),
          ),
        ),
        h(
          "li",
          { class: "dw-chest-row dragon" },
          dragonToken(),
          h("span", { class: "dw-who" }, t("dwarves.hoard")),
          chestView(p.dragon.hoard),
          h("span", { class: "dw-score" }, t("dwarves.score", { best: p.dragon.score[0], total: p.dragon.score[1], count: p.dragon.score[1] })),
        ),
      ),
    );
  }

  function build() {
    return h("div", { class: "dw-board" }, h("div", { class: "dw-main" }, ring()), h("div", { class: "dw-side" }, chests()));
  }

  function render(next) {
    const version = msg ? msg.version : null;
    msg = next;
    kit.show(next);
    if (version !== msg.version) {
      give = null;
      if (!meeting()) mode = null;
      if (cursor !== null && !destinations().includes(cursor)) cursor = null;
    }
    rerender(ctx.root, build);
    rerender(ctx.dock, () => h("div", { class: "dw-dock" }, moveChoices(), meetChoices()));
  }

  function prompt(m) {
    const v = m.view;
    if (v.over) return t("dwarves.prompt.over");
    const pending = v.position.pending;
    if (!m.legal.length) return t("dwarves.prompt.wait", { name: ctx.seatName(v.to_move), dwarf: pending ? fig(pending.dwarf) : "" });
    if (pending.choice === "meet") return t("dwarves.prompt.meet", { other: fig(pending.with) });
    return v.position.dice.doubles ? t("dwarves.prompt.doubles") : t("dwarves.prompt.move", { grey: colourName(v.position.dice.grey), white: colourName(v.position.dice.white) });
  }

  function moveCursor(step) {
    const lit = destinations().sort((a, b) => a - b);
    if (!lit.length) return;
    const n = pos().ring.length;
    let next = cursor === null ? (step > 0 ? -1 : n) : cursor;
    for (let i = 0; i < n; i += 1) {
      next = (next + step + n) % n;
      if (lit.includes(next)) break;
    }
    cursor = next;
    kit.redraw();
    kit.focus(`tile-${next}`);
  }

  function onKey(event) {
    const active = document.activeElement;
    const inBoard = kit.inBoard();
    const key = event.key.toLowerCase();
    if (meeting()) {
      const modes = { t: () => setMode("trade"), x: () => setMode("steal"), b: blind };
      if (modes[key]) {
        modes[key]();
        return true;
      }
      if (/^[1-6]$/.test(key)) {
        const p = pos();
        const side = mode === "trade" && !give ? "give" : "take";
        const owner = p.dwarves.find((d) => d.colour === (side === "give" ? p.pending.dwarf : p.pending.with));
        const kind = KINDS.filter((k) => owner.chest.includes(k))[Number(key) - 1];
        if (kind) pickStone(kind, side);
        return true;
      }
      if (key === "escape" && give) {
        give = null;
        kit.redraw();
        return true;
      }
      return false;
    }
    if (WAYS[key]) {
      way(WAYS[key]);
      return true;
    }
    if ((key === "arrowright" || key === "arrowleft") && inBoard) {
      moveCursor(key === "arrowright" ? 1 : -1);
      return true;
    }
    // on a focused tile Enter is its click; from nowhere it takes the cursor's tile
    if (key === "enter" && inBoard && cursor !== null && !(active instanceof HTMLButtonElement)) {
      go(cursor);
      return true;
    }
    return false;
  }

  return {
    render,
    prompt,
    onKey,
    ...kit.texts(text),
    // the end panel lists every chest: extra dwarves and the dragon's hoard too, not only the seats
    revealed: () => (msg && msg.view.over ? chests("end") : null),
    keys: () => [
      ["G", t("dwarves.keys.grey")],
      ["W", t("dwarves.keys.white")],
      ["N", t("dwarves.keys.step")],
      ["H", t("dwarves.keys.stay")],
      ["← →", t("dwarves.keys.arrows")],
      [t("keys.enter"), t("dwarves.keys.enter")],
      ["T / X / B", t("dwarves.keys.modes")],
      ["1–6", t("dwarves.keys.stones")],
      ["Esc", t("dwarves.keys.escape")],
    ],
  };
}
