// The board kit: what every board needs, written once. A board imports it by its plain address
// ("/static/js/boards/kit.js", which the page's import map turns into this version's) and makes
// one kit per board: `const kit = boardKit(ctx)`, then `kit.show(msg)` in its render.
//
// A board reads the legal actions as data ({text, kind, args}, the server's `legal_actions`) and
// sends the text of the one it picked: it never builds notation.

/**
 * @param {object} ctx  the table's context for a board (root, dock, act, redraw, seatName, ...)
 */
export function boardKit(ctx) {
  let msg = null;

  /** The legal actions of `kind`, as data (none while it is not this seat's turn). */
  function actions(kind) {
    return msg ? (msg.legal_actions || []).filter((action) => action.kind === kind) : [];
  }

  /** The legal action of `kind` whose args include every entry of `args`, lists compared by
   * their items (null: none is). */
  function find(kind, args = {}) {
    const same = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);
    return actions(kind).find((action) => Object.entries(args).every(([key, value]) => same(action.args[key], value))) || null;
  }

  /** Whether the focus is nowhere in particular: the page itself or its main region. */
  function idle() {
    const active = document.activeElement;
    return active === document.body || Boolean(active && active.id === "main");
  }

  return {
    /** The message the board shows now (call from `render`). */
    show(next) {
      msg = next;
    },
    actions,
    find,
    /** Whether some legal action of `kind` with these args exists. */
    can: (kind, args = {}) => find(kind, args) !== null,
    /** The text of the legal action of `kind` with these args (a button's data-action), or null. */
    text: (kind, args = {}) => (find(kind, args) || { text: null }).text,
    /** Play the legal action of `kind` with these args; false when there is none or it was refused. */
    play(kind, args = {}) {
      const action = find(kind, args);
      return action !== null && ctx.act(action.text);
    },
    idle,
    /** Whether the focus is on the board, its dock, or nowhere in particular (the board's keys apply). */
    inBoard() {
      const active = document.activeElement;
      return ctx.root.contains(active) || ctx.dock.contains(active) || idle();
    },
    /** The space bar with the focus nowhere in particular: the board's main action (on a
     * button the space bar presses that button). */
    isSpace: (event) => event.key === " " && idle(),
    /** Draw again with the board's own state changed (nothing before the first message). */
    redraw() {
      if (msg) ctx.redraw();
    },
    /** Move the focus to the board's element of this data-key; false when there is none. */
    focus(key) {
      const el = ctx.root.querySelector(`[data-key="${key}"]`);
      if (el) el.focus();
      return Boolean(el);
    },
    /**
     * The board's text functions for the table, from its text module's helpers, all of one
     * signature: describe(event, view, seatName), outcome(view, seatName), seatLabel(seat, view,
     * seatName), seatFacts(seat, view, seatName), soundOf(event).
     */
    texts(text) {
      return {
        describe: (event) => text.describe(event, msg && msg.view, ctx.seatName),
        outcome: (view) => text.outcome(view, ctx.seatName),
        seatLabel: (seat, view) => text.seatLabel(seat, view, ctx.seatName),
        seatFacts: (seat, view) => text.seatFacts(seat, view, ctx.seatName),
        soundOf: (event) => text.soundOf(event),
      };
    },
  };
}
