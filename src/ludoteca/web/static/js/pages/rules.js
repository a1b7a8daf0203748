// A game's rules page (/games/{id}): its rules Markdown in the reader's language, rendered safely.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { language, t } from "../i18n.js";
import { catalogueEntry, gameName } from "../games.js";
import { markdown } from "../markdown.js";
import { playNow } from "./lobby.js";

export function mount(root, [gameId]) {
  let game = null;
  let failed = null;

  function body() {
    if (failed) return h("p", { class: "error", role: "alert" }, failed === "no_game" ? t("errors.no_game") : t("errors.generic"));
    if (!game) return h("p", { class: "loading" }, t("app.loading"));
    const pages = game.rules || {};
    const source = pages[language()] || pages.en;
    if (!source) return h("p", { class: "empty" }, t("rules.missing"));
    // the page already carries the game's name as its title: drop the Markdown's own
    const body = source.replace(/^\s*#\s[^\n]*\n/, "");
    return [
      !pages[language()] && h("p", { class: "note" }, t("rules.fallback")),
      h("div", { class: "rules-text game-content" }, markdown(body, 1)),
    ];
  }

  function render() {
    const name = game ? gameName(game) : "";
    document.title = `${name || t("rules.title")} · ludoteca`;
    replace(
      root,
      h(
        "article",
        { class: "page rules-page" },
        h("p", { class: "crumbs" }, h("a", { href: "/", "data-link": "" }, t("nav.games"))),
        h("h1", {}, name || t("rules.title")),
        game && catalogueEntry(game).tagline && h("p", { class: "lead game-content" }, catalogueEntry(game).tagline),
        game &&
          h(
            "div",
            { class: "card-actions" },
            h("button", { type: "button", class: "primary play-now", onClick: (e) => playNow(game.id, e.currentTarget) }, t("lobby.play_now")),
          ),
        h("h2", { class: "rules-heading" }, t("rules.title")),
        body(),
      ),
    );
  }

  render();
  api.game(gameId).then(
    (found) => {
      game = found;
      render();
    },
    (error) => {
      failed = error.code;
      render();
    },
  );
  return { refresh: render };
}
