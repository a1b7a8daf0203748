// "Your turn" on the tab of the table I am at: a dot on the page's icon (the title says it in
// words, pages/table.js). The plain icon comes back when the turn passes or the page is left.

const MARK = "%3Ccircle cx='26' cy='6' r='6' fill='%23f5b301' stroke='%23fff' stroke-width='1.5'/%3E";
let plain = null;

/** Mark the page's icon (on) or give it back its plain look (off). */
export function markTurn(on) {
  const link = document.querySelector('link[rel="icon"]');
  if (!link) return;
  if (plain === null) plain = link.getAttribute("href");
  const wanted = on && plain.startsWith("data:image/svg+xml,") ? plain.replace(/%3C\/svg%3E$/, `${MARK}%3C/svg%3E`) : plain;
  if (link.getAttribute("href") !== wanted) link.setAttribute("href", wanted);
  link.dataset.turn = on ? "mine" : "";
}
