// Leaderboards (/leaderboard, /leaderboard/GAME): the best ratings in each game (1500 at the
// start; settled ones first, provisional ones marked), each name linking to the player's profile.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { errorText } from "../announce.js";
import { gameName, loadGames } from "../games.js";

export function mount(root, [chosen]) {
  const state = { games: [], game: chosen || null, board: null, error: null };

  async function show(id) {
    state.game = id;
    state.board = null;
    render();
    try {
      state.board = await api.leaderboard(id);
    } catch (error) {
      state.error = errorText(error);
    }
    render();
  }

  function board() {
    if (!state.board) return h("p", { class: "loading" }, t("app.loading"));
    if (!state.board.players.length) return h("p", {}, t("board.empty"));
    return h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        { class: "leaderboard" },
        h("thead", {}, h("tr", {}, ["rank", "name", "rating", "matches"].map((key) => h("th", { scope: "col" }, t(`board.col.${key}`))))),
        h(
          "tbody",
          {},
          state.board.players.map((p, i) =>
            h(
              "tr",
              {},
              h("td", {}, String(i + 1)),
              h("td", {}, h("a", { href: `/players/${encodeURIComponent(p.name)}`, "data-link": "" }, p.name)),
              h("td", { class: "rating" }, String(p.rating), p.provisional && h("span", { class: "badge provisional" }, t("player.provisional"))),
              h("td", {}, String(p.matches)),
            ),
          ),
        ),
      ),
    );
  }

  function render() {
    document.title = `${t("board.title")} · ludoteca`;
    replace(
      root,
      h(
        "section",
        { class: "page narrow leaderboard-page" },
        h("h1", {}, t("board.title")),
        h("p", { class: "lead" }, t("board.lead")),
        h(
          "nav",
          { class: "game-tabs", "aria-label": t("board.games") },
          state.games.map((g) => h("a", { href: `/leaderboard/${g.id}`, "data-link": "", "aria-current": g.id === state.game ? "page" : null }, gameName(g))),
        ),
        state.error && h("p", { class: "error", role: "alert" }, state.error),
        state.game && board(),
      ),
    );
  }

  render();
  loadGames()
    .then((games) => {
      state.games = games;
      if (!state.game && games.length) show(games[0].id);
      else if (state.game) show(state.game);
      else render();
    })
    .catch((error) => {
      state.error = errorText(error);
      render();
    });
  return { refresh: render };
}
