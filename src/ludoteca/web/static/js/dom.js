// Tiny DOM builders. Text always goes in as text nodes: nothing here parses HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, props, children) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "class") {
      el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (key === "dataset") {
      // a null, undefined or false entry is left out (an attribute only when it applies)
      for (const [name, item] of Object.entries(value)) if (item !== null && item !== undefined && item !== false) el.dataset[name] = item;
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (key === "value" && "value" in el) {
      el.value = value;
    } else if (key === "checked" || key === "selected") {
      el[key] = Boolean(value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

/** Append children: nodes, strings (as text), numbers, arrays; null/false are skipped. */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h("button", {class: "x", onClick}, "text", child). */
export function h(tag, props, ...children) {
  return fill(document.createElement(tag), props, children);
}

/** An SVG element, same signature as h(). */
export function s(tag, props, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), props, children);
}

/** Replace the contents of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

function selectorOf(el) {
  if (el.dataset && el.dataset.key) return `[data-key="${CSS.escape(el.dataset.key)}"]`;
  if (el.id) return `#${CSS.escape(el.id)}`;
  return null;
}

/** Re-render `root` with `build()` and put the keyboard focus back where it was (by data-key or
 * id), and reopen the <details> that were open, so a board redrawn from a new state keeps the
 * player's place. */
export function rerender(root, build) {
  const active = document.activeElement;
  const selector = active && active !== root && root.contains(active) ? selectorOf(active) : null;
  const open = [...root.querySelectorAll("details[open][data-key]")].map((el) => el.dataset.key);
  replace(root, build());
  for (const key of open) {
    const details = root.querySelector(`details[data-key="${CSS.escape(key)}"]`);
    if (details) details.open = true;
  }
  const again = selector ? root.querySelector(selector) : null;
  if (again) again.focus({ preventScroll: true });
}
