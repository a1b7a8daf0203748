// The shell: language, sound toggle, global keys, and the router that mounts one page at a time.
// Routes (served by the server as this same page): /, /games/{id}, /table/{id}, /verify,
// /replay and /replay/{id}, /account, /reset (a mailed reset link), /players/{name},
// /leaderboard and /leaderboard/{game}, /friends, and /admin (the operator's desk).

import { initI18n, onLanguageChange, setLanguage, t } from "./i18n.js";
import { initSound, isMuted, onMuteChange, toggleMute } from "./sound.js";
import { h, replace } from "./dom.js";
import { ROUTE_EVENT } from "./nav.js";
import { initApp } from "./pwa.js";
import { initFeed } from "./social.js";

const ROUTES = [
  [/^\/$/, () => import("./pages/home.js")],
  [/^\/games\/([^/]+)\/?$/, () => import("./pages/rules.js")],
  [/^\/table\/([^/]+)\/?$/, () => import("./pages/table.js")],
  [/^\/verify\/?$/, () => import("./pages/verify.js")],
  [/^\/replay(?:\/([^/]+))?\/?$/, () => import("./pages/replay.js")],
  [/^\/account\/?$/, () => import("./pages/account.js")],
  [/^\/reset\/?$/, () => import("./pages/reset.js")],
  [/^\/players\/([^/]+)\/?$/, () => import("./pages/player.js")],
  [/^\/leaderboard(?:\/([^/]+))?\/?$/, () => import("./pages/leaderboard.js")],
  [/^\/friends\/?$/, () => import("./pages/friends.js")],
  [/^\/admin\/?$/, () => import("./pages/admin.js")],
];

let page = null;
let generation = 0;

function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

function showMute() {
  const button = document.getElementById("mute-button");
  const muted = isMuted();
  button.setAttribute("aria-pressed", String(muted));
  button.classList.toggle("muted", muted);
  button.querySelector(".label").textContent = muted ? t("sound.off") : t("sound.on");
  button.title = t("sound.toggle");
}

async function route() {
  const mine = ++generation;
  if (page && page.destroy) page.destroy();
  page = null;
  const main = document.getElementById("main");
  const path = decodeURIComponent(location.pathname);
  for (const [pattern, load] of ROUTES) {
    const match = pattern.exec(path);
    if (!match) continue;
    const module = await load();
    if (mine !== generation) return;
    replace(main);
    page = module.mount(main, match.slice(1), new URLSearchParams(location.search));
    return;
  }
  replace(main, h("section", { class: "page narrow" }, h("h1", {}, t("app.not_found")), h("p", {}, h("a", { href: "/", "data-link": "" }, t("nav.games")))));
  document.title = `${t("app.not_found")} · ludoteca`;
}

function changed() {
  route();
  window.scrollTo(0, 0);
  document.getElementById("main").focus({ preventScroll: true });
}

function wire() {
  document.addEventListener("click", (event) => {
    const a = event.target.closest("a[data-link]");
    if (!a || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    history.pushState(null, "", a.getAttribute("href"));
    changed();
  });
  window.addEventListener("popstate", route);
  window.addEventListener(ROUTE_EVENT, changed);
  document.getElementById("lang-select").addEventListener("change", (event) => setLanguage(event.target.value));
  document.getElementById("mute-button").addEventListener("click", toggleMute);
  document.addEventListener("keydown", (event) => {
    if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "m" || event.key === "M") {
      toggleMute();
      event.preventDefault();
      return;
    }
    if (page && page.onKey && page.onKey(event)) event.preventDefault();
  });
  onMuteChange(showMute);
  onLanguageChange(() => {
    showMute();
    if (page && page.refresh) page.refresh();
  });
}

async function boot() {
  await initI18n();
  initSound();
  wire();
  showMute();
  await route();
  initApp();
  initFeed();
}

boot().catch((error) => {
  replace(document.getElementById("main"), h("p", { class: "error" }, String(error)));
});
