// Moving between the pages of the site without reloading (the shell in main.js listens).

export const ROUTE_EVENT = "ludoteca:route";

/** Go to an address of this site; `replace` swaps the history entry instead of adding one. */
export function navigate(href, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", href);
  else history.pushState(null, "", href);
  window.dispatchEvent(new Event(ROUTE_EVENT));
}
