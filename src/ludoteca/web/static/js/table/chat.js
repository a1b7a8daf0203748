// The table's chat (docs/protocol.md#chat): the messages of the rooms this person reads, the
// quick phrases (sent as ids, shown in the reader's own language), and free text where the host
// allowed it and the person is signed in. Every word goes in as text, never as markup. New
// messages from others are said in the polite live region and make a soft sound (muted with M).

import { announce, errorText } from "../announce.js";
import { api } from "../api.js";
import { h, rerender } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { play } from "../sound.js";

export const PHRASES = ["gg", "wp", "your_turn", "thinking", "brb", "oops", "thanks", "gl"];
const MAX_TEXT = 200;
const SHOWN = 100;
// the chat's own refusals; the others are the chat's only while a message of it awaits its answer
const CHAT_ONLY = new Set(["bad_chat", "chat_phrases_only"]);
const CHAT_ERRORS = new Set([...CHAT_ONLY, "not_signed_in", "rate_limited", "server_busy"]);
// why a signed-in person reports a message (the desk's list, docs/accounts.md#reports)
const REASONS = ["abuse", "spam", "name", "cheating", "other"];

/**
 * @param {{send: (message: object) => boolean, seat: () => (number|null), signedIn: () => boolean, redraw: () => void}} options
 */
/** The chat as it was, read only: for the replay of a finished match (those who sat there). */
export function chatRecord(messages, seat) {
  return h(
    "section",
    { class: "panel chat-panel chat-record", "aria-labelledby": "chat-record-title" },
    h("h2", { id: "chat-record-title" }, t("chat.title")),
    h(
      "ol",
      { class: "chat-list", tabindex: "0", "aria-label": t("chat.title") },
      messages.length ? messages.map((message) => line(message, seat)) : h("li", { class: "chat-empty" }, t("chat.empty")),
    ),
  );
}

function words(message) {
  if (message.phrase) return t(`chat.phrase.${message.phrase}`);
  return message.text || "";
}

function who(message) {
  return message.name || t("chat.spectator");
}

function line(message, seat, extra = null) {
  return h(
    "li",
    { class: ["chat-line", message.room === "spectators" && "from-spectators"], dataset: { id: String(message.id), phrase: message.phrase || null } },
    h("span", { class: "chat-who" }, who(message), message.room === "spectators" && seat !== null ? ` (${t("chat.spectators")})` : "", ": "),
    h("span", { class: "chat-words" }, words(message)),
    extra,
  );
}

