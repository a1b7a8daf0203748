// A player's profile (/players/NAME): ratings per game (1500 at the start, docs/accounts.md;
// provisional ones marked) with their history as a small inline SVG chart, and recent matches
// (opponents, result, rating change) linking to the replay and the signed record.

import { api } from "../api.js";
import { h, replace, s } from "../dom.js";
import { t } from "../i18n.js";
import { errorText } from "../announce.js";
import { gameName, loadGames } from "../games.js";

const W = 240;
const H = 64;

/** The rating after each match as a line, with a dot on the last one. */
export function chart(history, label) {
  const points = history.map((entry) => entry.rating);
  if (points.length === 0) return null;
  const low = Math.min(...points);
  const high = Math.max(...points);
  const span = high - low || 1;
  const x = (i) => (points.length === 1 ? W / 2 : 4 + (i * (W - 8)) / (points.length - 1));
  const y = (v) => H - 6 - ((v - low) * (H - 12)) / span;
  const path = points.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const last = points.length - 1;
  return s(
    "svg",
    { class: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label },
    s("title", {}, label),
    s("path", { d: path, class: "line" }),
    s("circle", { cx: x(last).toFixed(1), cy: y(points[last]).toFixed(1), r: 3, class: "dot" }),
  );
}

/** A rating change as people read it: "+12", "−8", "±0". */
function signed(value) {
  if (value === null || value === undefined) return "";
  return value > 0 ? `+${value}` : value < 0 ? `−${-value}` : "±0";
}

export function mount(root, [name]) {
  const state = { profile: null, error: null, games: [] };
  const game = (id) => gameName(state.games.find((g) => g.id === id) || { id });

  function ratings() {
    const entries = Object.entries(state.profile.ratings);
    if (!entries.length) return h("p", {}, t("player.no_ratings"));
    return h(
      "ul",
      { class: "ratings" },
      entries.map(([id, r]) =>
        h(
          "li",
          { class: "rating-card", dataset: { game: id } },
          h("h3", {}, game(id)),
          h("p", { class: "rating" }, h("strong", {}, String(r.rating)), r.provisional && h("span", { class: "badge provisional", title: t("player.provisional_hint") }, t("player.provisional"))),
          h("p", { class: "hint" }, t("player.matches", { n: r.matches })),
          chart(r.history, t("player.chart", { game: game(id) })),
        ),
      ),
    );
  }

  function opponents(match) {
    return match.players.filter((p) => p.seat !== match.seat).map((p) => (p.bot ? t("seat.bot", { n: p.seat + 1, level: t(`levels.${p.level || "medium"}`) }) : p.name)).join(", ");
  }

  function matches() {
    const list = state.profile.matches;
    if (!list.length) return h("p", {}, t("player.no_matches"));
    return h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        { class: "matches" },
        h("thead", {}, h("tr", {}, ["game", "opponents", "result", "change", "links"].map((key) => h("th", { scope: "col" }, t(`player.col.${key}`))))),
        h(
          "tbody",
          {},
          list.map((m) =>
            h(
              "tr",
              { dataset: { table: m.table } },
              h("td", {}, game(m.game)),
              h("td", {}, opponents(m)),
              h("td", { class: `result ${m.result}` }, t(`player.result.${m.result}`)),
              h("td", { class: "change" }, m.rated ? signed(m.change) : t("player.casual")),
              h(
                "td",
                { class: "links" },
                h("a", { href: `/replay/${m.table}`, "data-link": "" }, t("player.replay")),
                " · ",
                h("a", { href: `/api/tables/${m.table}/record` }, t("player.record")),
                " · ",
                h("a", { href: `/verify?table=${m.table}`, "data-link": "" }, t("player.verify")),
              ),
            ),
          ),
        ),
      ),
    );
  }

  function render() {
    const profile = state.profile;
    document.title = `${profile ? profile.name : name} · ludoteca`;
    replace(
      root,
      h(
        "section",
        { class: "page player-page" },
        h("h1", {}, profile ? profile.name : name),
        state.error && h("p", { class: "error", role: "alert" }, state.error),
        !profile && !state.error && h("p", { class: "loading" }, t("app.loading")),
        profile && [h("h2", {}, t("player.ratings")), ratings(), h("h2", {}, t("player.recent")), matches(), h("p", {}, h("a", { href: "/leaderboard", "data-link": "" }, t("nav.leaderboard")))],
      ),
    );
  }

  render();
  Promise.all([loadGames().catch(() => []), api.player(name)])
    .then(([games, profile]) => {
      Object.assign(state, { games, profile });
      render();
    })
    .catch((error) => {
      state.error = error.code === "no_player" ? t("player.none") : errorText(error);
      render();
    });
  return { refresh: render };
}
