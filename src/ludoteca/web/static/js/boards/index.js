// One board module per game; a game without its own board gets the generic one (the legal
// actions as buttons), so a new game under games/ is playable before it has a board.

const BOARDS = {
  heroes: () => import("./heroes.js"),
  "dice-heroes": () => import("./dice-heroes.js"),
  dwarves: () => import("./dwarves.js"),
};

/** The board module for a game id: {createBoard(ctx)}. */
export function loadBoard(gameId) {
  return (BOARDS[gameId] || (() => import("./generic.js")))();
}
