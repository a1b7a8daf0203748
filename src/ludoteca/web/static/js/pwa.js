// The page as an installed app: the service worker (/sw.js, which keeps the shell for offline
// use and shows "your turn" pushes), the "offline" banner, and the count of tables where it is
// my turn in the page's title ("(2) ludoteca"), kept fresh while the page is open.

import { NETWORK_EVENT } from "./api.js";

const BADGE = /^\(\d+\) /;
const REFRESH_MS = 60_000;
let count = 0;

function applyBadge() {
  const bare = document.title.replace(BADGE, "");
  const wanted = count > 0 ? `(${count}) ${bare}` : bare;
  if (document.title !== wanted) document.title = wanted;
}

/** Refresh the count of tables where it is my turn (and the title with it). */
export async function refreshBadge() {
  try {
    const { myTurns } = await import("./notify.js"); // not before the page is up (pageLoaded)
    count = (await myTurns()).filter((seat) => seat.my_turn).length;
  } catch {
    return; // offline: keep the last count
  }
  applyBadge();
}

/** Offline when the browser says so, or when the server did not answer the last request. */
function showOffline(event) {
  const answered = event && event.type === NETWORK_EVENT ? event.detail : navigator.onLine;
  document.getElementById("offline").hidden = answered && navigator.onLine;
}

export function initApp() {
  // the worker copies the whole shell when it installs: on a slow link that would share the
  // line with the page's own first files, so it registers once the page has loaded and settled
  if ("serviceWorker" in navigator) {
    pageLoaded(() => setTimeout(() => navigator.serviceWorker.register("/sw.js").catch(() => null), 2000));
  }
  window.addEventListener("online", showOffline);
  window.addEventListener("offline", showOffline);
  window.addEventListener(NETWORK_EVENT, showOffline);
  showOffline();
  // every page sets its own title: the badge goes back in front of it
  new MutationObserver(applyBadge).observe(document.querySelector("title"), { childList: true });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshBadge();
  });
  setInterval(refreshBadge, REFRESH_MS);
  pageLoaded(refreshBadge);
}

/** Run `then` once the page and everything it named have loaded. */
function pageLoaded(then) {
  if (document.readyState === "complete") then();
  else window.addEventListener("load", then, { once: true });
}
