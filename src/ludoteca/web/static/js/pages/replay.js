// Replay a finished match (/replay/{id}, or /replay with a record file opened on the verify page):
// the board first, opened at the deal; step through it with the buttons, ← → Home End, the
// slider or the win-chance chart, as one seat saw it or as a spectator, each step told in words
// (the log's own sentences) with the log in step; the signed record to download beside it.
// The server makes every view by replaying the stored steps (GET /api/tables/{id}/replay, or
// POST /api/replay for a file); the board only draws them: nothing is worked out here. A server
// table's replay also shows its analysis (pages/analysis.js), asked for again while it is made.

import { api } from "../api.js";
import { errorText } from "../announce.js";
import { debugRecord } from "../debug.js";
import { h, replace, rerender } from "../dom.js";
import { number, t } from "../i18n.js";
import { gameName, loadGames } from "../games.js";
import { loadBoard } from "../boards/index.js";
import { entryLines, logPanel } from "../table/log.js";
import { analysisPanel } from "./analysis.js";
import { seatName } from "../table/seats.js";
import { resignedLine } from "../table/end.js";
import { icon } from "../icons.js";
import { chatRecord } from "../table/chat.js";
import { seatAt } from "../store.js";

/** Where the verify page leaves a record file the person asked to replay (this tab only). */
export const RECORD_KEY = "ludoteca.replay-record";

function tableOf(data, id) {
  return {
    id: id || "",
    game: data.game,
    status: "over",
    fingerprint: data.fingerprint,
    commitment: data.commitment,
    seats: data.players.map((p, seat) => ({ seat, name: p.name, kind: p.bot ? "bot" : "human", bot: p.bot, level: p.level, away: false, connected: true })),
  };
}

