// Seeks in the lobby (docs/web.md#seeks): post an open challenge (game, seats, pace, rated: you sit
// at the new table and wait there) and, in the list of open tables, what a seek shows (rated or
// casual, who posted it with their rating, how long it has waited) and its one-tap "Take".

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { toastError } from "./announce.js";
import { gameName } from "./games.js";
import { PACES, paceLabel } from "./pace.js";

/** The form's choices, kept while the lobby is open. */
export function seekChoices() {
  return { game: null, players: 2, pace: "real-time", rated: false };
}

function pacePart(pace) {
  return pace === "real-time" ? {} : { pace: "turn-based", turn_seconds: pace };
}

/** "Post a seek": the game, the seats (yours included), the pace and, signed in, rated. */
export function seekForm(games, choices, signedIn, { name, sit, redraw }) {
  const g = games.find((x) => x.id === choices.game) || games[0];
  if (!g) return null;
  const fewest = Math.max(2, g.min_players);
  choices.players = Math.min(g.max_players, Math.max(fewest, choices.players));
  const counts = [];
  for (let n = fewest; n <= g.max_players; n += 1) counts.push(n);

  async function post(event) {
    event.preventDefault();
    const button = event.currentTarget.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const rated = choices.rated && signedIn ? { rated: true } : {};
      sit(await api.postSeek({ game: g.id, players: choices.players, name: name(), ...pacePart(choices.pace), ...rated }));
    } catch (error) {
      toastError(error);
      button.disabled = false;
    }
  }

  function choice(id, label, values, current, pick, text) {
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, label),
      h(
        "select",
        { id, disabled: values.length === 1, onChange: (e) => pick(e.target.value) },
        values.map((value) => h("option", { value: String(value), selected: String(value) === String(current) }, text(value))),
      ),
    );
  }

  return h(
    "form",
    { class: "seek-form", onSubmit: post, "aria-labelledby": "seek-title" },
    h("h3", { id: "seek-title" }, t("seeks.title")),
    h("p", { class: "hint" }, t("seeks.hint")),
    choice("seek-game", t("lobby.game"), games.map((x) => x.id), g.id, (v) => {
      choices.game = v;
      redraw();
    }, (id) => gameName(games.find((x) => x.id === id))),
    choice("seek-players", t("lobby.players"), counts, choices.players, (v) => {
      choices.players = Number(v);
    }, String),
    choice("seek-pace", t("pace.title"), PACES, choices.pace, (v) => {
      choices.pace = v === "real-time" ? v : Number(v);
    }, paceLabel),
    signedIn &&
      h(
        "label",
        { class: "check-field" },
        h("input", { type: "checkbox", id: "seek-rated", checked: choices.rated, onChange: (e) => { choices.rated = e.target.checked; } }),
        " ",
        t("seeks.rated_choice"),
      ),
    h("button", { type: "submit", class: "primary", dataset: { key: "post-seek" } }, t("seeks.post")),
  );
}

function waited(since) {
  const minutes = Math.floor(Math.max(0, Date.now() / 1000 - since) / 60);
  return minutes < 1 ? t("seeks.just_now") : t("seeks.waiting", { count: minutes });
}

/** What a seek shows in the list of open tables (nothing for a table that is not a seek). */
export function seekDetails(table) {
  const seek = table.seek;
  if (!seek) return null;
  // the poster (with their rating) on the line of who sits; rated or casual and the wait on one
  return [
    h("span", { class: "seek-by" }, seek.rating === null ? seek.by : t("seeks.by_rating", { name: seek.by, rating: seek.rating })),
    h(
      "span",
      { class: "seek-line" },
      h("span", { class: "seek-kind", dataset: { rated: seek.rated ? "yes" : "no" } }, seek.rated ? t("seeks.rated") : t("seeks.casual")),
      " · ",
      h("span", { class: "seek-waited" }, waited(seek.since)),
    ),
  ];
}

/** "Take": one tap seats you at the seek's table. */
export function takeButton(table, { name, sit }) {
  async function take(button) {
    button.disabled = true;
    try {
      sit(await api.takeSeek(table.id, { name: name() }));
    } catch (error) {
      toastError(error);
      button.disabled = false;
    }
  }
  return h("button", { type: "button", class: "primary", dataset: { key: `take-${table.id}` }, onClick: (e) => take(e.currentTarget) }, t("seeks.take"));
}
