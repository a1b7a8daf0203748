// The controls of "your turn": the button that turns pushes on for this device (at a table, or
// for the account), and the account's e-mail address.

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { language, t } from "./i18n.js";
import { errorText } from "./announce.js";
import { disablePush, enablePush, offered, pushOn, pushPossible } from "./notify.js";

/** A button that turns pushes on (or off) for this device: for the seat or the account. */
export function pushControl(seat) {
  const root = h("div", { class: "notify-control" });
  let note = "";

  function render(offer) {
    if (!offer.push) return replace(root);
    if (!pushPossible()) return replace(root, h("p", { class: "note" }, t("notify.unsupported")));
    const key = seat ? seat.table : "";
    const on = pushOn(key) && Notification.permission === "granted";
    replace(
      root,
      h(
        "button",
        {
          type: "button",
          class: on ? "notify-off" : "notify-on",
          onClick: async (event) => {
            event.currentTarget.disabled = true;
            try {
              if (on) {
                await disablePush(key);
                note = t("notify.stopped");
              } else {
                const outcome = await enablePush(seat);
                if (outcome === "on") note = t("notify.enabled");
                else note = t(`notify.${outcome}`); // denied, refused, unsupported
              }
            } catch (error) {
              note = `${t("notify.failed")} ${errorText(error)}`;
            }
            render(offer);
          },
        },
        on ? t("notify.stop") : t("notify.enable"),
      ),
      note && h("p", { class: "note", role: "status" }, note),
    );
  }

  offered().then(render);
  return root;
}

/** The account's notifications: this device's pushes, and the e-mail address. A refused address
 * stays as typed, with the reason beside the field (docs/web.md#forms). */
export function notifySection() {
  const root = h("section", { class: "notify-settings" });
  let error = "";
  let typed = null; // the address as typed when the server refused it (null: show the stored one)

  async function render() {
    const offer = await offered();
    if (!offer.push && !offer.mail) return replace(root);
    const mine = await api.myNotify().catch(() => ({ mail: null, confirmed: false, devices: 0 }));
    const save = async (event) => {
      event.preventDefault();
      const address = String(new FormData(event.currentTarget).get("address") || "");
      try {
        const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
        await api.setMail({ address, lang: language(), zone });
        error = "";
        typed = null;
      } catch (failure) {
        error = errorText(failure);
        typed = address;
      }
      await render();
      if (error) document.getElementById("mail-address")?.focus();
    };
    const remove = () => {
      error = "";
      typed = null;
      api.dropMail().then(render);
    };
    replace(
      root,
      h("h2", {}, t("notify.title")),
      offer.push && [pushControl(null), h("p", { class: "note devices" }, t("notify.devices", { count: mine.devices }))],
      offer.mail &&
        h(
          "form",
          { class: "mail-form", onSubmit: save },
          h(
            "div",
            { class: "field" },
            h("label", { for: "mail-address" }, t("notify.mail_label")),
            h("input", {
              id: "mail-address",
              name: "address",
              type: "email",
              autocomplete: "email",
              required: true,
              maxlength: 254,
              value: typed === null ? mine.mail || "" : typed,
              "aria-invalid": error ? "true" : "false",
              "aria-describedby": error ? "mail-address-error" : null,
              onInput: (event) => {
                if (error) typed = event.target.value;
              },
            }),
            error && h("p", { id: "mail-address-error", class: "field-error", role: "alert" }, error),
          ),
          h("div", { class: "card-actions" }, h("button", { type: "submit" }, t("notify.mail_save")), mine.mail && h("button", { type: "button", class: "quiet", onClick: remove }, t("notify.mail_remove"))),
          mine.mail && h("p", { class: "note mail-state", role: "status" }, t(mine.confirmed ? "notify.mail_confirmed" : "notify.mail_pending", { address: mine.mail })),
        ),
    );
  }

  render();
  return root;
}