export function mount(root, [tableId], query) {
  const state = { analysis: null, timer: null, gone: false, data: null, k: 0, seat: query.has("seat") ? Number(query.get("seat")) : null, error: null, recordText: null, board: null, boardFor: null, games: [], busy: false };
  const debug = debugRecord({ replay: state });

  const headEl = h("div", { class: "replay-head" });
  const barEl = h("div", { class: "replay-bar" });
  const nowEl = h("div", { class: "replay-now" });
  const boardEl = h("div", { class: "board-root replay-board" });
  const dockEl = h("div", { class: "board-controls replay-dock" });
  const logEl = h("div", { class: "replay-log" });
  const analysisEl = h("div", { class: "replay-analysis" });
  // the table's chat, for those who sat there (their seat's token opens it)
  const chatEl = h("div", { class: "replay-chat" });
  let chat = null;
  replace(root, h("section", { class: "page replay-page" }, headEl, h("div", { class: "replay-layout" }, h("div", { class: "replay-main" }, barEl, boardEl, dockEl), h("div", { class: "replay-side" }, nowEl, analysisEl, logEl, chatEl))));

  function msgAt(k) {
    const data = state.data;
    const frame = data.steps[k];
    return { type: "state", version: frame.version, seat: data.seat, view: frame.view, legal: [], clock: null, table: tableOf(data, tableId), log_from: 0, log: [] };
  }

  async function ensureBoard() {
    const game = state.data.game;
    if (state.boardFor === game) return;
    state.boardFor = game;
    const module = await loadBoard(game);
    state.board = module.createBoard({
      act: () => false,
      seat: () => state.data.seat,
      seatName: (seat) => seatName(tableOf(state.data, tableId), seat),
      announce: () => {},
      toast: () => {},
      redraw: () => drawBoard(),
      lastEntry: () => (state.data ? state.data.steps[state.k].entry : null),
      root: boardEl,
      dock: dockEl,
    });
  }

  function drawBoard() {
    if (!state.data || !state.board) {
      replace(boardEl);
      replace(dockEl);
      return;
    }
    state.board.render(msgAt(state.k));
  }

  function drawHead() {
    const data = state.data;
    const game = data ? state.games.find((g) => g.id === data.game) : null;
    const name = data ? gameName(game, data.game) : "";
    document.title = `${t("replay.title")}${name ? ` · ${name}` : ""} · ludoteca`;
    const table = data ? tableOf(data, tableId) : null;
    rerender(headEl, () => [
      h("h1", {}, t("replay.title"), name ? ` · ${name}` : ""),
      data &&
        h(
          "div",
          { class: "replay-tools" },
          h(
            "label",
            { class: "replay-seat" },
            t("replay.seen_by"),
            " ",
            h(
              "select",
              { id: "replay-seat", onChange: (e) => load(e.target.value === "" ? null : Number(e.target.value)) },
              h("option", { value: "", selected: data.seat === null }, t("replay.everyone")),
              data.players.map((_, seat) => h("option", { value: String(seat), selected: data.seat === seat }, seatName(table, seat))),
            ),
          ),
          tableId
            ? h("a", { class: "button", href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: `ludoteca-${tableId}.json`, dataset: { key: "download-record" } }, icon("download"), t("replay.download"))
            : h("span", { class: "hint replay-from-file" }, t("replay.from_file")),
        ),
      state.error && h("p", { class: "error", role: "alert" }, state.error),
      !data && !state.error && !state.busy && h("p", {}, t("replay.none"), " ", h("a", { href: "/verify", "data-link": "" }, t("replay.to_verify"))),
      state.busy && h("p", { class: "loading", role: "status" }, t("app.loading")),
    ]);
  }

  function drawBar() {
    const data = state.data;
    if (!data) {
      replace(barEl);
      replace(nowEl);
      return;
    }
    const last = data.steps.length - 1;
    const where = t("replay.step", { k: number(state.k), n: number(last) });
    rerender(barEl, () => [
      h(
        "div",
        { class: "replay-steps", role: "group", "aria-label": t("replay.slider") },
        h("button", { type: "button", class: "replay-first", dataset: { key: "first" }, disabled: state.k === 0, onClick: () => go(0), title: "Home" }, t("replay.first")),
        h("button", { type: "button", class: "replay-back", dataset: { key: "back" }, disabled: state.k === 0, onClick: () => go(state.k - 1), title: "←" }, "← ", t("replay.back")),
        h("button", { type: "button", class: "primary replay-forward", dataset: { key: "forward" }, disabled: state.k === last, onClick: () => go(state.k + 1), title: "→" }, t("replay.forward"), " →"),
        h("button", { type: "button", class: "replay-last", dataset: { key: "last" }, disabled: state.k === last, onClick: () => go(last), title: "End" }, t("replay.last")),
      ),
      h("input", { type: "range", class: "replay-slider", id: "replay-slider", dataset: { key: "slider" }, min: "0", max: String(last), value: String(state.k), "aria-label": t("replay.slider"), "aria-valuetext": where, onInput: (e) => go(Number(e.target.value)) }),
      h("p", { class: "replay-where", "data-step": String(state.k) }, where),
    ]);
  }

  /** The step in words: who did what (the log's sentences), under where it is in the match. */
  function drawNow() {
    const data = state.data;
    if (!data || !state.board) return replace(nowEl);
    const entry = data.steps[state.k].entry;
    const lines = entryLines(entry, state.board);
    if (state.k === 0) lines.unshift(t("log.start"));
    const table = tableOf(data, tableId);
    // the last step of a match that ended other than by the rules (docs/protocol.md#aborting)
    const ended = data.steps[state.k].view && data.steps[state.k].view.ended;
    if (ended && ended.by === "resign") lines.push(resignedLine(ended, table, null));
    else if (ended) lines.push(ended.by === "abort" ? t("end.aborted", { name: seatName(table, ended.seat) }) : t("end.operator"));
    rerender(nowEl, () =>
      h(
        "section",
        { class: "panel replay-told", "aria-labelledby": "replay-told-title", "aria-live": "polite", dataset: { step: String(state.k) } },
        h("h2", { id: "replay-told-title" }, t("replay.step", { k: number(state.k), n: number(data.steps.length - 1) }), entry.seat !== null && entry.seat !== undefined ? ` · ${seatName(table, entry.seat)}` : ""),
        lines.length ? h("ul", { class: "replay-lines" }, lines.map((text) => h("li", {}, text))) : h("p", { class: "hint" }, t("replay.nothing_seen")),
        h("p", { class: "hint replay-keys" }, t("replay.keys")),
      ),
    );
  }

  function drawLog() {
    const data = state.data;
    const table = data ? tableOf(data, tableId) : null;
    rerender(logEl, () => (data && state.board ? logPanel(data.steps.slice(0, state.k + 1).map((frame) => frame.entry), state.board, data.steps[state.k].view, (seat) => seatName(table, seat)) : null));
  }

  function drawAnalysis() {
    const table = state.data ? tableOf(state.data, tableId) : null;
    // an action in words: the first sentence of what it did (the rest are its consequences:
    // the dice that followed, the next seat's turn), as the log tells it
    const first = (lines) => (lines && lines.length ? lines.slice(0, 1) : null);
    const words = {
      taken: (d) => (state.board && state.data.steps[d.version] ? first(entryLines(state.data.steps[d.version].entry, state.board)) : null),
      best: (d) => (state.board && d.best && d.best.events ? first(entryLines({ v: d.version, seat: d.seat, by: "player", action: d.best.action, events: d.best.events }, state.board)) : null),
    };
    rerender(analysisEl, () => (table ? analysisPanel(state.analysis, state.k, (seat) => seatName(table, seat), go, words) : null));
  }

  // 202 while a worker searches the match: ask again a little later, for as long as the page is open
  async function loadAnalysis() {
    clearTimeout(state.timer);
    if (state.gone) return;
    if (!tableId) {
      state.analysis = { error: t("analysis.file") };
      drawAnalysis();
      return;
    }
    try {
      const answer = await api.analysis(tableId);
      const pending = answer.status === "queued" || answer.status === "running";
      state.analysis = pending ? { pending: true } : answer;
      if (pending && !state.gone) state.timer = setTimeout(loadAnalysis, 2000);
    } catch (error) {
      state.analysis = { error: errorText(error) };
    }
    drawAnalysis();
  }

  function drawChat() {
    rerender(chatEl, () => (chat ? chatRecord(chat.messages, state.data ? state.data.seat : null) : null));
  }

  function draw() {
    drawChat();
    drawHead();
    drawBoard();
    drawBar();
    drawNow();
    drawAnalysis();
    drawLog();
  }

  function go(k) {
    if (!state.data) return;
    state.k = Math.max(0, Math.min(state.data.steps.length - 1, k));
    drawBar();
    drawBoard();
    drawNow();
    drawAnalysis();
    drawLog();
  }

  async function load(seat) {
    state.busy = true;
    state.error = null;
    drawHead();
    try {
      const data = tableId ? await api.replay(tableId, seat) : await api.replayRecord(state.recordText, seat);
      const keep = state.data ? state.k : 0; // a replay opens at the deal
      state.data = data;
      state.seat = data.seat;
      state.k = Math.min(keep, data.steps.length - 1);
      await ensureBoard();
    } catch (error) {
      state.error = errorText(error);
    }
    state.busy = false;
    draw();
  }

  // a record file the verify page checked and handed over (sessionStorage, this tab only)
  function fromVerify() {
    let text = null;
    try {
      text = sessionStorage.getItem(RECORD_KEY);
    } catch {
      text = null;
    }
    if (!text) return false;
    state.recordText = text;
    load(null).then(loadAnalysis);
    return true;
  }

  loadGames().then(
    (games) => {
      state.games = games;
      drawHead();
    },
    () => {},
  );
  if (tableId) load(state.seat).then(() => state.data && loadAnalysis());
  else if (!fromVerify()) drawHead();
  const mine = tableId && seatAt(tableId);
  if (mine && mine.token)
    api.chat(tableId, mine.token).then(
      (found) => {
        chat = found;
        drawChat();
      },
      () => {},
    );
  debug.go = go;

  return {
    refresh: draw,
    destroy() {
      state.gone = true;
      clearTimeout(state.timer);
    },
    onKey(event) {
      if (!state.data) return false;
      if (event.target instanceof HTMLInputElement && event.target.type === "range") return false;
      if (event.key === "ArrowRight") {
        go(state.k + 1);
        return true;
      }
      if (event.key === "ArrowLeft") {
        go(state.k - 1);
        return true;
      }
      if (event.key === "Home") {
        go(0);
        return true;
      }
      if (event.key === "End") {
        go(state.data.steps.length - 1);
        return true;
      }
      return false;
    },
  };
}
