// A game's board comes from the catalogue (GET /api/games: each game's `board`, declared by the
// game's package and served from it at /boards/<game>/<version>/): its module and the modules it
// imports (a table's page brings them joined with its own; another page fetches them as one chunk:
// server/site/joined.py), its style sheets and its words per language (taken into the page's messages under
// the board's namespace). A game without one gets the generic board (the position as an
// outline, the legal actions as buttons), so a new game is playable before it has a board.

import { loadGames } from "../games.js";
import { addWords } from "../i18n.js";

const GENERIC = { module: new URL("./generic.js", import.meta.url).pathname, parts: [], styles: [], namespace: null, words: {} };

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
  const [module] = await Promise.all([import(board.module), style(board.styles), addWords(board.namespace, board.words)]);
  return module;
}
