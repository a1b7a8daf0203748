// The lobby: your name, "create a table" (game, seats, bot levels, pace, turn time), "post a seek"
// (seeks.js), the open tables (join; a seek's with one-tap "Take"), "play now against bots", and the
// counts of people looking, live from the lobby feed. Seat tokens go to localStorage before moving
// to the table.

import { api } from "../api.js";
import { h, replace, rerender } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { toastError } from "../announce.js";
import { gameName, optionLabel, optionValueLabel } from "../games.js";
import { navigate } from "../nav.js";
import { keepName, keepSeat, playerName, seatAt } from "../store.js";
import { LobbySocket } from "../socket.js";
import { me } from "../account.js";
import { PACES, paceLabel } from "../pace.js";
import { seekChoices, seekDetails, seekForm, takeButton } from "../seeks.js";

const LEVELS = ["random", "easy", "medium", "hard"];
const TURN_TIMES = [30, 60, 120, 300, 600, 1800];

function yourName() {
  return playerName() || t("lobby.default_name");
}

/** Sit at a table as this browser: remember the token, then go to the table. */
function sit(answer) {
  keepSeat(answer.table.id, answer.seat, answer.token);
  navigate(`/table/${answer.table.id}`);
}

/** "Play now against bots": one click, a started table, you at the first seat (a rated match
 * when `rated`: the signed-in person's rating against the bots' fixed ones). */
export async function playNow(gameId, button, rated = false) {
  if (button) button.disabled = true;
  try {
    sit(await api.playNow({ game: gameId, name: yourName(), level: "medium", ...(rated ? { rated: true } : {}) }));
  } catch (error) {
    toastError(error);
    if (button) button.disabled = false;
  }
}

/** Join an open table with your name. */
async function joinTable(tableId, button) {
  if (button) button.disabled = true;
  try {
    sit(await api.join(tableId, { name: yourName() }));
  } catch (error) {
    toastError(error);
    if (button) button.disabled = false;
  }
}

function turnLabel(seconds) {
  return seconds < 60 ? t("lobby.seconds", { count: seconds }) : t("lobby.minutes", { count: seconds / 60 });
}

