// The block list (docs/accounts.md#friends-and-blocking), on the account page and the friends
// page alike: block a person by name, see whom I blocked, unblock.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** `blocked`: the names; `act(work, done)` runs a change and reloads the page's data. */
export function blockSection(blocked, busy, act, where) {
  const id = `${where}-block-name`;
  const submit = (event) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") || "").trim();
    if (name) act(() => api.block({ name }), t("friends.done.block", { name }));
  };
  return h(
    "section",
    { class: "blocked" },
    h("h2", {}, t("friends.blocked")),
    h("p", { class: "hint" }, t("friends.block_hint")),
    h(
      "form",
      { class: "name-form block", onSubmit: submit },
      h("label", { for: id }, t("friends.block_label")),
      h("input", { id, name: "name", type: "text", required: true, maxlength: 24, autocomplete: "off" }),
      h("button", { type: "submit", disabled: busy }, t("friends.block")),
    ),
    blocked.length > 0 &&
      h(
        "ul",
        { class: "block-list" },
        blocked.map((name) => h("li", { dataset: { name } }, name, " ", h("button", { type: "button", class: "unblock", disabled: busy, onClick: () => act(() => api.unblock(name)) }, t("friends.unblock")))),
      ),
  );
}
