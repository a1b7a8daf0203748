// Your account (/account): sign up or in (password or passkey); once signed in, your tables
// (open, playing, finished), the people you blocked, a further passkey, signing out here or
// everywhere, the export of
// everything the server holds about you, deleting the account, and what is kept (privacy).

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { language, t } from "../i18n.js";
import { errorText } from "../announce.js";
import { gameName, loadGames } from "../games.js";
import { notifySection } from "../notify-ui.js";
import { offered } from "../notify.js";
import { blockSection } from "../blocks-ui.js";
import { deleteAccount, makePasskey, me, passkeySignIn, passkeysAvailable, signIn, signOut, signUp } from "../account.js";

const GROUPS = [
  ["open", ["open", "starting"]],
  ["playing", ["playing"]],
  ["over", ["over"]],
];

export function mount(root, _match, params) {
  const justReset = params && params.get("reset") === "done";
  // what the person typed in each form, kept across a refused submit, and the refusal shown
  // beside the field it is about: { kind, name, text } (docs/web.md#forms)
  // forgot: the "forgot the password" form is shown instead of signing in; sent: its link was asked for
  const state = { who: undefined, tables: null, error: null, busy: false, games: [], typed: { signin: {}, signup: {}, forgot: {} }, invalid: null, mail: false, forgot: false, sent: false };

  async function load() {
    state.who = await me(true);
    state.tables = state.who ? await api.myTables().catch(() => []) : null;
    state.blocked = state.who ? await api.friends().then((f) => f.blocked, () => []) : [];
    render();
  }

  // which field a refusal is about; a refused password is typed again (as browsers and password
  // managers expect after "wrong password"), a refused name keeps the password that was fine
  const FIELD_OF = { bad_name: "name", name_taken: "name", bad_password: "password", bad_login: "password" };

  async function attempt(work, kind) {
    state.busy = true;
    state.error = null;
    state.invalid = null;
    render();
    try {
      await work();
      state.typed = { signin: {}, signup: {}, forgot: {} };
      await load();
    } catch (error) {
      const text = error && error.name === "NotAllowedError" ? t("account.passkey_cancelled") : errorText(error);
      const name = kind && error && FIELD_OF[error.code];
      if (name) {
        state.invalid = { kind, name, text };
        if (name === "password") state.typed[kind].password = "";
      } else state.error = text;
    }
    state.busy = false;
    render();
    focusInvalid();
  }

  function focusInvalid() {
    const invalid = state.invalid && document.getElementById(`${state.invalid.kind}-${state.invalid.name}`);
    if (invalid) invalid.focus();
  }

  function field(kind, name, label, type, autocomplete, maxlength = type === "password" ? 256 : 24) {
    const id = `${kind}-${name}`;
    const wrong = state.invalid && state.invalid.kind === kind && state.invalid.name === name ? state.invalid.text : null;
    const typed = state.typed[kind];
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, label),
      h("input", {
        id,
        name,
        type,
        autocomplete,
        required: true,
        maxlength,
        value: typed[name] || "",
        "aria-invalid": wrong ? "true" : "false",
        "aria-describedby": wrong ? `${id}-error` : null,
        onInput: (event) => {
          typed[name] = event.target.value;
        },
      }),
      wrong && h("p", { id: `${id}-error`, class: "field-error", role: "alert" }, wrong),
    );
  }

  function form(kind) {
    const submit = (event) => {
      event.preventDefault();
      const data = new FormData(event.currentTarget);
      const name = String(data.get("name") || "");
      const password = String(data.get("password") || "");
      state.typed[kind] = { name, password };
      attempt(() => (kind === "signup" ? signUp(name, password) : signIn(name, password)), kind);
    };
    const passkey = (event) => {
      const formEl = event.currentTarget.closest("form");
      const name = String(new FormData(formEl).get("name") || "");
      if (kind === "signup" && !name) {
        state.error = null;
        state.invalid = { kind, name: "name", text: t("account.name_first") };
        render();
        focusInvalid();
        return;
      }
      attempt(() => (kind === "signup" ? makePasskey(name) : passkeySignIn()), kind);
    };
    return h(
      "form",
      { class: `account-form ${kind}`, onSubmit: submit },
      h("h2", {}, t(`account.form.${kind}.title`)),
      field(kind, "name", t("account.name"), "text", kind === "signup" ? "username" : "username webauthn"),
      field(kind, "password", t("account.password"), "password", kind === "signup" ? "new-password" : "current-password"),
      kind === "signup" && h("p", { class: "hint" }, t("account.password_rules")),
      h(
        "div",
        { class: "card-actions" },
        h("button", { type: "submit", class: "primary", disabled: state.busy }, t(`account.form.${kind}.password`)),
        passkeysAvailable() && h("button", { type: "button", class: `passkey ${kind}`, disabled: state.busy, onClick: passkey }, t(`account.form.${kind}.passkey`)),
      ),
      kind === "signin" && state.mail && h("p", {}, h("button", { type: "button", class: "quiet forgot-password", onClick: () => showForgot(true) }, t("account.forgot.link"))),
    );
  }

  function showForgot(on) {
    state.forgot = on;
    state.sent = false;
    state.invalid = null;
    state.error = null;
    if (on && !state.typed.forgot.who) state.typed.forgot.who = state.typed.signin.name || "";
    render();
    const first = document.getElementById(on ? "forgot-who" : "signin-name");
    if (first) first.focus();
  }

  // "Forgot the password": a link mailed to the account's confirmed address (docs/accounts.md#password-reset)
  async function askReset(event) {
    event.preventDefault();
    const who = String(new FormData(event.currentTarget).get("who") || "");
    state.typed.forgot = { who };
    state.busy = true;
    state.invalid = null;
    state.error = null;
    render();
    try {
      await api.askReset({ who, lang: language() });
      state.sent = true;
    } catch (error) {
      state.invalid = { kind: "forgot", name: "who", text: errorText(error) };
    }
    state.busy = false;
    render();
    if (state.invalid) focusInvalid();
    else document.querySelector(".forgot-sent")?.focus();
  }

  function forgotForm() {
    return h(
      "form",
      { class: "account-form forgot", onSubmit: askReset },
      h("h2", {}, t("account.forgot.title")),
      h("p", { class: "hint" }, t("account.forgot.lead")),
      field("forgot", "who", t("account.forgot.who"), "text", "username", 254),
      state.sent && h("p", { class: "note forgot-sent", role: "status", tabindex: "-1" }, t("account.forgot.sent")),
      h(
        "div",
        { class: "card-actions" },
        h("button", { type: "submit", class: "primary", disabled: state.busy }, t("account.forgot.send")),
        h("button", { type: "button", class: "quiet forgot-back", onClick: () => showForgot(false) }, t("account.forgot.back")),
      ),
    );
  }

  function tableItem(table) {
    const opponents = table.players.filter((p) => p.seat !== table.seat).map((p) => (p.bot ? t("seat.bot", { n: p.seat + 1, level: t(`levels.${p.level || "medium"}`) }) : p.name));
    return h(
      "li",
      { dataset: { table: table.table } },
      h("a", { href: table.status === "over" ? `/replay/${table.table}` : `/table/${table.table}`, "data-link": "" }, gameName(state.games.find((g) => g.id === table.game) || { id: table.game })),
      " ",
      t("account.against", { names: opponents.join(", ") }),
      table.rated && h("span", { class: "badge" }, t("account.rated")),
      table.result && h("span", { class: `result ${table.result}` }, t(`player.result.${table.result}`)),
    );
  }

  function myTables() {
    const tables = state.tables || [];
    return h(
      "section",
      { class: "my-tables" },
      h("h2", {}, t("account.my_tables")),
      tables.length === 0 && h("p", {}, t("account.no_tables")),
      GROUPS.map(([key, statuses]) => {
        const found = tables.filter((table) => statuses.includes(table.status));
        return found.length ? [h("h3", {}, t(`account.tables.${key}`)), h("ul", { class: "table-list" }, found.map(tableItem))] : null;
      }),
    );
  }

  function signedIn() {
    const who = state.who;
    return [
      h("p", { class: "lead signed-in" }, t("account.signed_in_as", { name: who.name }), " ", h("a", { href: `/players/${encodeURIComponent(who.name)}`, "data-link": "" }, t("account.profile")), " ", h("a", { class: "friends-link", href: "/friends", "data-link": "" }, t("account.friends"))),
      myTables(),
      notifySection(),
      blockSection(state.blocked || [], state.busy, (work) => attempt(work), "account"),
      h(
        "section",
        { class: "account-actions" },
        h("h2", {}, t("account.manage")),
        h(
          "div",
          { class: "card-actions" },
          passkeysAvailable() && h("button", { type: "button", class: "add-passkey", disabled: state.busy, onClick: () => attempt(() => makePasskey(null)) }, t("account.add_passkey")),
          h("button", { type: "button", class: "sign-out", disabled: state.busy, onClick: () => attempt(() => signOut(false)) }, t("account.sign_out")),
          h("button", { type: "button", class: "sign-out-everywhere", disabled: state.busy, onClick: () => attempt(() => signOut(true)) }, t("account.sign_out_everywhere")),
          h("a", { class: "button", href: "/api/me/export", download: "ludoteca-account.json" }, t("account.export")),
          h(
            "button",
            {
              type: "button",
              class: "danger delete-account",
              disabled: state.busy,
              onClick: () => {
                if (window.confirm(t("account.delete_confirm"))) attempt(deleteAccount);
              },
            },
            t("account.delete"),
          ),
        ),
      ),
    ];
  }

  function render() {
    document.title = `${t("account.title")} · ludoteca`;
    replace(
      root,
      h(
        "section",
        { class: "page narrow account-page" },
        h("h1", {}, t("account.title")),
        state.error && h("p", { class: "error", role: "alert" }, state.error),
        justReset && state.who && h("p", { class: "note reset-done", role: "status" }, t("reset.done")),
        state.who === undefined ? h("p", { class: "loading" }, t("app.loading")) : state.who ? signedIn() : [h("p", { class: "lead" }, t("account.lead")), h("div", { class: "account-forms" }, state.forgot ? forgotForm() : form("signin"), form("signup"))],
        h("section", { class: "privacy", id: "privacy" }, h("h2", {}, t("account.privacy_title")), ["stored", "passwords", "sessions", "devices", "notify", "records", "delete"].map((key) => h("p", {}, t(`account.privacy.${key}`)))),
      ),
    );
  }

  render();
  offered().then((offer) => {
    state.mail = !!offer.mail;
    if (state.who === null) render();
  });
  loadGames()
    .then((games) => {
      state.games = games;
    })
    .catch(() => {})
    .finally(load);
  return { refresh: render };
}
