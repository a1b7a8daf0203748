// The service worker (served at /sw.js, so its scope is every page): it keeps the shell of this
// version of the site (the page, its modules, styles, messages, icons, the games' boards) so that
// the table opens offline and says so; it shows "your turn" pushes and opens the table when one is tapped.
// The server writes this version and its files in place of the two markers (server/pwa.py): a
// new version of the site is a new worker, which keeps the new files and drops the old ones.

const VERSION = "__VERSION__";
const SHELL = __SHELL__;
const CACHE = `ludoteca-${VERSION}`;
const BOARDS = new Set(SHELL.filter((path) => path.startsWith("/boards/")));

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("ludoteca-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // the page from the network when there is one (it is revalidated anyway), else the shell
    event.respondWith(fetch(request).catch(() => caches.match("/", { cacheName: CACHE })));
    return;
  }
  if (url.pathname.startsWith(`/static/${VERSION}/`) || BOARDS.has(url.pathname)) {
    // immutable files (a board's are under its own version): the kept copy, else the network
    event.respondWith(caches.match(request, { cacheName: CACHE }).then((kept) => kept || fetch(request)));
  }
  // anything else (the API, the websocket, other versions) goes to the network untouched
});

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: "ludoteca", body: event.data ? event.data.text() : "" };
  }
  const options = {
    body: data.body || "",
    tag: data.tag || "ludoteca",
    renotify: true,
    icon: `/static/${VERSION}/icons/icon-192.png`,
    badge: `/static/${VERSION}/icons/icon-192.png`,
    data: { url: data.url || "/", unsubscribe: data.unsubscribe || null },
    actions: data.unsubscribe && data.stop ? [{ action: "stop", title: data.stop }] : [],
  };
  event.waitUntil(self.registration.showNotification(data.title || "ludoteca", options));
});

self.addEventListener("notificationclick", (event) => {
  const notification = event.notification;
  const data = notification.data || {};
  notification.close();
  if (event.action === "stop") {
    if (data.unsubscribe) event.waitUntil(fetch(data.unsubscribe, { method: "POST", headers: { Accept: "application/json" } }).catch(() => null));
    return;
  }
  const target = new URL(data.url || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === target);
      if (open) return open.focus();
      return self.clients.openWindow(target);
    }),
  );
});
