// The Heroes & Relics board, as its rules page describes the table: tap a hand hero to lift it,
// only the rooms it may go to light up, tap a lit room to place, tap the hero again to put it
// back; Draw; a Fighter's or Ranger's choice by tapping a lit hero or room, or "Skip trick";
// with no hero lifted, tapping a room shows its stack and its wards.
// A room is lit exactly when a legal action places the lifted role there (or strikes it): the board
// reads the server's legal actions as data ({text, kind, args}) and sends the text of the one picked.

import { boardKit } from "/static/js/boards/kit.js";
import { h, rerender } from "/static/js/dom.js";
import { t } from "/static/js/i18n.js";
import { icon } from "/static/js/icons.js";
import { groupMark, heroToken } from "./heroes-art.js";
import { controlsPanel, handPanel, infoBox, stripPanel } from "./heroes-panels.js";
import * as text from "./heroes-text.js";

const { group, heroName, revealed, roleName } = text;

const COLUMNS = ["a", "b", "c"];
const ROWS = [1, 2, 3, 4, 5];
const WARD_NAMES = ["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4"];

export function createBoard(ctx) {
  const kit = boardKit(ctx);
  let msg = null;
  let lifted = null; // {index, role}
  let info = null; // room name shown in the info panel
  let cursor = null; // data-key of the keyboard cursor

  const me = () => ctx.seat();
  const view = () => msg.view;
  const pos = () => msg.view.position;
  // drawn like the rules' diagram for both seats: north camp (Gold) on top, column a on the left
  const topCamp = () => "north";
  const bottomCamp = () => "south";

  function visualRows() {
    return ROWS.map((r) => COLUMNS.map((c) => `${c}${r}`));
  }

  function order() {
    return ["camp-top", ...visualRows().flat().map((room) => `room-${room}`), "camp-bottom"];
  }

  function striking() {
    return kit.actions("strike").length > 0;
  }

  /** The targets lit now: strike targets, or where the lifted hero may go ("camp" included). */
  function lit() {
    if (striking()) return new Set(kit.actions("strike").map((a) => a.args.room));
    if (!lifted) return new Set();
    return new Set(kit.actions("place").filter((a) => a.args.role === lifted.role).map((a) => a.args.room));
  }

  function placeable(role) {
    return kit.actions("place").some((a) => a.args.role === role);
  }

  function campOwner(side) {
    return pos().seats.findIndex((seat) => seat.camp === side);
  }

  function rivalCampSide() {
    const seat = me();
    if (seat === null || !pos().seats[seat]) return null;
    return pos().seats[1 - seat].camp;
  }

  // ------------------------------------------------------------------------------ acting
  function tapRoom(room) {
    cursor = `room-${room}`;
    const targets = lit();
    if (striking() && targets.has(room)) {
      kit.play("strike", { room });
      return;
    }
    if (lifted && targets.has(room)) {
      if (kit.play("place", { role: lifted.role, room })) {
        lifted = null;
        info = null;
      }
      kit.redraw();
      return;
    }
    info = info === room ? null : room;
    kit.redraw();
    if (info) ctx.announce(roomSummary(info));
  }

  function tapCamp(side) {
    cursor = side === topCamp() ? "camp-top" : "camp-bottom";
    if (lifted && side === rivalCampSide() && lit().has("camp")) {
      if (kit.play("place", { role: lifted.role, room: "camp" })) lifted = null;
      kit.redraw();
    }
  }

  function lift(index) {
    const hand = pos().hand || [];
    const role = hand[index];
    if (!role) return;
    if (lifted && lifted.index === index) {
      lifted = null;
      ctx.announce(t("heroes.put_back", { role: roleName(role) }));
    } else if (!placeable(role) || striking()) {
      if (msg.legal.length) ctx.toast(t("heroes.nowhere", { role: roleName(role) }));
      return;
    } else {
      lifted = { index, role };
      info = null;
      const targets = [...lit()];
      const firstKey = order().find((key) => targets.includes(key.replace(/^room-/, "")) || (key.startsWith("camp") && targets.includes("camp") && sideOf(key) === rivalCampSide()));
      if (firstKey && !isLitKey(cursor)) cursor = firstKey;
      ctx.announce(t("heroes.lifted", { role: roleName(role), count: targets.length }));
    }
    kit.redraw();
  }

  function sideOf(key) {
    return key === "camp-top" ? topCamp() : bottomCamp();
  }

  function isLitKey(key) {
    if (!key) return false;
    const targets = lit();
    if (key.startsWith("room-")) return targets.has(key.slice(5));
    return targets.has("camp") && sideOf(key) === rivalCampSide();
  }

  function draw() {
    if (kit.can("draw")) {
      lifted = null;
      kit.play("draw");
    }
  }

  function skip() {
    if (kit.can("skip")) {
      lifted = null;
      kit.play("skip");
    }
  }

  function activate(key) {
    if (!key) return;
    if (key.startsWith("room-")) tapRoom(key.slice(5));
    else tapCamp(sideOf(key));
  }

  function move(direction) {
    const keys = order();
    const grid = visualRows();
    let next = cursor;
    if (!next || !keys.includes(next)) next = "room-b3";
    else if (direction === "left" || direction === "right") {
      const i = keys.indexOf(next) + (direction === "right" ? 1 : -1);
      next = keys[(i + keys.length) % keys.length];
    } else {
      const up = direction === "up";
      if (next === "camp-top") next = up ? "camp-bottom" : `room-${grid[0][1]}`;
      else if (next === "camp-bottom") next = up ? `room-${grid[4][1]}` : "camp-top";
      else {
        const room = next.slice(5);
        const r = grid.findIndex((row) => row.includes(room));
        const c = grid[r].indexOf(room);
        const nr = r + (up ? -1 : 1);
        next = nr < 0 ? "camp-top" : nr > 4 ? "camp-bottom" : `room-${grid[nr][c]}`;
      }
    }
    cursor = next;
    kit.focus(next);
  }

  // ----------------------------------------------------------------------------- drawing
  function roomOf(name) {
    return pos().rooms.find((room) => room.room === name);
  }

  function roomSummary(name) {
    const room = roomOf(name);
    const top = room.stack[room.stack.length - 1];
    const parts = [t("heroes.room", { room: name })];
    parts.push(top ? heroName(top) : t("heroes.empty"));
    if (room.stack.length > 1) parts.push(t("heroes.stack_count", { count: room.stack.length }));
    if (room.sanctuary) parts.push(t("heroes.sanctuary"));
    return parts.join(", ");
  }

  /** The rooms the last accepted action touched: marked until the next one. */
  function lastRooms() {
    const entry = ctx.lastEntry ? ctx.lastEntry() : null;
    return new Set(((entry && entry.events) || []).filter((e) => e.room && e.room !== "camp").map((e) => e.room));
  }

  function roomButton(name, targets) {
    const room = roomOf(name);
    const top = room.stack[room.stack.length - 1];
    const isLit = targets.has(name);
    const pending = view().position.pending;
    const last = lastRooms().has(name);
    const label = [roomSummary(name), last && t("heroes.last_move"), isLit && (striking() ? t("heroes.can_strike") : t("heroes.can_place"))].filter(Boolean).join(", ");
    return h(
      "button",
      {
        type: "button",
        class: ["hr-room", isLit && "lit", last && "last-move", room.sanctuary && "sanctuary", info === name && "shown", pending && pending.room === name && "pending", top && `top-${top.owner}`],
        dataset: { key: `room-${name}`, room: name, action: isLit ? (striking() ? `strike ${name}` : `place ${lifted.role} ${name}`) : undefined },
        "aria-pressed": info === name ? "true" : "false",
        tabindex: cursor === `room-${name}` || (!cursor && name === "b3") ? "0" : "-1",
        onClick: () => tapRoom(name),
      },
      h("span", { class: "sr-only" }, label),
      h("span", { class: "hr-room-name", "aria-hidden": "true" }, name),
      room.sanctuary && icon("sanctuary", "hr-sanctuary"),
      top && heroToken(top.owner, top.role),
      top && h("span", { class: "hr-role", "aria-hidden": "true" }, roleName(top.role)),
      room.stack.length > 1 && h("span", { class: "hr-depth", "aria-hidden": "true" }, `×${room.stack.length}`),
      isLit && icon(striking() ? "strike" : "target", "hr-lit-mark"),
    );
  }

  function wardMarker(ward) {
    const c = COLUMNS.indexOf(ward.ward[0]);
    const r = Number(ward.ward.slice(1));
    const x = (c + 1) / 3;
    const y = r / 5;
    const sealed = ward.sealed_by;
    const label = sealed === null ? t("heroes.ward_open", { ward: ward.ward, count: ward.relics }) : t("heroes.ward_sealed", { ward: ward.ward, count: ward.relics, group: group(sealed) });
    return h(
      "span",
      {
        class: ["hr-ward", sealed !== null && `sealed sealed-${sealed}`],
        style: { left: `${x * 100}%`, top: `${y * 100}%` },
        role: "img",
        "aria-label": label,
        title: label,
        dataset: { ward: ward.ward },
      },
      sealed !== null ? groupMark(sealed) : null,
      h("span", { class: "hr-relics" }, String(ward.relics)),
    );
  }

  function camp(side, key, targets) {
    const owner = campOwner(side);
    const isLit = targets.has("camp") && side === rivalCampSide();
    const campHero = pos().camp_hero;
    const label = t("heroes.camp", { group: group(owner), camp: t(`heroes.camp_side.${side}`) });
    const entered = campHero && campHero.owner !== owner;
    return h(
      "button",
      {
        type: "button",
        class: ["hr-camp", `camp-${owner}`, isLit && "lit", side === rivalCampSide() && "rival"],
        dataset: { key, camp: side, action: isLit ? `place ${lifted.role} camp` : undefined },
        tabindex: cursor === key ? "0" : "-1",
        onClick: () => tapCamp(side),
      },
      groupMark(owner),
      h("span", {}, label),
      h("span", { class: "sr-only" }, [entered && `, ${heroName(campHero)}`, isLit && `, ${t("heroes.can_enter")}`].filter(Boolean).join("")),
      entered && heroToken(campHero.owner, campHero.role, "small"),
      isLit && icon("target", "hr-lit-mark"),
    );
  }

  // the panels around the keep, drawn by heroes-panels.js from this board's state
  const panelState = () => ({ position: pos(), me: me(), lifted, info, can: kit.can, text: kit.text, striking: striking(), seatName: ctx.seatName });
  const actions = {
    lift,
    draw,
    skip,
    placeable,
    putBack: () => {
      lifted = null;
      kit.redraw();
    },
    closeInfo: () => {
      info = null;
      kit.redraw();
    },
  };
  const strip = (seat) => stripPanel(panelState(), seat);
  const hand = () => handPanel(panelState(), actions);
  const controls = () => controlsPanel(panelState(), actions);
  const infoPanel = () => (info ? infoBox(panelState(), roomOf(info), actions) : null);

  function build() {
    const targets = lit();
    const rows = visualRows();
    const wards = pos().wards;
    return h(
      "div",
      { class: ["hr-board", lifted && "lifting", striking() && "striking"] },
      h(
        "div",
        { class: "hr-field" },
        camp(topCamp(), "camp-top", targets),
        h(
          "div",
          { class: "hr-keep" },
          // on the player's turn the rooms are what the decision is about (the page keeps them clear of the dock)
          h("div", { class: "hr-grid", role: "group", "aria-label": t("heroes.keep"), dataset: { refers: msg.legal.length ? "" : undefined } }, rows.flat().map((room) => roomButton(room, targets))),
          h("div", { class: "hr-wards" }, WARD_NAMES.map((name) => wardMarker(wards.find((w) => w.ward === name)))),
        ),
        camp(bottomCamp(), "camp-bottom", targets),
      ),
      h("div", { class: "hr-panel" }, strip(campOwner(topCamp())), strip(campOwner(bottomCamp())), infoPanel()),
    );
  }

  /** What the player's thumb needs during a turn: the hand and the buttons (the shell's dock). */
  function buildDock() {
    return h("div", { class: "hr-dock" }, hand(), me() !== null && !view().over && controls());
  }

  function render(next) {
    msg = next;
    kit.show(next);
    const hand = pos().hand || [];
    if (lifted && (hand[lifted.index] !== lifted.role || !placeable(lifted.role) || striking())) lifted = null;
    if (info && !roomOf(info)) info = null;
    rerender(ctx.root, build);
    rerender(ctx.dock, buildDock);
  }

  function prompt(m) {
    const v = m.view;
    if (v.over) return t("heroes.prompt.over");
    if (!m.legal.length) return t("heroes.prompt.wait", { name: ctx.seatName(v.to_move), group: group(v.to_move) });
    const pending = v.position.pending;
    if (pending && pending.kind === "strike") return t("heroes.prompt.strike", { room: pending.room });
    if (pending && pending.kind === "ranger") return lifted ? t("heroes.prompt.lifted", { role: roleName(lifted.role) }) : t("heroes.prompt.ranger", { room: pending.room });
    if (lifted) return t("heroes.prompt.lifted", { role: roleName(lifted.role) });
    return t("heroes.prompt.turn");
  }

  function onKey(event) {
    const active = document.activeElement;
    const inBoard = kit.inBoard();
    const onTarget = active && active.dataset && /^(room-|camp-)/.test(active.dataset.key || "");
    const key = event.key;
    if (/^[1-8]$/.test(key)) {
      lift(Number(key) - 1);
      return true;
    }
    if (key === "Escape") {
      if (!lifted && !info) return false;
      lifted = null;
      info = null;
      kit.redraw();
      return true;
    }
    if (key === "r" || key === "R") {
      draw();
      return true;
    }
    if (kit.isSpace(event)) {
      draw();
      return true;
    }
    if (key === "s" || key === "S") {
      skip();
      return true;
    }
    const arrows = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };
    if (arrows[key] && inBoard) {
      if (!onTarget && cursor && kit.focus(cursor)) return true;
      move(arrows[key]);
      return true;
    }
    if (key === "Enter" && (onTarget || (inBoard && !(active instanceof HTMLButtonElement)))) {
      activate(onTarget ? active.dataset.key : cursor);
      return true;
    }
    return false;
  }

  return {
    render,
    prompt,
    onKey,
    ...kit.texts(text),
    revealed,
    keys: () => [
      ["1–8", t("heroes.keys.pick")],
      ["← ↑ → ↓", t("heroes.keys.arrows")],
      [t("keys.enter"), t("heroes.keys.enter")],
      [`${t("keys.space")} / R`, t("heroes.keys.draw")],
      ["S", t("heroes.keys.skip")],
      ["Esc", t("heroes.keys.escape")],
    ],
  };
}