export function createChat({ send, seat, signedIn, redraw, table }) {
  const chat = { messages: [], text: false, open: false, problem: null, draft: "", waiting: new Set(), ref: 0, reporting: null };
  const root = h("div", { class: "chat-root" });

  function say(body) {
    chat.ref += 1;
    chat.problem = null;
    if (!send({ type: "chat", ref: chat.ref, ...body })) {
      chat.problem = t("errors.offline");
      draw();
      return false;
    }
    chat.waiting.add(chat.ref);
    return true;
  }

  function submit(event) {
    event.preventDefault();
    const input = event.currentTarget.querySelector("input");
    const text = input.value.trim();
    if (!text) return;
    if (say({ text })) {
      chat.draft = "";
      input.value = "";
    }
  }

  function body() {
    const writing = chat.text && signedIn();
    return [
      h(
        "ol",
        { class: "chat-list", tabindex: "0", "aria-label": t("chat.title") },
        chat.messages.length ? chat.messages.map((m) => [line(m, seat(), reportButton(m)), chat.reporting === m.id && reportForm(m)]) : h("li", { class: "chat-empty" }, t("chat.empty")),
      ),
      h(
        "div",
        { class: "chat-phrases", role: "group", "aria-label": t("chat.phrases") },
        PHRASES.map((id, i) => h("button", { type: "button", class: "chat-phrase", dataset: { key: `phrase-${id}`, phrase: id }, "aria-keyshortcuts": i === 0 ? "C" : null, onClick: () => say({ phrase: id }) }, t(`chat.phrase.${id}`))),
      ),
      writing
        ? h(
            "form",
            { class: "chat-form", onSubmit: submit },
            h("label", { class: "sr-only", for: "chat-text" }, t("chat.write")),
            h("input", { id: "chat-text", type: "text", maxlength: String(MAX_TEXT), autocomplete: "off", placeholder: t("chat.write"), value: chat.draft, onInput: (e) => (chat.draft = e.target.value) }),
            h("button", { type: "submit" }, t("chat.send")),
          )
        : h("p", { class: "hint chat-note" }, chat.text ? t("chat.sign_in") : t("chat.phrases_only")),
      chat.problem && h("p", { class: "chat-problem", role: "alert" }, chat.problem),
    ];
  }

  // a signed-in person reports someone else's message to the operators: a reason and a note
  function reportButton(m) {
    if (!signedIn() || (m.seat !== null && m.seat === seat())) return null;
    return h("button", { type: "button", class: "quiet chat-report", dataset: { key: `report-${m.id}` }, "aria-label": t("chat.report_title"), onClick: () => {
      chat.reporting = chat.reporting === m.id ? null : m.id;
      draw();
      const reason = root.querySelector(".chat-report-form select");
      if (reason) reason.focus();
    } }, t("chat.report"));
  }

  function reportForm(m) {
    async function sendReport(event) {
      event.preventDefault();
      const form = event.currentTarget;
      const body = { kind: "message", table: table(), message: String(m.id), reason: form.reason.value, note: form.note.value.trim() };
      try {
        await api.report(body);
        chat.reporting = null;
        chat.problem = null;
        announce(t("friends.done.report"));
      } catch (error) {
        chat.problem = errorText(error);
      }
      draw();
    }
    return h(
      "li",
      { class: "chat-report-line" },
      h(
        "form",
        { class: "chat-report-form", onSubmit: sendReport, "aria-label": t("chat.report_title") },
        h("label", { for: `chat-report-reason-${m.id}` }, t("chat.report_why")),
        h("select", { id: `chat-report-reason-${m.id}`, name: "reason" }, REASONS.map((reason) => h("option", { value: reason }, t(`friends.reasons.${reason}`)))),
        h("label", { class: "sr-only", for: `chat-report-note-${m.id}` }, t("friends.note")),
        h("input", { id: `chat-report-note-${m.id}`, name: "note", type: "text", maxlength: "500", placeholder: t("friends.note") }),
        h("button", { type: "submit", class: "primary" }, t("chat.report_send")),
        h("button", { type: "button", class: "quiet", onClick: () => { chat.reporting = null; draw(); } }, t("chat.report_cancel")),
      ),
    );
  }

  function draw() {
    rerender(root, () =>
      h(
        "details",
        {
          class: "panel chat-panel",
          dataset: { key: "chat" },
          open: chat.open,
          onToggle: (e) => {
            chat.open = e.currentTarget.open;
          },
        },
        h("summary", {}, icon("chat"), t("chat.title"), chat.messages.length ? ` (${chat.messages.length})` : ""),
        body(),
      ),
    );
    const list = root.querySelector(".chat-list");
    if (list) list.scrollTop = list.scrollHeight;
  }

  function add(message) {
    if (chat.messages.some((m) => m.id === message.id)) return;
    chat.messages.push(message);
    chat.messages.sort((a, b) => a.id - b.id);
    if (chat.messages.length > SHOWN) chat.messages.splice(0, chat.messages.length - SHOWN);
  }

  return {
    element: root,
    draw,
    /** A message from the socket; true when it was the chat's. */
    onMessage(message) {
      if (message.type === "chat_history") {
        chat.text = Boolean(message.text);
        chat.messages = [];
        for (const m of message.messages) add(m);
        draw();
        return true;
      }
      if (message.type === "chat") {
        const m = message.message;
        const mine = m.seat !== null && m.seat === seat();
        add(m);
        draw();
        if (!mine) {
          announce(t("chat.said", { name: who(m), words: words(m) }));
          play("chat");
        }
        return true;
      }
      if (message.type === "chat_ack") {
        chat.waiting.delete(message.ref);
        return true;
      }
      if (message.type === "chat_hidden") {
        chat.messages = chat.messages.filter((m) => m.id !== message.id);
        draw();
        return true;
      }
      if (message.type === "error" && (CHAT_ONLY.has(message.code) || (CHAT_ERRORS.has(message.code) && chat.waiting.size))) {
        chat.waiting.clear();
        chat.problem = errorText(message);
        chat.open = true;
        draw();
        return true;
      }
      return false;
    },
    /** C opens the chat and puts the focus on the first quick phrase. */
    onKey(event) {
      if (event.key !== "c" && event.key !== "C") return false;
      chat.open = true;
      draw();
      const first = root.querySelector(".chat-phrase");
      if (first) first.focus();
      redraw();
      return true;
    },
  };
}
