// The ARIA live region (#live) and the short visual toast: the one place that shows a message
// briefly, and the one place that turns a server error code into a sentence.

import { has, t } from "./i18n.js";

let timer = null;
let toastTimer = null;

/** Say `text` to screen readers (polite). Repeated text is announced again. */
export function announce(text) {
  const live = document.getElementById("live");
  if (!live || !text) return;
  clearTimeout(timer);
  live.textContent = "";
  timer = setTimeout(() => {
    live.textContent = text;
  }, 60);
}

/** Show `text` briefly on screen (and to screen readers through role=status). */
export function toast(text, ms = 2600) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
  }, ms);
}

/** The reader's sentence for an error ({code, message}) from the API or the websocket. */
export function errorText(error) {
  const code = error && error.code;
  if (code && code !== "http" && has(`errors.${code}`)) return t(`errors.${code}`, { message: error.message || "" });
  return t("errors.generic");
}

/** Toast an error from the API or the websocket in the reader's language. */
export function toastError(error) {
  toast(errorText(error));
}
