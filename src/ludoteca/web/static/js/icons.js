// Inline SVG icons (24×24, currentColor). Decorative: hidden from screen readers; the text or
// aria-label next to them says the same thing.

import { s } from "./dom.js";

const PATHS = {
  players: "M8 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zm8 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM2 20c0-3.3 2.7-6 6-6s6 2.7 6 6zm13 0c0-1.9-.6-3.6-1.7-5 .5-.1 1.1-.2 1.7-.2 3 0 5 2.2 5 5.2z",
  clock: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16zm-1 3v6l5 3 1-1.7-4-2.3V7z",
  age: "M12 3c1 1.2 1.5 2.2 1.5 3a1.5 1.5 0 0 1-3 0c0-.8.5-1.8 1.5-3zM5 11h14a2 2 0 0 1 2 2v7H3v-7a2 2 0 0 1 2-2zm6-2h2v2h-2z",
  bot: "M11 2h2v3h4a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3V8a3 3 0 0 1 3-3h4zM8.5 10a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm7 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zM9 15v1.5h6V15zM1 10h2v5H1zm20 0h2v5h-2z",
  person: "M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zm-8 9c0-4.4 3.6-7 8-7s8 2.6 8 7z",
  copy: "M8 3h11a2 2 0 0 1 2 2v11h-2V5H8zM5 7h10a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V9a2 2 0 0 1 2-2zm0 2v11h10V9z",
  check: "M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z",
  cross: "M18.3 5.7 12 12l6.3 6.3-1.4 1.4L10.6 13.4 4.3 19.7 2.9 18.3 9.2 12 2.9 5.7l1.4-1.4 6.3 6.3 6.3-6.3z",
  turn: "M8 5v14l11-7z",
  away: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm-1 5h2v6h-2zm0 8h2v2h-2z",
  shield: "M12 2 4 5v6c0 5 3.4 9.3 8 11 4.6-1.7 8-6 8-11V5z",
  key: "M14 3a7 7 0 0 0-6.7 9L2 17.3V22h4.7l.8-.8V19h2.2l1-1v-2.2h2.2l.7-.7A7 7 0 1 0 14 3zm2.5 3a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5z",
  lock: "M12 2a5 5 0 0 0-5 5v3H5v12h14V10h-2V7a5 5 0 0 0-5-5zm0 2a3 3 0 0 1 3 3v3H9V7a3 3 0 0 1 3-3z",
  link: "M10.6 13.4a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1.2 1.2 1.4 1.4 1.2-1.2a2 2 0 0 1 2.9 2.9l-3 3a2 2 0 0 1-2.9 0zm2.8-2.8a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1.2-1.2-1.4-1.4-1.2 1.2a2 2 0 0 1-2.9-2.9l3-3a2 2 0 0 1 2.9 0z",
  chat: "M4 3h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm0 2v10h2v2l2.5-2H20V5zm3 3h10v2H7zm0 3h7v2H7z",
  keyboard: "M3 6h18a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1zm1 2v8h16V8zm1 1h2v2H5zm3 0h2v2H8zm3 0h2v2h-2zm3 0h2v2h-2zm3 0h2v2h-2zM7 13h10v2H7z",
  sanctuary: "M12 2 2 8v2h20V8zM4 11h3v8H4zm6.5 0h3v8h-3zM17 11h3v8h-3zM2 20h20v2H2z",
  download: "M11 3h2v10l3.5-3.5 1.4 1.4L12 16.8l-5.9-5.9 1.4-1.4L11 13zM4 18h16v2H4z",
  target: "M12 21 4 11h5V3h6v8h5z",
  strike: "M19 3h2v2L9 17l1.5 1.5-1.5 1.5-2-2-3 3-1-1 3-3-2-2L5.5 13.5 7 15z",
  reroll: "M12 4a8 8 0 1 0 7.7 10h-2.1A6 6 0 1 1 12 6c1.7 0 3.1.7 4.2 1.8L13 11h7V4l-2.3 2.3A8 8 0 0 0 12 4z",
  trophy: "M7 3h10v2h4v3a4 4 0 0 1-4 4h-.4A5 5 0 0 1 13 15.9V18h3v3H8v-3h3v-2.1A5 5 0 0 1 7.4 12H7a4 4 0 0 1-4-4V5h4zm0 4H5v1a2 2 0 0 0 2 2zm10 0v3a2 2 0 0 0 2-2V7z",
};

/** An icon by name, e.g. icon("bot"). */
export function icon(name, extraClass = "") {
  return s(
    "svg",
    { class: `icon ${extraClass}`.trim(), viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false", "data-icon": name },
    s("path", { d: PATHS[name] || "", fill: "currentColor" }),
  );
}
