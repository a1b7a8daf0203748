// The ARIA live region (#live) and the short visual toast.

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
