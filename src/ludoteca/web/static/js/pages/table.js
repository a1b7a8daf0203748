// The table (/table/{id}): the shared shell around a game's board. It keeps the websocket (with
// the seat token from localStorage), the last state, the log, the clock, sounds and the live
// region; the board draws the view and picks among the legal actions the server offered.
// Layout: the board, and the dock (whose turn, the prompt, the clock, then the board's own
// controls); on a phone the dock is fixed at the bottom of the screen, in the thumb zone.

import { api } from "../api.js";
import { announce, toast, toastError } from "../announce.js";
import { debugRecord } from "../debug.js";
import { h, replace, rerender } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { gameName, loadGames, tableOptions } from "../games.js";
import { play } from "../sound.js";
import { TableSocket } from "../socket.js";
import { dropSeat, keepName, keepSeat, playerName, seatAt } from "../store.js";
import { loadBoard } from "../boards/index.js";
import { entryLines, logPanel } from "../table/log.js";
import { clockText, resignPanel, seatName, seatsPanel } from "../table/seats.js";
import { paceLabel, turnDeadline } from "../pace.js";
import { markTurn } from "../table/turn-mark.js";
import { waitingRoom } from "../table/waiting.js";
import { createDeal } from "../table/deal.js";
import { createRematch } from "../table/rematch.js";
import { createChat } from "../table/chat.js";
import { me } from "../account.js";
import { keepReceipt } from "../receipts.js";
import { navigate } from "../nav.js";

const LOW_SECONDS = 10;
// what refuses the commitment a hello carries (table/early.js, socket.js) at a table dealt or
// closed to commitments, or for a token that holds no seat any more (bad_token says that already)
const HELLO_LATE = new Set(["already_dealt", "commitments_closed", "spectator"]);

