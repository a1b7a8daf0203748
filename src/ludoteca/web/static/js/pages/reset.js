// A new password (/reset#t=TOKEN): the page a mailed reset link opens (docs/accounts.md#password-reset).
// The token rides in the address's fragment, which the browser never sends to a server; the page
// asks whose account it is, then sets the new password with it (the rules of sign-up, the refusal
// beside the field and what was typed kept) and lands on the account page, signed in.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { errorText } from "../announce.js";
import { navigate } from "../nav.js";
import { resetPassword } from "../account.js";

function tokenOf(hash) {
  return new URLSearchParams(hash.replace(/^#/, "")).get("t") || "";
}

export function mount(root) {
  const token = tokenOf(location.hash);
  // name: whose account (undefined while asking); dead: the link does not work; typed: the password
  const state = { name: undefined, dead: null, busy: false, typed: "", invalid: null, error: null };

  async function submit(event) {
    event.preventDefault();
    state.typed = String(new FormData(event.currentTarget).get("password") || "");
    state.busy = true;
    state.invalid = null;
    state.error = null;
    render();
    try {
      await resetPassword(token, state.typed);
      navigate("/account?reset=done", { replace: true });
      return;
    } catch (error) {
      if (error && error.code === "bad_reset_link") state.dead = errorText(error);
      else if (error && error.code === "bad_password") state.invalid = errorText(error);
      else state.error = errorText(error);
    }
    state.busy = false;
    render();
    const box = document.getElementById("reset-password");
    if (state.invalid && box) box.focus();
  }

  function form() {
    const wrong = state.invalid;
    return h(
      "form",
      { class: "account-form reset", onSubmit: submit },
      h("p", { class: "lead" }, t("reset.lead", { name: state.name })),
      // the account's name, for password managers to file the new password under
      h("input", { type: "text", name: "username", autocomplete: "username", value: state.name, hidden: true, readonly: true }),
      h(
        "div",
        { class: "field" },
        h("label", { for: "reset-password" }, t("reset.password")),
        h("input", {
          id: "reset-password",
          name: "password",
          type: "password",
          autocomplete: "new-password",
          required: true,
          maxlength: 256,
          value: state.typed,
          "aria-invalid": wrong ? "true" : "false",
          "aria-describedby": wrong ? "reset-password-error" : null,
          onInput: (event) => {
            state.typed = event.target.value;
          },
        }),
        wrong && h("p", { id: "reset-password-error", class: "field-error", role: "alert" }, wrong),
      ),
      h("p", { class: "hint" }, t("account.password_rules")),
      h("div", { class: "card-actions" }, h("button", { type: "submit", class: "primary", disabled: state.busy }, t("reset.submit"))),
    );
  }

  function render() {
    document.title = `${t("reset.title")} · ludoteca`;
    let body;
    if (state.dead) body = [h("p", { class: "error reset-dead", role: "alert" }, state.dead), h("p", {}, h("a", { href: "/account", "data-link": "" }, t("reset.ask_again")))];
    else if (state.name === undefined) body = h("p", { class: "loading" }, t("reset.checking"));
    else body = form();
    replace(root, h("section", { class: "page narrow account-page reset-page" }, h("h1", {}, t("reset.title")), state.error && h("p", { class: "error", role: "alert" }, state.error), body));
  }

  render();
  api.resetAccount({ token }).then(
    (found) => {
      state.name = found.name;
      render();
    },
    (error) => {
      state.dead = errorText(error);
      render();
    },
  );
  return { refresh: render };
}
