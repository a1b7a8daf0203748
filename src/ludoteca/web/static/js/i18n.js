// Message catalogues per language (static/i18n/<lang>.json), with the words of the boards
// loaded so far (each under its namespace), the reader's language, and t().
// The language comes from localStorage, else from the browser, else English.

const LANGUAGES = ["en", "pt", "de"];
const STORAGE_KEY = "ludoteca.lang";

const catalogues = {};
const boardWords = new Map(); // namespace -> {lang: url} of each board's words loaded so far
let current = "en";
const listeners = new Set();

function fromBrowser() {
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

function stored() {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return LANGUAGES.includes(value) ? value : null;
  } catch {
    return null;
  }
}

/** The catalogue the server put in the page (the language the browser asked for), if it is
 * `lang`'s. */
function inline(lang) {
  const found = document.getElementById("words");
  if (!found || found.dataset.lang !== lang) return null;
  try {
    return JSON.parse(found.textContent);
  } catch {
    return null;
  }
}

async function fetchJson(url, what) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status}`);
  return response.json();
}

/** A board's words in `lang` into that catalogue under `namespace`, unless there already (the
 * server puts a table's board's words in its page). */
async function loadWords(lang, namespace, urls) {
  if (!urls[lang] || catalogues[lang][namespace] !== undefined) return;
  const words = await fetchJson(urls[lang], `${namespace} words ${lang}`);
  catalogues[lang][namespace] ??= words;
}

async function load(lang) {
  if (!catalogues[lang]) catalogues[lang] = inline(lang);
  if (!catalogues[lang]) {
    // beside this module, under the same version of the static files
    catalogues[lang] = await fetchJson(new URL(`../i18n/${lang}.json`, import.meta.url), `catalogue ${lang}`);
  }
  await Promise.all([...boardWords].map(([namespace, urls]) => loadWords(lang, namespace, urls)));
  return catalogues[lang];
}

/** A board's words under `namespace` ({lang: url}, the catalogue's `board.words`): loaded now
 * for the language in use (and English, the fallback) and with every language switched to
 * later. Resolves when they are there; a board whose words cannot be had shows their keys. */
export async function addWords(namespace, urls) {
  if (!namespace) return;
  boardWords.set(namespace, urls);
  const langs = [...new Set([current, "en"])].filter((lang) => catalogues[lang]);
  await Promise.all(langs.map((lang) => loadWords(lang, namespace, urls).catch(() => null)));
}

/** Load the reader's language (English only when that one cannot be had: the catalogues hold
 * the same keys, so one is enough); returns the language in use. */
export async function initI18n() {
  current = stored() || fromBrowser();
  try {
    await load(current);
  } catch {
    current = "en";
    await load("en");
  }
  applyDocument();
  return current;
}

export function language() {
  return current;
}

/** Switch language, remember it, re-translate the static shell and tell every listener. */
export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) return;
  await load(lang);
  current = lang;
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // private mode: the choice lasts for this page only
  }
  applyDocument();
  for (const listener of listeners) listener(lang);
}

export function onLanguageChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function lookup(lang, key) {
  let node = catalogues[lang];
  for (const part of key.split(".")) {
    if (node == null || typeof node !== "object") return undefined;
    node = node[part];
  }
  return node;
}

/** True when the catalogue has this key (in the current language or in English). */
export function has(key) {
  return lookup(current, key) !== undefined || lookup("en", key) !== undefined;
}

/**
 * The message for `key` with `{name}` placeholders filled from `params`. A message that is an
 * object {one, other, ...} is chosen by the plural rules of the language for `params.count`.
 */
export function t(key, params = {}) {
  let message = lookup(current, key);
  if (message === undefined) message = lookup("en", key);
  if (message === undefined) return key;
  if (typeof message === "object") {
    const form = new Intl.PluralRules(current).select(Number(params.count ?? 0));
    message = message[form] ?? message.other ?? "";
  }
  return String(message).replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(params[name]) : whole,
  );
}

/** A number written the way the language writes it ("2.3" in English, "2,3" in German and
 * Portuguese; a minus sign, not a hyphen), with Intl.NumberFormat `options`. */
export function number(value, options = {}) {
  return new Intl.NumberFormat(current, options).format(value);
}

/** A list joined the way the language joins lists ("a, b and c"). */
export function list(items) {
  return new Intl.ListFormat(current, { style: "long", type: "conjunction" }).format(items);
}

/** Translate every element under `root` marked data-i18n / data-i18n-attr="attr:key;...". */
export function translate(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

function applyDocument() {
  document.documentElement.lang = current;
  translate(document);
  const select = document.getElementById("lang-select");
  if (select) select.value = current;
}