export function mount(root, [tableId]) {
  const shell = {
    msg: null,
    log: [],
    seat: null,
    status: "connecting",
    board: null,
    boardFor: null,
    games: [],
    missing: false,
    sending: false,
    deadline: null,
    lastBeep: null,
    invite: null, // the invite link the server gives (its network address, when it has one)
    rating: null, // at the end: GET /api/tables/{id}/rating (rated? each person's change)
  };
  const debug = debugRecord({ state: null, states: {}, log: [], seat: null, sent: [], errors: [], status: "connecting" });

  const headEl = h("div", { class: "table-head" });
  const bannerEl = h("div", { class: "banners" });
  const waitingEl = h("div");
  const promptEl = h("p", { class: "prompt", "aria-live": "off" });
  const clockEl = h("div", { class: "turn-clock", hidden: true });
  const turnEl = h("div", { class: "turn-bar" }, promptEl, clockEl);
  const controlsEl = h("div", { class: "board-controls" });
  const dockEl = h("div", { class: "table-dock" }, turnEl, controlsEl);
  const boardEl = h("div", { class: "board-root" });
  const endEl = h("div");
  const seatsEl = h("div");
  const logEl = h("div");
  const keysEl = h("div");
  const notifyEl = h("div", { class: "panel notify-panel" });
  notifyEl.hidden = true;
  // the chat (table/chat.js): the person's rooms, the quick phrases, free text where allowed
  let signedIn = false;
  const chat = createChat({ send: (m) => socket.send(m), seat: () => shell.seat, signedIn: () => signedIn, redraw: () => {}, table: () => tableId });
  me().then((found) => {
    signedIn = Boolean(found);
    chat.draw();
  });
  // the chat sits in the side column during the match, and under the waiting room before it
  const chatSideEl = h("div", {}, chat.element);
  const chatWaitingEl = h("div");
  const sideEl = h("aside", { class: "table-side", "aria-label": t("table.side") }, seatsEl, notifyEl, chatSideEl, logEl, keysEl);
  const mainEl = h("div", { class: "table-main" }, waitingEl, chatWaitingEl, endEl, boardEl, dockEl);
  const layoutEl = h("div", { class: "table-layout" }, mainEl, sideEl);
  // the end panel: beside the final position on a wide screen (atop the side column, the board
  // keeping its width), above it on a narrow one
  const wide = matchMedia("(min-width: 981px)");
  // the same for the board's controls: atop the side column on a wide screen, where they cover
  // no part of the board (a strip stuck at the bottom of the view hid its lower rows), in the
  // dock at the bottom on a phone (the page keeps the dock's height free below the board)
  function placeEnd() {
    if (wide.matches && endEl.parentNode !== sideEl) sideEl.prepend(endEl);
    else if (!wide.matches && endEl.parentNode !== mainEl) mainEl.insertBefore(endEl, boardEl);
    if (wide.matches && controlsEl.parentNode !== sideEl) endEl.after(controlsEl);
    else if (!wide.matches && controlsEl.parentNode !== dockEl) dockEl.append(controlsEl);
  }
  placeEnd();
  wide.addEventListener("change", placeEnd);
  replace(root, h("section", { class: "table-page" }, headEl, bannerEl, layoutEl));
  document.body.classList.add("at-table");
  // the page keeps room below for the dock when the dock is fixed at the bottom (phones)
  // (--controls-h: the board's controls alone, which a wide screen keeps at the bottom of the view)
  const docked = new ResizeObserver(() => {
    root.style.setProperty("--dock-h", `${dockEl.offsetHeight}px`);
    root.style.setProperty("--controls-h", `${controlsEl.offsetHeight}px`);
  });
  docked.observe(dockEl);
  docked.observe(controlsEl);

  const token = () => (seatAt(tableId) || {}).token || null;
  // the rematch at the end: the offer heard, its clock, the requests and keys (table/rematch.js)
  const rematch = createRematch({ tableId, token, seat: () => shell.seat, table: () => shell.msg && shell.msg.table, endEl, redraw: () => drawWaiting() });

  function mine() {
    return shell.seat;
  }

  function act(text) {
    const msg = shell.msg;
    if (!msg || shell.sending || !msg.legal.includes(text)) return false;
    if (!socket.send({ type: "act", action: text, version: msg.version })) {
      toast(t("table.offline"));
      return false;
    }
    shell.sending = true;
    debug.sent.push(text);
    const board = shell.board;
    if (board) announce(t("table.you_played", { action: board.describeAction ? board.describeAction(text) : text }));
    return true;
  }

  const ctx = {
    act,
    seat: mine,
    seatName: (seat) => seatName(shell.msg && shell.msg.table, seat),
    announce,
    redraw: () => drawBoard(),
    lastEntry: () => shell.log[shell.log.length - 1] || null,
    toast,
  };

  // ------------------------------------------------------------------------------- drawing
  function game() {
    const id = shell.msg ? shell.msg.table.game : null;
    return shell.games.find((g) => g.id === id) || null;
  }

  function drawHead() {
    const msg = shell.msg;
    const table = msg && msg.table;
    const name = table ? gameName(game(), table.game) : t("app.loading");
    // at the table the tab says when it is my turn (its title, and a dot on its icon)
    const myTurn = Boolean(msg && msg.view && !msg.view.over && msg.legal.length > 0);
    markTurn(myTurn);
    document.title = myTurn ? `${t("mine.your_turn")} · ${name} · ludoteca` : `${name} · ludoteca`;
    rerender(headEl, () => [
      h("h1", {}, name),
      table &&
        h(
          "p",
          { class: "table-meta" },
          h("span", { class: `status-chip status-${table.status}` }, t(`table.status.${table.status}`)),
          h(
            "details",
            { class: "fingerprint", dataset: { key: "fingerprint" } },
            h("summary", {}, icon("key"), h("span", { class: "fingerprint-label" }, t("table.fingerprint")), " ", h("code", { "data-fingerprint": "" }, table.fingerprint)),
            h("p", {}, t("table.fingerprint_hint")),
            h("p", {}, t("table.commitment"), " ", h("code", { class: "commitment", "data-commitment": "" }, table.commitment)),
          ),
          h("span", { class: "pace-chip", "data-pace": table.pace || "real-time" }, paceLabel(table)),
          h("span", { class: "table-id" }, t("table.id", { id: table.id })),
          h("a", { class: "rules-link", href: `/games/${table.game}`, target: "_blank", rel: "noopener" }, t("table.rules")),
        ),
      table && optionsLine(table),
    ]);
  }

  /** The table's options (the game's, beside players) in words; nothing for a game without. */
  function optionsLine(table) {
    const chosen = tableOptions(game(), table.params);
    if (!chosen.length) return null;
    return h(
      "div",
      { class: "table-options", dataset: { key: "table-options" } },
      h("span", { class: "table-options-title", id: "table-options-title" }, t("table.options")),
      h(
        "ul",
        { "aria-labelledby": "table-options-title" },
        chosen.map((option) => h("li", { dataset: { option: option.name } }, h("span", {}, option.label), ": ", h("strong", {}, option.value))),
      ),
    );
  }

  function drawBanners() {
    const msg = shell.msg;
    const row = msg && shell.seat !== null ? msg.table.seats[shell.seat] : null;
    rerender(bannerEl, () => [
      shell.missing && h("p", { class: "banner error", role: "alert" }, t("errors.no_table")),
      shell.status === "reconnecting" && h("p", { class: "banner warn", role: "status" }, t("table.reconnecting")),
      row &&
        row.away &&
        msg.table.status === "playing" &&
        h(
          "p",
          { class: "banner warn" },
          t("table.away"),
          " ",
          h("button", { type: "button", class: "primary", dataset: { key: "back" }, onClick: () => socket.send({ type: "back" }) }, t("table.back")),
        ),
      msg && shell.seat === null && msg.table.status !== "open" && h("p", { class: "banner" }, t("table.watching")),
    ]);
  }

  function drawBoard() {
    const msg = shell.msg;
    if (!msg || !msg.view || !shell.board) {
      replace(boardEl);
      replace(controlsEl);
      replace(promptEl);
      dockEl.hidden = true;
      controlsEl.hidden = true;
      return;
    }
    // once over, the end panel says it all: no hand and no buttons left in the dock
    dockEl.hidden = msg.view.over;
    controlsEl.hidden = msg.view.over;
    shell.board.render(msg);
    promptEl.textContent = shell.board.prompt(msg);
    drawClock();
  }

  /** The clock beside the prompt: whose turn, a bar that empties, the seconds left. */
  function drawClock() {
    const msg = shell.msg;
    const clock = msg && msg.view && !msg.view.over ? msg.clock : null;
    clockEl.hidden = !clock;
    if (!clock) return;
    const who = clock.seat === shell.seat ? t("seat.you") : seatName(msg.table, clock.seat);
    if (clock.pace === "turn-based") {
      // days to move: the date and time it is due by, in the reader's time zone, not a countdown
      rerender(clockEl, () => [
        h("span", { class: "turn-who" }, who),
        h("span", { class: "deadline", "data-deadline": String(clock.deadline) }, turnDeadline(clock, shell.seat)),
      ]);
      return;
    }
    rerender(clockEl, () => [
      h("span", { class: "turn-who" }, who),
      h("span", { class: "clock-meter", "aria-hidden": "true" }, h("span", { class: "clock-fill" })),
      h("span", { class: "clock", "data-turn-clock": "", role: "timer", "aria-label": t("seat.clock") }, clockText(clock.remaining)),
    ]);
  }

  /** "Tell me when it is my turn", for a seat this browser holds at a table still being played. */
  function drawNotify(msg) {
    // only where turns last hours or days: at a real-time table the person is there
    const wanted = shell.seat !== null && Boolean(token()) && msg.table.status !== "over" && msg.table.pace === "turn-based";
    if (wanted && notifyEl.hidden) {
      const seat = { table: tableId, token: token() };
      import("../notify-ui.js").then((ui) => replace(notifyEl, ui.pushControl(seat)), () => {});
    }
    notifyEl.hidden = !wanted;
  }

  function drawSide() {
    const msg = shell.msg;
    if (!msg) return;
    // before the start the waiting room shows the seats, and there is no log yet
    layoutEl.classList.toggle("no-side", !msg.view);
    sideEl.setAttribute("aria-label", t("table.side"));
    const chatHome = msg.view ? chatSideEl : chatWaitingEl;
    if (chat.element.parentNode !== chatHome) chatHome.append(chat.element);
    chat.draw();
    rerender(seatsEl, () => (msg.view ? [seatsPanel(msg, shell.seat, shell.board), resignPanel(msg, shell.seat, (m) => socket.send(m))] : null));
    drawNotify(msg);
    rerender(logEl, () => (shell.board && msg.view ? logPanel(shell.log, shell.board, msg.view, ctx.seatName) : null));
    rerender(keysEl, () =>
      shell.board && msg.view
        ? h(
            "details",
            { class: "panel keys-panel", dataset: { key: "keys" } },
            h("summary", {}, icon("keyboard"), t("keys.title")),
            h(
              "dl",
              { class: "keys" },
              [...shell.board.keys(), ["C", t("keys.chat")], ["M", t("keys.mute")]].map(([keys, what]) => [h("dt", {}, h("kbd", {}, keys)), h("dd", {}, what)]),
            ),
          )
        : null,
    );
  }

  function drawWaiting() {
    const msg = shell.msg;
    rerender(waitingEl, () => [
      msg && msg.table.status === "open"
        ? waitingRoom(msg.table, shell.seat, { join, start, leave, copied: (ok) => toast(ok ? t("waiting.copied") : t("waiting.copy_failed")) }, shell.invite, gameName(game(), msg.table.game))
        : null,
      msg && deal.panel(msg, shell.seat),
      msg && deal.alarm(msg, shell.seat),
    ]);
    const over = Boolean(msg && msg.view && msg.view.over);
    if (over) loadEnding();
    if (over) askRating();
    const offer = { offer: rematch.offer(), deadline: rematch.deadline() };
    const actions = { again, offer: rematch.want, decline: rematch.decline, toBoard: () => boardEl.scrollIntoView({ block: "start", behavior: "smooth" }) };
    rerender(endEl, () => (over && ending ? ending.endPanel(msg, shell.seat, shell.board, ending.proof, actions, shell.rating, offer) : null));
    // the match just ended here: the result takes the focus (and comes into view), wherever it was
    const result = shell.focusEnd && endEl.querySelector("#end-title");
    if (result) {
      shell.focusEnd = false;
      result.focus({ preventScroll: true });
      // the whole panel's top in view (never the page left past the heading)
      const top = endEl.getBoundingClientRect().top;
      if (top < 0 || top > innerHeight / 2) window.scrollBy({ top: top - 8 });
    }
  }

  // Whether the match that ended was rated, and each person's change once the rater got to it
  // (about a second after the end): asked once, then every second while it is still waiting.
  let ratingAsked = false;
  let ratingTimer = null;
  function askRating(tries = 0) {
    if (ratingAsked && tries === 0) return;
    ratingAsked = true;
    api.tableRating(tableId).then(
      (answer) => {
        shell.rating = answer;
        drawWaiting();
        if (answer.state === "waiting" && tries < 60) ratingTimer = setTimeout(() => askRating(tries + 1), 1000);
      },
      () => {
        if (tries < 60) ratingTimer = setTimeout(() => askRating(tries + 1), 2000);
      },
    );
  }

  // The end of a match (its panel and the proof) is loaded once the board is up, not before it:
  // a slow link does not wait for it before the first move.
  let ending = null;
  let endingAsked = false;
  function loadEnding() {
    if (endingAsked) return;
    endingAsked = true;
    Promise.all([import("../table/end.js"), import("../table/proof.js")]).then(
      ([end, proof]) => {
        ending = { endPanel: end.endPanel, proof: proof.createProof(tableId, () => drawWaiting()) };
        drawWaiting();
      },
      () => {
        endingAsked = false; // asked again with the next state
      },
    );
  }

  function draw() {
    drawHead();
    drawBanners();
    drawWaiting();
    drawBoard();
    drawSide();
  }

  // --------------------------------------------------------------------------- the clock
  function tick() {
    rematch.tick();
    const msg = shell.msg;
    if (!msg || !msg.clock || shell.deadline === null || msg.clock.pace === "turn-based") return;
    const left = (shell.deadline - performance.now()) / 1000;
    const low = left <= LOW_SECONDS;
    for (const el of [...seatsEl.querySelectorAll("[data-clock]"), ...clockEl.querySelectorAll("[data-turn-clock]")]) {
      el.textContent = clockText(left);
      el.classList.toggle("low", low);
    }
    const fill = clockEl.querySelector(".clock-fill");
    const total = msg.clock.turn_seconds || msg.table.turn_seconds || 60;
    if (fill) {
      fill.style.width = `${Math.max(0, Math.min(100, (100 * left) / total))}%`;
      fill.classList.toggle("low", low);
    }
    if (low && msg.clock.seat === shell.seat && left > 0) {
      const second = Math.ceil(left);
      if (second !== shell.lastBeep) {
        shell.lastBeep = second;
        play("low");
      }
    }
  }
  const ticker = setInterval(tick, 250);

  // ----------------------------------------------------------------------- the messages
  function mergeLog(msg) {
    // entry n of the log is the action that made version n; log_from is where msg.log starts
    shell.log = [...shell.log.slice(0, msg.log_from), ...msg.log];
    return msg.log_from === 0 ? [] : msg.log;
  }

  function tell(added, before, msg) {
    const board = shell.board;
    if (!board || !msg.view) return;
    const sentences = [];
    let sound = null;
    for (const entry of added) {
      sentences.push(...entryLines(entry, board));
      for (const event of entry.events) sound = board.soundOf(event) || sound;
    }
    const ended = msg.view.over && !(before && before.view && before.view.over);
    const turnBegins = msg.legal.length > 0 && !(before && before.legal.length > 0);
    if (ended) sentences.push(t("end.announce"));
    if (turnBegins) sentences.unshift(t("table.your_turn"));
    if (sound) play(sound);
    const chime = ended ? "end" : turnBegins ? "turn" : null;
    if (chime) setTimeout(() => play(chime), sound ? 280 : 0);
    if (sentences.length) announce(sentences.slice(0, 12).join(" "));
  }

  async function ensureBoard(gameId) {
    if (shell.boardFor === gameId) return;
    shell.boardFor = gameId;
    const module = await loadBoard(gameId);
    shell.board = module.createBoard({ ...ctx, root: boardEl, dock: controlsEl });
    draw();
  }

  function onState(msg) {
    const before = shell.msg;
    const first = !before || msg.log_from === 0;
    const added = mergeLog(msg);
    shell.msg = msg;
    shell.sending = false;
    rematch.heard(msg.rematch);
    shell.deadline = msg.clock ? performance.now() + msg.clock.remaining * 1000 : null;
    shell.lastBeep = null;
    debug.state = msg;
    if (msg.view) debug.states[msg.version] = { view: msg.view, legal: msg.legal };
    debug.log = shell.log;
    if (msg.chain) keepReceipt(msg.table.id, msg.version, msg.chain, shell.seat === null, msg.prelude && msg.prelude.length ? msg.prelude.length : null);
    deal.onState(msg, shell.seat);
    // the match just ended: the result takes the focus once the end panel is drawn
    if (msg.view && msg.view.over && !(before && before.view && before.view.over) && !first) shell.focusEnd = true;
    ensureBoard(msg.table.game);
    draw();
    tick();
    setTimeout(loadEnding, 0);
    if (first) {
      if (msg.legal.length) announce(t("table.your_turn"));
    } else {
      tell(added, before, msg);
    }
  }

  function onMessage(message) {
    if (chat.onMessage(message)) return;
    if (message.type === "welcome") {
      shell.seat = message.seat;
      shell.greeted = true; // until the first state, an error answers the hello
      debug.seat = message.seat;
      deal.connected();
      if (message.seat === null && seatAt(tableId)) dropSeat(tableId);
    } else if (message.type === "state") {
      shell.greeted = false;
      onState(message);
    } else if (message.type === "error") {
      shell.sending = false;
      debug.errors.push(message);
      // the hello's commitment refused at a table past it: the page would not have sent it had
      // it known, and the state says the rest
      const late = shell.greeted && HELLO_LATE.has(message.code);
      if (message.code !== "stale_version" && !late) toastError(message);
    }
  }

  const socket = new TableSocket(tableId, token, {
    message: onMessage,
    commitment: () => deal.helloCommitment(),
    status(status) {
      shell.status = status;
      debug.status = status;
      drawBanners();
    },
  });

  const deal = createDeal(tableId, (message) => socket.send(message), () => drawWaiting());

  // drop the connection as a network failure would (the tests check the reconnection)
  debug.drop = () => socket.ws && socket.ws.close();
  // send a message as a client other than this page would (the tests check the server's refusals)
  debug.send = (message) => socket.send(message);

  // -------------------------------------------------------------------- waiting actions
  async function join(seat, button, name) {
    button.disabled = true;
    try {
      if (name) keepName(name);
      const answer = await api.join(tableId, { name: name || playerName() || t("lobby.default_name"), seat });
      keepSeat(tableId, answer.seat, answer.token);
      socket.reconnectNow();
    } catch (error) {
      toastError(error);
      button.disabled = false;
    }
  }

  async function start(button) {
    button.disabled = true;
    try {
      await api.start(tableId, token());
    } catch (error) {
      toastError(error);
      button.disabled = false;
    }
  }

  /** Play again: a new table of the same game with the same seats (the bots at their levels,
   * the people's seats open for them), started at once when everyone else is a bot. */
  async function again(button) {
    const table = shell.msg.table;
    const seats = table.seats.map((seat) => (seat.bot ? { bot: true, level: seat.level || "medium" } : { bot: false }));
    button.disabled = true;
    try {
      const answer = await api.create({
        game: table.game,
        players: seats.length,
        seats,
        turn_seconds: table.turn_seconds,
        name: playerName() || t("lobby.default_name"),
        start: seats.filter((seat) => !seat.bot).length === 1,
      });
      keepSeat(answer.table.id, answer.seat, answer.token);
      navigate(`/table/${answer.table.id}`);
    } catch (error) {
      toastError(error);
      button.disabled = false;
    }
  }

  async function leave(button) {
    button.disabled = true;
    try {
      await api.leave(tableId, token());
    } catch {
      // the seat is released below either way
    }
    dropSeat(tableId);
    socket.reconnectNow();
  }

  // ------------------------------------------------------------------------------ start
  loadGames().then(
    (games) => {
      shell.games = games;
      if (shell.msg) draw();
    },
    () => {},
  );
  // the socket opens at once (a slow link would pay a round trip more after the lookup); the
  // lookup only tells "no such table" apart from a connection that does not come up. Without a
  // seat here, a signed-in person's account may hold one (taken on another device): ask first.
  if (seatAt(tableId)) socket.connect();
  else
    import("../account.js")
      .then((account) => account.seatFromAccount(tableId))
      .finally(() => socket.connect());
  // the server names the table's game in the page it serves, so the board loads beside the rest
  const hint = document.querySelector('meta[name="ludoteca-table"]');
  if (hint && hint.content === tableId && hint.dataset.game) ensureBoard(hint.dataset.game);
  api.table(tableId).then(
    (answer) => {
      shell.invite = answer.invite;
      if (shell.msg) drawWaiting();
      ensureBoard(answer.table.game);
    },
    (error) => {
      if (error.code === "no_table") {
        shell.missing = true;
        socket.close();
        drawBanners();
      }
    },
  );
  drawHead();

  return {
    refresh: draw,
    onKey(event) {
      if (!shell.board || !shell.msg || !shell.msg.view) return false;
      if (chat.onKey(event)) return true;
      if (shell.msg.view.over && rematch.onKey(event)) return true;
      return shell.board.onKey(event);
    },
    destroy() {
      rematch.destroy();
      clearInterval(ticker);
      clearTimeout(ratingTimer);
      deal.destroy();
      docked.disconnect();
      wide.removeEventListener("change", placeEnd);
      markTurn(false);
      document.body.classList.remove("at-table");
      socket.close();
    },
  };
}
