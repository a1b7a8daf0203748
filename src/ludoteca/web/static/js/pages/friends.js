// Friends (/friends): follow a person by name, see who of them is online (unless they hide it)
// with their open and running tables, invite one to a table of mine, remove a follower, block
// and unblock, hide my online status, and report a person. The rules are docs/accounts.md.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { errorText, toast } from "../announce.js";
import { gameName, loadGames } from "../games.js";
import { me } from "../account.js";
import { blockSection } from "../blocks-ui.js";

const REASONS = ["abuse", "cheating", "spam", "name", "other"];
const REFRESH_MS = 15000;

export function mount(root) {
  const state = { who: undefined, data: null, tables: [], games: [], error: null, busy: false };
  let timer = null;

  async function load() {
    state.who = await me();
    if (state.who) {
      try {
        state.data = await api.friends();
        state.tables = (await api.myTables()).filter((table) => ["open", "starting", "playing"].includes(table.status));
      } catch (error) {
        state.error = errorText(error);
      }
    }
    render();
  }

  async function act(work, done) {
    state.busy = true;
    state.error = null;
    try {
      await work();
      if (done) toast(done);
      await load();
    } catch (error) {
      state.error = errorText(error);
    }
    state.busy = false;
    render();
  }

  function nameForm(kind, label, button, work) {
    const submit = (event) => {
      event.preventDefault();
      const form = event.currentTarget;
      const name = String(new FormData(form).get("name") || "").trim();
      if (name) act(() => work(name), t(`friends.done.${kind}`, { name }));
    };
    return h(
      "form",
      { class: `name-form ${kind}`, onSubmit: submit },
      h("label", { for: `${kind}-name` }, label),
      h("input", { id: `${kind}-name`, name: "name", type: "text", required: true, maxlength: 24, autocomplete: "off" }),
      h("button", { type: "submit", disabled: state.busy }, button),
    );
  }

  function friendTables(friend) {
    if (!friend.tables.length) return null;
    return h(
      "ul",
      { class: "friend-tables" },
      friend.tables.map((table) =>
        h(
          "li",
          {},
          h("a", { href: `/table/${table.table}`, "data-link": "" }, gameName(state.games.find((g) => g.id === table.game) || { id: table.game })),
          " ",
          t(`friends.status.${table.status}`, { steps: table.version || 0 }),
        ),
      ),
    );
  }

  function inviteControl(friend) {
    if (!state.tables.length) return null;
    const id = `invite-${friend.name}`;
    return h(
      "form",
      {
        class: "invite-form",
        onSubmit: (event) => {
          event.preventDefault();
          const table = String(new FormData(event.currentTarget).get("table"));
          act(() => api.invite({ name: friend.name, table }), t("friends.done.invite", { name: friend.name }));
        },
      },
      h("label", { for: id, class: "sr-only" }, t("friends.invite_to", { name: friend.name })),
      h(
        "select",
        { id, name: "table" },
        state.tables.map((table) => h("option", { value: table.table }, gameName(state.games.find((g) => g.id === table.game) || { id: table.game }))),
      ),
      h("button", { type: "submit", class: "invite", disabled: state.busy }, t("friends.invite")),
    );
  }

  function following() {
    const people = state.data.following;
    return h(
      "section",
      { class: "following" },
      h("h2", {}, t("friends.following")),
      nameForm("follow", t("friends.follow_label"), t("friends.follow"), (name) => api.follow({ name })),
      people.length === 0
        ? h("p", {}, t("friends.none"))
        : h(
            "ul",
            { class: "friend-list" },
            people.map((friend) =>
              h(
                "li",
                { dataset: { name: friend.name, online: friend.online ? "yes" : "no" } },
                h("a", { href: `/players/${encodeURIComponent(friend.name)}`, "data-link": "" }, friend.name),
                " ",
                h("span", { class: `presence ${friend.online ? "online" : "offline"}` }, t(friend.online ? "friends.online" : "friends.offline")),
                friendTables(friend),
                h(
                  "div",
                  { class: "card-actions" },
                  inviteControl(friend),
                  h("button", { type: "button", class: "unfollow", disabled: state.busy, onClick: () => act(() => api.unfollow(friend.name)) }, t("friends.unfollow")),
                ),
              ),
            ),
          ),
    );
  }

  function followers() {
    const people = state.data.followers;
    return h(
      "section",
      { class: "followers" },
      h("h2", {}, t("friends.followers")),
      people.length === 0
        ? h("p", {}, t("friends.no_followers"))
        : h(
            "ul",
            {},
            people.map((name) =>
              h("li", { dataset: { name } }, name, " ", h("button", { type: "button", class: "remove-follower", disabled: state.busy, onClick: () => act(() => api.removeFollower(name)) }, t("friends.remove"))),
            ),
          ),
    );
  }

  function privacy() {
    return h(
      "section",
      { class: "presence-setting" },
      h("h2", {}, t("friends.privacy")),
      h(
        "label",
        {},
        h("input", {
          type: "checkbox",
          class: "hide-online",
          checked: state.data.hide_online,
          disabled: state.busy,
          onChange: (event) => act(() => api.privacy({ hide_online: event.target.checked })),
        }),
        " ",
        t("friends.hide_online"),
      ),
    );
  }

  function report() {
    const submit = (event) => {
      event.preventDefault();
      const data = new FormData(event.currentTarget);
      const name = String(data.get("name") || "").trim();
      const body = { kind: "account", name, reason: String(data.get("reason")), note: String(data.get("note") || "") };
      if (name) act(() => api.report(body), t("friends.done.report"));
    };
    return h(
      "section",
      { class: "report" },
      h("h2", {}, t("friends.report")),
      h(
        "form",
        { class: "report-form", onSubmit: submit },
        h("label", { for: "report-name" }, t("friends.report_label")),
        h("input", { id: "report-name", name: "name", type: "text", required: true, maxlength: 24, autocomplete: "off" }),
        h("label", { for: "report-reason" }, t("friends.reason")),
        h("select", { id: "report-reason", name: "reason" }, REASONS.map((reason) => h("option", { value: reason }, t(`friends.reasons.${reason}`)))),
        h("label", { for: "report-note" }, t("friends.note")),
        h("textarea", { id: "report-note", name: "note", maxlength: 500, rows: 3 }),
        h("button", { type: "submit", disabled: state.busy }, t("friends.send_report")),
      ),
    );
  }

  function render() {
    document.title = `${t("friends.title")} · ludoteca`;
    let body;
    if (state.who === undefined) body = h("p", { class: "loading" }, t("app.loading"));
    else if (!state.who) body = h("p", { class: "lead" }, t("friends.sign_in"), " ", h("a", { href: "/account", "data-link": "" }, t("nav.account")));
    else if (!state.data) body = null;
    else body = [following(), followers(), blockSection(state.data.blocked, state.busy, act, "friends"), privacy(), report()];
    replace(root, h("section", { class: "page narrow friends-page" }, h("h1", {}, t("friends.title")), state.error && h("p", { class: "error", role: "alert" }, state.error), body));
  }

  render();
  loadGames()
    .then((games) => {
      state.games = games;
    })
    .catch(() => {})
    .finally(load);
  timer = setInterval(() => {
    if (!state.busy && state.who && !root.contains(document.activeElement)) load();
  }, REFRESH_MS);
  return {
    refresh: render,
    destroy: () => clearInterval(timer),
  };
}
