// "My tables" on the home page: every table where I hold a seat (this browser's seats, and the
// account's across devices), those where it is my turn first with their deadlines in my time
// zone, then the rest.

import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { gameName, loadGames } from "./games.js";
import { deadlineText, myTurns } from "./notify.js";
import { refreshBadge } from "./pwa.js";

export function mountMine(root) {
  let seats = [];
  let games = [];

  function item(seat) {
    const game = games.find((g) => g.id === seat.game);
    return h(
      "li",
      { class: seat.my_turn ? "mine-item my-turn" : "mine-item", dataset: { table: seat.table } },
      h("a", { href: `/table/${seat.table}`, "data-link": "" }, game ? gameName(game) : seat.game, " · ", seat.table),
      " ",
      seat.my_turn
        ? h("span", { class: "badge turn-badge" }, t("mine.your_turn"))
        : h("span", { class: "status" }, t(`mine.status.${seat.status}`)),
      seat.my_turn && seat.deadline && h("span", { class: "deadline" }, " ", t("mine.by", { when: deadlineText(seat.deadline) })),
    );
  }

  function render() {
    if (!seats.length) {
      replace(root);
      return;
    }
    replace(root, h("section", { class: "page mine" }, h("h2", {}, t("mine.title")), h("ul", { class: "table-list mine-list" }, seats.map(item))));
  }

  async function load() {
    try {
      [seats, games] = await Promise.all([myTurns(), loadGames()]);
    } catch {
      return; // offline: nothing to add
    }
    seats = seats.filter((seat) => seat.status !== "over");
    render();
    refreshBadge();
  }

  load();
  return { refresh: render, reload: load };
}
