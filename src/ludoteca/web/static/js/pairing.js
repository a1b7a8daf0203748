// "Find people": quick pairing for one game (docs/protocol.md#pairing). Choose the count of
// players, the pace, rated or casual, and what happens after a wait (keep waiting, or bots of a
// level); then the page polls the search every second, shows how many look for this game now and
// how long you have waited, and takes you to the table once you are seated. Cancel, or leaving the
// page (pagehide, or another page of the app), ends the search.

import { api } from "./api.js";
import { h, rerender } from "./dom.js";
import { t } from "./i18n.js";
import { toastError } from "./announce.js";
import { navigate } from "./nav.js";
import { keepSeat, playerName } from "./store.js";

const LEVELS = ["random", "easy", "medium", "hard"];
const WAITS = ["never", "30", "60", "120"];
const POLL_MS = 1000;

/** The search in flight on this page, ended when the page is left. */
let current = null;

function cancelQuietly(id) {
  // keepalive: the request outlives the page that sends it
  fetch(`/api/pairing/${encodeURIComponent(id)}`, { method: "DELETE", keepalive: true }).catch(() => {});
}

window.addEventListener("pagehide", () => {
  if (current) cancelQuietly(current.id);
});

/** Leave any search of this page (another page of the app is shown). */
export function stopLooking() {
  if (current) {
    cancelQuietly(current.id);
    current.stop();
    current = null;
  }
}

function waited(seconds) {
  const s = Math.floor(seconds);
  return s < 60 ? t("pairing.seconds", { count: s }) : t("pairing.minutes", { m: Math.floor(s / 60), s: String(s % 60).padStart(2, "0") });
}

/** The "Find people" part of a game's card: a button, its form, then the search's state
 * (`element`); `refresh()` draws it again (in a new language). */
export function finder(game, signedIn) {
  const root = h("div", { class: "finder", dataset: { finder: game.id } });
  const form = { players: "any", pace: "real-time", rated: false, after: "never", level: "medium" };
  let open = false;
  let search = null; // {id, state, looking, waited}
  let timer = null;

  function stop() {
    if (timer) clearTimeout(timer);
    timer = null;
    search = null;
    draw();
  }

  async function poll() {
    if (!search) return;
    try {
      const answer = await api.pairingState(search.id);
      if (!search) return;
      search = { ...search, ...answer };
      if (answer.state === "seated") {
        current = null;
        keepSeat(answer.table, answer.seat, answer.token);
        navigate(`/table/${answer.table}`);
        return;
      }
      if (answer.state !== "waiting") {
        // expired or ended elsewhere (another tab of this browser looked again): look again
        stop();
        return;
      }
    } catch (error) {
      if (error.code === "no_search") {
        stop();
        return;
      }
      // a busy or restarting server: keep asking
    }
    draw();
    timer = setTimeout(poll, POLL_MS);
  }

  async function look(event) {
    event.preventDefault();
    const button = event.currentTarget.querySelector("button[type=submit]");
    button.disabled = true;
    stopLooking();
    const body = {
      game: game.id,
      players: form.players === "any" ? "any" : Number(form.players),
      pace: form.pace,
      rated: Boolean(form.rated && signedIn),
      bots_after: form.after === "never" ? null : Number(form.after),
      bot_level: form.level,
      name: playerName() || t("lobby.default_name"),
    };
    try {
      search = await api.findPeople(body);
      current = { id: search.id, stop };
      open = false;
      draw();
      timer = setTimeout(poll, search.state === "seated" ? 0 : POLL_MS);
    } catch (error) {
      toastError(error);
      button.disabled = false;
    }
  }

  async function cancel() {
    const id = search && search.id;
    current = null;
    stop();
    if (id) {
      try {
        await api.cancelSearch(id);
      } catch {
        // gone already
      }
    }
  }

  function select(key, label, choices) {
    const id = `find-${game.id}-${key}`;
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, label),
      h(
        "select",
        { id, name: key, onChange: (e) => { form[key] = e.target.value; draw(); } },
        choices.map(([value, text]) => h("option", { value, selected: value === form[key] }, text)),
      ),
    );
  }

  function formPart() {
    const counts = [["any", t("pairing.any_count")]];
    for (let n = game.min_players; n <= game.max_players; n += 1) counts.push([String(n), String(n)]);
    return h(
      "form",
      { class: "find-form", onSubmit: look, "aria-label": t("pairing.find") },
      counts.length > 2 && select("players", t("lobby.players"), counts),
      select("pace", t("pace.title"), [["real-time", t("pairing.real_time")], ["turn-based", t("pairing.turn_based")]]),
      signedIn &&
        h(
          "div",
          { class: "field check" },
          h("input", { type: "checkbox", id: `find-${game.id}-rated`, checked: form.rated, onChange: (e) => { form.rated = e.target.checked; } }),
          h("label", { for: `find-${game.id}-rated` }, t("pairing.rated")),
        ),
      select("after", t("pairing.after_wait"), WAITS.map((w) => [w, w === "never" ? t("pairing.keep_waiting") : t("pairing.bots_after", { count: Number(w) })])),
      form.after !== "never" && select("level", t("pairing.bot_level"), LEVELS.map((l) => [l, t(`levels.${l}`)])),
      h("button", { type: "submit", class: "primary", dataset: { key: `find-go-${game.id}` } }, t("pairing.look")),
    );
  }

  function searchPart() {
    return h(
      "div",
      { class: "searching", role: "status", "aria-live": "polite" },
      h("p", { class: "looking" }, t("pairing.looking_now", { count: search.looking ?? 1 })),
      h("p", { class: "waited" }, t("pairing.waited", { time: waited(search.waited || 0) })),
      h("button", { type: "button", class: "cancel-search", dataset: { key: `find-cancel-${game.id}` }, onClick: cancel }, t("pairing.cancel")),
    );
  }

  function build() {
    if (search) return searchPart();
    return [
      h(
        "button",
        {
          type: "button",
          class: "find-people",
          "aria-expanded": open ? "true" : "false",
          dataset: { key: `find-${game.id}` },
          onClick: () => { open = !open; draw(); },
        },
        t("pairing.find"),
      ),
      open && formPart(),
    ];
  }

  function draw() {
    rerender(root, build);
  }

  draw();
  return { element: root, refresh: draw };
}
