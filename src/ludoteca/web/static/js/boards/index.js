// One board module per game; a game without its own board gets the generic one (the position
// as an outline, the legal actions as buttons), so a new game under games/ is playable before
// it has a board. Each board lists the modules it imports, fetched together with it (one round
// trip on a slow link instead of one per level of imports).

const BOARDS = {
  heroes: { load: () => import("./heroes.js"), parts: ["heroes-art.js", "heroes-panels.js", "heroes-text.js"] },
  "dice-heroes": { load: () => import("./dice-heroes.js"), parts: ["dice-art.js", "dice-heroes-text.js"] },
  dwarves: { load: () => import("./dwarves.js"), parts: ["dwarves-art.js", "dwarves-text.js"] },
};
const GENERIC = { load: () => import("./generic.js"), parts: [] };

function preload(parts) {
  for (const part of parts) {
    const href = new URL(part, import.meta.url).pathname;
    if (document.querySelector(`link[rel="modulepreload"][href="${href}"]`)) continue;
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    document.head.append(link);
  }
}

/** The board module for a game id: {createBoard(ctx)}. */
export function loadBoard(gameId) {
  const board = BOARDS[gameId] || GENERIC;
  preload(board.parts);
  return board.load();
}
