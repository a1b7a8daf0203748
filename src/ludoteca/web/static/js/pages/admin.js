// The operator's desk (/admin, docs/moderation.md): open and closed reports with their context,
// and on each the actions it calls for (close it, hide the message, mute or suspend the person,
// end the table); mute, suspend or lift by name; the audit log. Every action asks for a why,
// written with it to the audit log. The server answers 403 to anyone but an operator.

import { api } from "../api.js";
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { errorText, toast } from "../announce.js";

const SPANS = [
  ["3600", "hour"],
  ["86400", "day"],
  ["604800", "week"],
  ["2592000", "month"],
  ["", "forever"],
];

function when(at) {
  return at ? new Date(at * 1000).toLocaleString() : "";
}

export function mount(root) {
  const state = { allowed: undefined, closed: false, reports: [], audit: [], error: null, busy: false, why: "" };

  async function load() {
    try {
      const [reports, audit] = await Promise.all([api.adminReports(state.closed), api.adminAudit()]);
      state.reports = reports.reports;
      state.audit = audit.audit;
      state.allowed = true;
    } catch (error) {
      if (error.code === "not_operator" || error.code === "not_signed_in") state.allowed = false;
      else state.error = errorText(error);
    }
    render();
  }

  async function act(work, done) {
    const why = state.why.trim();
    if (!why) {
      state.error = t("admin.why_first");
      render();
      document.getElementById("admin-why").focus();
      return;
    }
    state.busy = true;
    state.error = null;
    render();
    try {
      await work(why);
      toast(done);
      state.why = "";
    } catch (error) {
      state.error = errorText(error);
    }
    state.busy = false;
    await load();
  }

  function button(cls, label, work, done) {
    return h("button", { type: "button", class: cls, disabled: state.busy, onClick: () => act(work, done) }, label);
  }

  function reportItem(report) {
    const name = report.account;
    return h(
      "li",
      { class: "report", dataset: { report: String(report.id) } },
      h("p", { class: "report-head" }, h("strong", {}, `#${report.id} ${t(`friends.reasons.${report.reason}`)}`), " · ", t(`admin.kind.${report.kind}`), name && [" · ", name], " · ", when(report.at)),
      h("p", {}, t("admin.reported_by", { name: report.reporter })),
      report.table && h("p", {}, t("admin.at_table"), " ", h("a", { href: `/table/${report.table}`, "data-link": "" }, report.table), report.message && [" · ", t("admin.message", { id: report.message })]),
      report.note && h("blockquote", { class: "note" }, report.note),
      report.kind === "message" &&
        (report.context ? h("ol", { class: "context" }, report.context.map((m) => h("li", { class: m.id === report.message ? "reported" : null }, m.author ? `${m.author}: ` : "", m.text || ""))) : h("p", { class: "hint" }, t("admin.no_context"))),
      report.closed_at
        ? h("p", { class: "closed" }, t("admin.closed_by", { name: report.closed_by, when: when(report.closed_at) }))
        : h(
            "div",
            { class: "card-actions" },
            button("close-report", t("admin.close"), (why) => api.adminClose(report.id, { why }), t("admin.done.close")),
            report.message && button("hide-message", t("admin.hide"), (why) => api.adminHide({ table: report.table, message: report.message, why }), t("admin.done.hide")),
            name && button("mute-day", t("admin.mute_day"), (why) => api.adminSanction({ name, kind: "mute", seconds: 86400, why }), t("admin.done.sanction", { name })),
            name && button("suspend-week", t("admin.suspend_week"), (why) => api.adminSanction({ name, kind: "suspend", seconds: 604800, why }), t("admin.done.sanction", { name })),
            name && button("suspend-forever danger", t("admin.suspend_forever"), (why) => api.adminSanction({ name, kind: "suspend", why }), t("admin.done.sanction", { name })),
            report.table && button("end-table", t("admin.end_table"), (why) => api.adminEnd(report.table, { why }), t("admin.done.end")),
          ),
    );
  }

  function accountForm() {
    const submit = (event) => {
      event.preventDefault();
      const data = new FormData(event.currentTarget);
      const name = String(data.get("name") || "").trim();
      const action = String(data.get("action"));
      const seconds = String(data.get("span"));
      if (!name) return;
      const [verb, kind] = action.split(" ");
      const body = { name, kind };
      act(
        (why) => (verb === "lift" ? api.adminLift({ ...body, why }) : api.adminSanction({ ...body, why, ...(seconds ? { seconds: Number(seconds) } : {}) })),
        t("admin.done.sanction", { name }),
      );
    };
    return h(
      "form",
      { class: "sanction-form", onSubmit: submit },
      h("h2", {}, t("admin.account")),
      h("label", { for: "sanction-name" }, t("account.name")),
      h("input", { id: "sanction-name", name: "name", type: "text", required: true, maxlength: 24, autocomplete: "off" }),
      h("label", { for: "sanction-action" }, t("admin.action")),
      h("select", { id: "sanction-action", name: "action" }, ["set mute", "set suspend", "lift mute", "lift suspend"].map((a) => h("option", { value: a }, t(`admin.actions.${a.replace(" ", "_")}`)))),
      h("label", { for: "sanction-span" }, t("admin.span")),
      h("select", { id: "sanction-span", name: "span" }, SPANS.map(([value, key]) => h("option", { value }, t(`admin.spans.${key}`)))),
      h("button", { type: "submit", disabled: state.busy }, t("admin.apply")),
    );
  }

  function auditLog() {
    return h(
      "section",
      { class: "audit" },
      h("h2", {}, t("admin.audit")),
      state.audit.length === 0
        ? h("p", {}, t("admin.audit_empty"))
        : h(
            "table",
            {},
            h("thead", {}, h("tr", {}, ["when", "who", "what", "target", "why"].map((k) => h("th", { scope: "col" }, t(`admin.columns.${k}`))))),
            h(
              "tbody",
              {},
              state.audit.map((e) => h("tr", {}, h("td", {}, when(e.at)), h("td", {}, e.operator), h("td", {}, e.action), h("td", {}, e.target), h("td", {}, e.reason))),
            ),
          ),
    );
  }

  function desk() {
    return [
      h(
        "div",
        { class: "field" },
        h("label", { for: "admin-why" }, t("admin.why")),
        h("textarea", {
          id: "admin-why",
          rows: 2,
          maxlength: 500,
          value: state.why,
          onInput: (event) => {
            state.why = event.target.value;
          },
        }),
        h("p", { class: "hint" }, t("admin.why_hint")),
      ),
      h(
        "section",
        { class: "reports" },
        h("h2", {}, t(state.closed ? "admin.closed_reports" : "admin.open_reports")),
        h(
          "button",
          {
            type: "button",
            class: "toggle-closed",
            onClick: () => {
              state.closed = !state.closed;
              load();
            },
          },
          t(state.closed ? "admin.show_open" : "admin.show_closed"),
        ),
        state.reports.length === 0 ? h("p", { class: "no-reports" }, t("admin.no_reports")) : h("ul", { class: "report-list" }, state.reports.map(reportItem)),
      ),
      accountForm(),
      auditLog(),
    ];
  }

  function render() {
    document.title = `${t("admin.title")} · ludoteca`;
    let body;
    if (state.allowed === undefined) body = state.error ? null : h("p", { class: "loading" }, t("app.loading"));
    else if (!state.allowed) body = h("p", { class: "lead not-operator" }, t("admin.not_operator"));
    else body = desk();
    replace(root, h("section", { class: "page narrow admin-page" }, h("h1", {}, t("admin.title")), state.error && h("p", { class: "error", role: "alert" }, state.error), body));
  }

  render();
  load();
  return { refresh: render };
}
