// A small, safe Markdown renderer for the rules pages: headings, paragraphs, lists (nested),
// tables, block quotes, code, rules, bold, italic, code spans and links. It builds DOM nodes;
// every other character is text, so nothing in the source can inject markup or script.

import { h } from "./dom.js";

const INLINE =
  /\\([\\`*_[\]()#+\-.!|>~])|`([^`]+)`|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s](?:[^*]*[^*\s])?)\*|(?<![\w])_([^_\s](?:[^_]*[^_\s])?)_(?![\w])|\[([^\]]+)\]\(\s*([^)\s]+)(?:\s+"([^"]*)")?\s*\)|<(https?:\/\/[^>\s]+)>|(?<![\w/"(])(https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"])/;

function safeUrl(url) {
  const trimmed = url.trim();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return null; // javascript:, data:, ... are refused
  return trimmed;
}

function link(text, url, title, plain = false) {
  const label = plain ? text : inline(text);
  const href = safeUrl(url);
  if (href === null) return label;
  const external = /^https?:/i.test(href);
  return h(
    "a",
    { href, title: title || null, target: external ? "_blank" : null, rel: external ? "noopener noreferrer" : null },
    label,
  );
}

/** Inline Markdown to an array of nodes and strings. */
function inline(text) {
  const out = [];
  let rest = text;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push(rest);
      break;
    }
    if (m.index) out.push(rest.slice(0, m.index));
    const [whole, escaped, code, bold1, bold2, em1, em2, linkText, url, title, angled, bare] = m;
    const auto = angled ?? bare;
    if (escaped !== undefined) out.push(escaped);
    else if (code !== undefined) out.push(h("code", {}, code));
    else if (bold1 !== undefined || bold2 !== undefined) out.push(h("strong", {}, inline(bold1 ?? bold2)));
    else if (em1 !== undefined || em2 !== undefined) out.push(h("em", {}, inline(em1 ?? em2)));
    else if (linkText !== undefined) out.push(link(linkText, url, title));
    else if (auto !== undefined) out.push(link(auto, auto, null, true));
    rest = rest.slice(m.index + whole.length);
  }
  return out;
}

const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

function cells(line) {
  let body = line.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|") && !body.endsWith("\\|")) body = body.slice(0, -1);
  const found = [];
  let cell = "";
  for (let i = 0; i < body.length; i += 1) {
    if (body[i] === "\\" && body[i + 1] === "|") {
      cell += "|";
      i += 1;
    } else if (body[i] === "|") {
      found.push(cell.trim());
      cell = "";
    } else {
      cell += body[i];
    }
  }
  found.push(cell.trim());
  return found;
}

function table(lines) {
  const head = cells(lines[0]);
  const aligns = cells(lines[1]).map((c) =>
    c.startsWith(":") && c.endsWith(":") ? "center" : c.endsWith(":") ? "right" : null,
  );
  const row = (values, tag) =>
    h("tr", {}, head.map((_, i) => h(tag, { style: aligns[i] ? { textAlign: aligns[i] } : null, scope: tag === "th" ? "col" : null }, inline(values[i] ?? ""))));
  return h(
    "div",
    { class: "table-scroll" },
    h("table", {}, h("thead", {}, row(head, "th")), h("tbody", {}, lines.slice(2).map((l) => row(cells(l), "td")))),
  );
}

function list(lines, start) {
  // lines[start] is an item; collect items of this indentation and their nested lines
  const first = LIST_ITEM.exec(lines[start]);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const items = [];
  let i = start;
  while (i < lines.length) {
    const m = LIST_ITEM.exec(lines[i]);
    if (!m || m[1].length !== indent || /\d/.test(m[2]) !== ordered) break;
    const item = { text: m[3], children: [] };
    i += 1;
    while (i < lines.length && lines[i].trim() && !(LIST_ITEM.test(lines[i]) && LIST_ITEM.exec(lines[i])[1].length <= indent)) {
      item.children.push(lines[i]);
      i += 1;
    }
    items.push(item);
  }
  const el = h(ordered ? "ol" : "ul", { start: ordered && parseInt(first[2], 10) !== 1 ? parseInt(first[2], 10) : null });
  for (const item of items) {
    const nested = item.children.findIndex((l) => LIST_ITEM.test(l));
    const text = [item.text, ...item.children.slice(0, nested < 0 ? undefined : nested).map((l) => l.trim())].join(" ");
    const li = h("li", {}, inline(text));
    if (nested >= 0) li.append(blocks(item.children.slice(nested)));
    el.append(li);
  }
  return { el, next: i };
}

function blocks(lines, shift = 0) {
  const root = document.createDocumentFragment();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const trimmed = line.trim();
    if (!trimmed) {
      i += 1;
    } else if (trimmed.startsWith("```")) {
      const code = [];
      i += 1;
      while (i < lines.length && !lines[i].trim().startsWith("```")) code.push(lines[i++]);
      i += 1;
      root.append(h("pre", {}, h("code", {}, code.join("\n"))));
    } else if (/^#{1,6}\s/.test(trimmed)) {
      const level = Math.min(6, trimmed.match(/^#+/)[0].length + shift);
      root.append(h(`h${level}`, {}, inline(trimmed.replace(/^#+\s+/, "").replace(/\s+#+$/, ""))));
      i += 1;
    } else if (/^([-*_])(\s*\1){2,}$/.test(trimmed)) {
      root.append(h("hr"));
      i += 1;
    } else if (trimmed.startsWith(">")) {
      const quoted = [];
      while (i < lines.length && lines[i].trim().startsWith(">")) quoted.push(lines[i++].trim().replace(/^>\s?/, ""));
      root.append(h("blockquote", {}, blocks(quoted, shift)));
    } else if (trimmed.includes("|") && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1]) && lines[i + 1].includes("-")) {
      const rows = [];
      while (i < lines.length && lines[i].trim() && lines[i].includes("|")) rows.push(lines[i++]);
      root.append(table(rows));
    } else if (LIST_ITEM.test(line)) {
      const { el, next } = list(lines, i);
      root.append(el);
      i = next;
    } else {
      const para = [];
      while (
        i < lines.length &&
        lines[i].trim() &&
        !/^(#{1,6}\s|```|>)/.test(lines[i].trim()) &&
        !LIST_ITEM.test(lines[i])
      ) {
        para.push(lines[i++].trim());
      }
      root.append(h("p", {}, inline(para.join(" "))));
    }
  }
  return root;
}

/** Render Markdown source into a fragment; headings move down `shift` levels. */
export function markdown(source, shift = 0) {
  return blocks(String(source || "").replace(/\r\n?/g, "\n").split("\n"), shift);
}
