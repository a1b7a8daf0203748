// The personal feed (/ws/me, docs/protocol.md): while a signed-in person has a page open they
// are online to those who follow them, and an invitation to a table shows as a notice with a link
// (and is said to screen readers). Opened on every page once signed in; closed on signing out.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { announce } from "./announce.js";
import { me, onAccountChange } from "./account.js";

let socket = null;
let retry = null;
let wanted = false;

function notices() {
  let box = document.getElementById("notices");
  if (!box) {
    box = h("div", { id: "notices", class: "notices", role: "region", "aria-label": t("friends.notices") });
    document.body.append(box);
  }
  return box;
}

function showInvite(notice) {
  const text = t("friends.invited_you", { name: notice.from });
  const item = h(
    "div",
    { class: "notice invite", dataset: { table: notice.table } },
    h("span", {}, text),
    " ",
    h("a", { href: `/table/${encodeURIComponent(notice.table)}`, "data-link": "", onClick: () => item.remove() }, t("friends.open_table")),
    " ",
    h("button", { type: "button", class: "dismiss", "aria-label": t("friends.dismiss"), onClick: () => item.remove() }, "×"),
  );
  notices().append(item);
  announce(text);
}

function open() {
  if (socket || !wanted) return;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/me`;
  socket = new WebSocket(url);
  socket.addEventListener("message", (event) => {
    let notice;
    try {
      notice = JSON.parse(event.data);
    } catch {
      return;
    }
    if (notice.type === "invite") showInvite(notice);
    if (notice.type === "signed_out") wanted = false;
  });
  socket.addEventListener("close", () => {
    socket = null;
    clearTimeout(retry);
    if (wanted) retry = setTimeout(open, 5000);
  });
}

function follow(who) {
  wanted = Boolean(who);
  if (wanted) open();
  else if (socket) socket.close();
}

/** Keep the feed open while someone is signed in on this page. */
export function initFeed() {
  onAccountChange(follow);
  me().then(follow, () => {});
}
