// Home (/): the catalogue of games, each with a picture of its board (from the game's own board
// folder), its entry and "play now against bots", and the lobby beside it (below it on a phone,
// where the games scroll sideways so that the lobby starts on the first screen).

import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { catalogueEntry, gameName, loadGames } from "../games.js";
import { mountLobby, playNow } from "./lobby.js";
import { me } from "../account.js";
import { mountMine } from "../mine.js";
import { finder, stopLooking } from "../pairing.js";

function glance(entry) {
  const at = entry.at_a_glance || {};
  const rows = [
    ["for_whom", at.for_whom],
    ["similar_to", at.similar_to],
    ["good_to_know", at.good_to_know],
  ].filter(([, value]) => value);
  if (!rows.length) return null;
  return h(
    "dl",
    { class: "glance" },
    rows.map(([key, value]) => [h("dt", {}, t(`catalogue.${key}`)), h("dd", { class: "game-content" }, value)]),
  );
}

function listOrText(value) {
  if (Array.isArray(value)) return h("ul", { class: "game-content" }, value.map((item) => h("li", {}, item)));
  return value ? h("p", { class: "game-content" }, value) : null;
}

function more(entry) {
  const credits = entry.credits || {};
  const parts = [
    glance(entry),
    entry.how_to_play && [h("h3", {}, t("catalogue.how_to_play")), (Array.isArray(entry.how_to_play) ? entry.how_to_play : [entry.how_to_play]).map((p) => h("p", { class: "game-content" }, p))],
    entry.components && [h("h3", {}, t("catalogue.components")), listOrText(entry.components)],
    entry.editions && [h("h3", {}, t("catalogue.editions")), listOrText(entry.editions)],
    (credits.authors || credits.publisher) && [
      h("h3", {}, t("catalogue.credits")),
      h(
        "dl",
        { class: "credits" },
        credits.authors && [h("dt", {}, t("catalogue.authors")), h("dd", { class: "game-content" }, credits.authors)],
        credits.publisher && [h("dt", {}, t("catalogue.publisher")), h("dd", { class: "game-content" }, credits.publisher)],
      ),
    ],
  ].filter(Boolean);
  if (!parts.length) return null;
  return h("details", { class: "more" }, h("summary", {}, t("catalogue.more")), parts);
}

function facts(game, entry) {
  const players =
    entry.players ||
    (game.min_players === game.max_players ? String(game.min_players) : `${game.min_players}–${game.max_players}`);
  return h(
    "ul",
    { class: "facts", "aria-label": t("catalogue.facts") },
    h("li", {}, icon("players"), t("catalogue.players", { players })),
    entry.duration && h("li", { class: "game-content" }, icon("clock"), entry.duration),
    entry.age && h("li", {}, icon("age"), t("catalogue.age", { age: entry.age })),
  );
}

function picture(game, name) {
  const url = game.board && game.board.picture;
  if (!url) return null;
  return h("img", { class: "game-picture", src: url, alt: t("catalogue.picture", { game: name }), decoding: "async" });
}

function card(game, lobby, signedIn, find, looking) {
  const entry = catalogueEntry(game);
  const name = gameName(game);
  return h(
    "article",
    { class: "game-card", dataset: { game: game.id } },
    picture(game, name),
    h("h2", {}, h("a", { href: `/games/${game.id}`, "data-link": "" }, name)),
    entry.tagline && h("p", { class: "tagline game-content" }, entry.tagline),
    facts(game, entry),
    h(
      "div",
      { class: "card-actions" },
      h("button", { type: "button", class: "primary play-now", onClick: (e) => playNow(game.id, e.currentTarget) }, t("lobby.play_now")),
      signedIn && h("button", { type: "button", class: "play-rated", onClick: (e) => playNow(game.id, e.currentTarget, true) }, t("lobby.play_rated")),
      h("a", { class: "button", href: `/games/${game.id}`, "data-link": "" }, t("catalogue.rules")),
      h("button", { type: "button", class: "quiet", onClick: () => lobby.prepare(game.id) }, t("lobby.set_up")),
    ),
    h("div", { class: "card-find" }, h("p", { class: "looking-count", dataset: { looking: game.id } }, t("pairing.looking_game", { count: looking })), find),
    more(entry),
  );
}

export function mount(root) {
  const gamesPart = h("div", { class: "game-grid" }, h("p", { class: "loading" }, t("app.loading")));
  const lobbyPart = h("div");
  const minePart = h("div");
  const mine = mountMine(minePart);
  let games = null;
  let failed = null;
  let lobby = null;
  let signedIn = false;
  let looking = { games: {}, online: 0 };
  const finders = new Map();

  function finderOf(game) {
    const key = `${game.id}:${signedIn}`;
    if (!finders.has(key)) finders.set(key, finder(game, signedIn));
    return finders.get(key);
  }

  // the counts come with the lobby feed as they change (no polling: while the feed reconnects,
  // the last counts stay); updated in place: a redraw would take the focus out of a form
  function showLooking(counts) {
    looking = counts;
    for (const el of root.querySelectorAll("[data-looking]")) {
      el.textContent = t("pairing.looking_game", { count: looking.games[el.dataset.looking] || 0 });
    }
    const online = root.querySelector('[data-key="online"]');
    if (online) online.textContent = t("pairing.online", { count: looking.online });
  }

  function render() {
    document.title = `${t("catalogue.title")} · ludoteca`;
    replace(
      root,
      minePart,
      h(
        "div",
        { class: "home-layout" },
        h(
          "section",
          { class: "page catalogue" },
          h("h1", {}, t("catalogue.title")),
          h("p", { class: "lead" }, t("catalogue.lead")),
          h("p", { class: "online", dataset: { key: "online" } }, t("pairing.online", { count: looking.online })),
          gamesPart,
        ),
        lobbyPart,
      ),
    );
    if (failed) replace(gamesPart, h("p", { class: "error", role: "alert" }, t("errors.games")));
    else if (games) replace(gamesPart, games.map((game) => card(game, lobby, signedIn, finderOf(game).element, looking.games[game.id] || 0)));
  }

  lobby = mountLobby(lobbyPart, { looking: showLooking });
  render();
  me().then((who) => {
    signedIn = Boolean(who);
    if (signedIn) render();
  });
  loadGames()
    .then((found) => {
      games = found;
      lobby.setGames(found);
      render();
    })
    .catch(() => {
      failed = true;
      render();
    });

  return {
    refresh() {
      for (const find of finders.values()) find.refresh();
      render();
      mine.refresh();
      lobby.refresh();
    },
    destroy() {
      stopLooking();
      lobby.destroy();
    },
  };
}
