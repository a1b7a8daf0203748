// The fallback board for a game without its own: the position as an outline, and every legal
// action as a button (digits pick the first nine).

import { h, rerender } from "../dom.js";
import { t } from "../i18n.js";

function outline(value) {
  if (Array.isArray(value)) return h("ol", {}, value.map((item) => h("li", {}, outline(item))));
  if (value && typeof value === "object") {
    return h("dl", {}, Object.entries(value).map(([key, item]) => [h("dt", {}, key), h("dd", {}, outline(item))]));
  }
  return String(value);
}

export function createBoard(ctx) {
  let legal = [];
  return {
    render(msg) {
      legal = msg.legal;
      rerender(ctx.root, () =>
        h(
          "div",
          { class: "generic-board" },
          h("div", { class: "action-list" }, legal.map((text, i) => h("button", { type: "button", class: "lit", dataset: { key: `a-${text}`, action: text }, onClick: () => ctx.act(text) }, i < 9 ? `${i + 1}. ${text}` : text))),
          h("details", { open: true }, h("summary", {}, t("generic.position")), outline(msg.view.position)),
        ),
      );
    },
    prompt: (msg) => (msg.legal.length ? t("generic.prompt") : ""),
    onKey(event) {
      const n = Number(event.key);
      if (n >= 1 && n <= 9 && legal[n - 1]) return ctx.act(legal[n - 1]);
      return false;
    },
    describe: (event) => t("generic.event", { kind: event.kind }),
    soundOf: () => null,
    seatLabel: () => null,
    seatFacts: () => [],
    outcome: (view) => t("generic.outcome", { reason: (view.outcome && view.outcome.reason) || "" }),
    revealed: () => null,
    keys: () => [["1–9", t("generic.key")]],
  };
}
