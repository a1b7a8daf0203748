// The page as an installed app: the service worker (/sw.js, which keeps the shell for offline
// use and shows "your turn" pushes), the "offline" banner, and the count of tables where it is
// my turn in the page's title ("(2) ludoteca"), kept fresh while the page is open.

import { NETWORK_EVENT } from "./api.js";
import { myTurns } from "./notify.js";

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
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => null);
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
  refreshBadge();
}
