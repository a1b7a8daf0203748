// A game's board comes from the catalogue (GET /api/games: each game's `board`, declared by the
// game's package): its module, the modules it imports (fetched together with it: one round trip
// on a slow link instead of one per level of imports) and its style sheets. A game without one
// gets the generic board (the position as an outline, the legal actions as buttons), so a new
// game is playable before it has a board.

import { loadGames } from "../games.js";

const GENERIC = { module: new URL("./generic.js", import.meta.url).pathname, parts: [], styles: [] };

// The boards shipped with the table are named under /static/ (a GameSpec.board without a folder):
// they are loaded from this page's own version of the static tree (/static/<version>/), so that
// they share its modules and are cached with it.
const STATIC = new URL("../../", import.meta.url).pathname;

function here(url) {
  const plain = url.startsWith("/static/") && !url.startsWith(STATIC);
  return plain ? STATIC + url.slice("/static/".length) : url;
}

function preload(parts) {
  for (const href of parts) {
    if (document.querySelector(`link[rel="modulepreload"][href="${href}"]`)) continue;
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    document.head.append(link);
  }
}

/** The board's style sheets, in the page once each; resolves when they are loaded (or failed:
 * a board without its styles still works). */
function style(styles) {
  return Promise.all(
    styles.map((href) => {
      const found = document.querySelector(`link[rel="stylesheet"][href="${href}"]`);
      // in the page already: named by the server (loaded before any module ran) or added here
      if (found) return found.dataset.loaded || found.sheet ? null : new Promise((done) => found.addEventListener("load", done, { once: true }));
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = href;
      const loaded = new Promise((done) => {
        link.addEventListener("load", () => { link.dataset.loaded = "1"; done(); }, { once: true });
        link.addEventListener("error", done, { once: true });
      });
      document.head.append(link);
      return loaded;
    }),
  );
}

/** The board module for a game id: {createBoard(ctx)}. */
export async function loadBoard(gameId) {
  let board = null;
  try {
    const games = await loadGames();
    board = (games.find((game) => game.id === gameId) || {}).board || null;
  } catch {
    board = null; // no catalogue: the generic board still plays
  }
  board = board || GENERIC;
  preload(board.parts.map(here));
  const [module] = await Promise.all([import(here(board.module)), style(board.styles.map(here))]);
  return module;
}