/** `hooks.looking(counts)`: the counts of people looking ({games, online}), as they change. */
export function mountLobby(root, hooks = {}) {
  let games = [];
  let open = [];
  let finished = [];
  let listFailed = false;
  const form = { game: null, players: 2, seats: [], pace: "real-time", turn: 60, rated: false, chat: "phrases", options: {} };
  let feed = null;
  let signedIn = false;
  const seek = seekChoices();
  const seating = { name: yourName, sit };

  function game() {
    return games.find((g) => g.id === form.game) || games[0];
  }

  function fitSeats() {
    const g = game();
    if (!g) return;
    form.players = Math.min(g.max_players, Math.max(g.min_players, form.players));
    while (form.seats.length < form.players) form.seats.push("bot:medium");
    form.seats.length = form.players;
    form.seats[0] = "you";
  }

  async function create(event) {
    event.preventDefault();
    const button = event.currentTarget.querySelector("button[type=submit]");
    button.disabled = true;
    const seats = form.seats.map((choice) =>
      choice.startsWith("bot:") ? { bot: true, level: choice.slice(4) } : { bot: false },
    );
    try {
      sit(
        await api.create({
          game: game().id,
          players: form.players,
          params: chosenOptions(),
          seats,
          ...(form.pace === "real-time" ? { turn_seconds: form.turn } : { pace: "turn-based", turn_seconds: form.pace }),
          name: yourName(),
          start: seats.slice(1).every((seat) => seat.bot),
          ...(form.rated && signedIn ? { rated: true } : {}),
          chat: form.chat,
        }),
      );
    } catch (error) {
      toastError(error);
      button.disabled = false;
    }
  }

  /** The game's table options as chosen (each value as the game lists it, not as text). */
  function chosenOptions() {
    const params = {};
    for (const option of game().options || []) {
      const chosen = option.values.find((value) => String(value) === form.options[option.name]);
      params[option.name] = chosen ?? option.default;
    }
    return params;
  }

  /** A labelled select per table option of the chosen game (none for a game without options). */
  function optionsField(g) {
    const options = g.options || [];
    if (!options.length) return null;
    return h(
      "fieldset",
      { class: "options-field", dataset: { key: "table-options" } },
      h("legend", {}, t("lobby.options")),
      options.map((option) => {
        const id = `create-option-${option.name}`;
        const current = form.options[option.name] ?? String(option.default);
        return h(
          "div",
          { class: "field" },
          h("label", { for: id }, optionLabel(option)),
          h(
            "select",
            {
              id,
              name: `option-${option.name}`,
              dataset: { option: option.name },
              onChange: (e) => {
                form.options[option.name] = e.target.value;
              },
            },
            option.values.map((value) =>
              h("option", { value: String(value), selected: String(value) === current }, optionValueLabel(option, value)),
            ),
          ),
        );
      }),
    );
  }

  function seatPicker(index) {
    if (index === 0) {
      return h("li", { class: "seat-pick" }, icon("person"), h("span", {}, t("lobby.seat_n", { n: 1 })), h("strong", {}, t("lobby.you")));
    }
    const id = `seat-kind-${index}`;
    return h(
      "li",
      { class: "seat-pick" },
      icon(form.seats[index] === "person" ? "person" : "bot"),
      h("label", { for: id }, t("lobby.seat_n", { n: index + 1 })),
      h(
        "select",
        {
          id,
          name: `seat-${index}`,
          onChange: (e) => {
            form.seats[index] = e.target.value;
            renderForm();
          },
        },
        h("option", { value: "person", selected: form.seats[index] === "person" }, t("lobby.person")),
        LEVELS.map((level) =>
          h("option", { value: `bot:${level}`, selected: form.seats[index] === `bot:${level}` }, t("lobby.bot_level", { level: t(`levels.${level}`) })),
        ),
      ),
    );
  }

  function createForm() {
    const g = game();
    if (!g) return h("p", { class: "loading" }, t("app.loading"));
    fitSeats();
    const counts = [];
    for (let n = g.min_players; n <= g.max_players; n += 1) counts.push(n);
    const waits = form.seats.slice(1).some((seat) => seat === "person");
    return h(
      "form",
      { class: "create-form", onSubmit: create, "aria-labelledby": "create-title" },
      h("h3", { id: "create-title" }, t("lobby.create")),
      h(
        "div",
        { class: "field" },
        h("label", { for: "create-game" }, t("lobby.game")),
        h(
          "select",
          {
            id: "create-game",
            name: "game",
            onChange: (e) => {
              form.game = e.target.value;
              form.options = {};
              renderForm();
            },
          },
          games.map((x) => h("option", { value: x.id, selected: x.id === g.id }, gameName(x))),
        ),
      ),
      h(
        "div",
        { class: "field" },
        h("label", { for: "create-players" }, t("lobby.players")),
        h(
          "select",
          {
            id: "create-players",
            name: "players",
            disabled: counts.length === 1,
            onChange: (e) => {
              form.players = Number(e.target.value);
              renderForm();
            },
          },
          counts.map((n) => h("option", { value: String(n), selected: n === form.players }, String(n))),
        ),
      ),
      optionsField(g),
      h("fieldset", { class: "seats-field" }, h("legend", {}, t("lobby.seats")), h("ol", { class: "seat-picks" }, form.seats.map((_, i) => seatPicker(i)))),
      h(
        "div",
        { class: "field" },
        h("label", { for: "create-pace" }, t("pace.title")),
        h(
          "select",
          {
            id: "create-pace",
            name: "pace",
            onChange: (e) => {
              form.pace = e.target.value === "real-time" ? "real-time" : Number(e.target.value);
              renderForm();
            },
          },
          PACES.map((pace) => h("option", { value: String(pace), selected: pace === form.pace }, paceLabel(pace))),
        ),
      ),
      form.pace !== "real-time" && h("p", { class: "hint", dataset: { key: "pace-hint" } }, t("pace.hint")),
      form.pace === "real-time" &&
      h(
        "div",
        { class: "field" },
        h("label", { for: "create-turn" }, t("lobby.turn_time")),
        h(
          "select",
          {
            id: "create-turn",
            name: "turn",
            onChange: (e) => {
              form.turn = Number(e.target.value);
            },
          },
          TURN_TIMES.map((n) => h("option", { value: String(n), selected: n === form.turn }, turnLabel(n))),
        ),
      ),
      h(
        "div",
        { class: "field" },
        h("label", { for: "create-chat" }, t("lobby.chat")),
        h(
          "select",
          {
            id: "create-chat",
            name: "chat",
            onChange: (e) => {
              form.chat = e.target.value === "text" ? "text" : "phrases";
            },
          },
          ["phrases", "text"].map((value) => h("option", { value, selected: value === form.chat }, value === "text" ? t("lobby.chat_text") : t("lobby.chat_phrases"))),
        ),
      ),
      signedIn &&
        h(
          "label",
          { class: "check-field" },
          h("input", {
            type: "checkbox",
            id: "create-rated",
            checked: form.rated,
            onChange: (e) => {
              form.rated = e.target.checked;
            },
          }),
          " ",
          t("lobby.rated_table"),
        ),
      h("p", { class: "hint" }, waits ? t("lobby.hint_invite") : t("lobby.hint_start")),
      h("button", { type: "submit", class: "primary" }, waits ? t("lobby.create_invite") : t("lobby.create_start")),
    );
  }

  function openTable(table) {
    const free = table.seats.filter((seat) => seat.kind === "open").length;
    const mine = seatAt(table.id);
    const g = games.find((x) => x.id === table.game);
    return h(
      "li",
      { class: "open-table", dataset: { table: table.id } },
      h(
        "div",
        { class: "open-table-text" },
        h("strong", {}, gameName(g, table.game)),
        h("span", {}, t("lobby.free_seats", { count: free, total: table.seats.length })),
        h("span", { class: "pace", "data-pace": table.pace || "real-time" }, paceLabel(table)),
        seekDetails(table),
        // who sits (at a seek, who sits beside its poster, named above)
        h(
          "span",
          { class: "who" },
          table.seats
            .filter((seat) => seat.kind !== "open" && !(table.seek && seat.seat === 0))
            .map((seat) => (seat.bot ? t("seat.bot", { n: seat.seat + 1, level: t(`levels.${seat.level || "medium"}`) }) : seat.name))
            .join(" · "),
        ),
      ),
      mine
        ? h("a", { class: "button", href: `/table/${table.id}`, "data-link": "", dataset: { key: `return-${table.id}` } }, t("lobby.return"))
        : table.seek
          ? takeButton(table, seating)
          : h("button", { type: "button", class: "primary", dataset: { key: `join-${table.id}` }, disabled: !free, onClick: (e) => joinTable(table.id, e.currentTarget) }, t("lobby.join")),
    );
  }

  function openList() {
    return h(
      "div",
      {},
      h("h3", {}, t("lobby.open_tables")),
      listFailed
        ? h("p", { class: "error" }, t("errors.offline"))
        : open.length
          ? h("ul", {}, open.map(openTable))
          : h("p", { class: "empty" }, t("lobby.no_open")),
      finished.length > 0 && [
        h("h3", {}, t("lobby.finished")),
        h(
          "ul",
          { class: "finished-tables" },
          finished.slice(0, 5).map((table) =>
            h(
              "li",
              { dataset: { table: table.id } },
              h("span", {}, gameName(games.find((g) => g.id === table.game), table.game), " · ", table.fingerprint, " "),
              h("a", { href: `/replay/${encodeURIComponent(table.id)}`, "data-link": "", dataset: { key: `replay-${table.id}` } }, t("lobby.replay")),
            ),
          ),
        ),
      ],
    );
  }

  const formPart = h("div", { class: "create-part" });
  const seekPart = h("div", { class: "seek-part" });
  const listPart = h("div", { class: "open-tables" });

  function renderForm() {
    rerender(formPart, createForm);
    rerender(seekPart, () => seekForm(games, seek, signedIn, { ...seating, redraw: renderForm }));
  }

  function renderList() {
    rerender(listPart, openList);
  }

  function render() {
    replace(
      root,
      h(
        "section",
        { class: "page lobby", id: "lobby", "aria-labelledby": "lobby-title" },
        h("h2", { id: "lobby-title" }, t("lobby.title")),
        h(
          "div",
          { class: "field name-field" },
          h("label", { for: "player-name" }, t("lobby.your_name")),
          h("input", {
            id: "player-name",
            name: "name",
            maxlength: "24",
            autocomplete: "nickname",
            value: playerName(),
            placeholder: t("lobby.default_name"),
            onInput: (e) => keepName(e.target.value.trim()),
          }),
        ),
        h("div", { class: "lobby-grid" }, formPart, h("div", {}, seekPart, listPart)),
      ),
    );
    renderForm();
    renderList();
  }

  // the open tables arrive from the lobby feed: one page, then each table added, changed or removed
  function follow() {
    feed = new LobbySocket({
      message(message) {
        if (message.type === "tables") open = message.tables;
        else if (message.type === "table_added") open = [message.table, ...open.filter((x) => x.id !== message.table.id)];
        else if (message.type === "table_changed") open = open.map((x) => (x.id === message.table.id ? message.table : x));
        else if (message.type === "table_removed") open = open.filter((x) => x.id !== message.id);
        else if (message.type === "looking") return hooks.looking && hooks.looking(message);
        else return;
        listFailed = false;
        renderList();
      },
      status(status) {
        const failed = status === "reconnecting";
        if (failed !== listFailed) {
          listFailed = failed;
          renderList();
        }
      },
    }, Boolean(hooks.looking));
    feed.connect();
  }

  render();
  follow();
  const ages = setInterval(() => open.some((x) => x.seek) && renderList(), 30000); // "waiting 3 min"
  me().then((who) => {
    signedIn = Boolean(who);
    if (signedIn) renderForm();
  });
  // the latest finished tables, each with its replay (newest first)
  api.tables("over").then(
    (tables) => {
      finished = [...tables].sort((x, y) => (y.started_at || 0) - (x.started_at || 0));
      renderList();
    },
    () => {},
  );
  return {
    setGames(found) {
      games = found;
      renderForm();
      renderList();
    },
    prepare(gameId) {
      form.game = gameId;
      renderForm();
      const select = root.querySelector("#create-game");
      if (select) {
        select.scrollIntoView({ behavior: "smooth", block: "center" });
        select.focus({ preventScroll: true });
      }
    },
    refresh: render,
    destroy() {
      clearInterval(ages);
      feed.close();
    },
  };
}
