// The games the server hosts (GET /api/games), fetched once, with per-language look-ups.

import { api } from "./api.js";
import { language } from "./i18n.js";

let cached = null;

/** The catalogue the server put in the page (the same as GET /api/games), if it did. */
function inline() {
  const data = document.getElementById("games-data");
  try {
    return data ? JSON.parse(data.textContent) : null;
  } catch {
    return null;
  }
}

/** Every game: [{id, names, min_players, max_players, catalogue}], from the page, else fetched
 * once per page load. */
export function loadGames() {
  if (!cached) {
    const found = inline();
    if (found) return (cached = Promise.resolve(found));
    cached = api.games().catch((error) => {
      cached = null;
      throw error;
    });
  }
  return cached;
}

/** A value per language ({en, pt, de}) in the reader's language, else English, else any. */
function localized(values) {
  if (!values || typeof values !== "object") return values ?? null;
  return values[language()] ?? values.en ?? Object.values(values)[0] ?? null;
}

export function gameName(game, fallbackId) {
  return (game && localized(game.names)) || fallbackId || (game && game.id) || "";
}

/** The catalogue entry in the reader's language (English when that language is missing). */
export function catalogueEntry(game) {
  const entries = (game && game.catalogue) || {};
  return entries[language()] || entries.en || {};
}

/** A table option's label in the reader's language ({name, label: {lang}} from GET /api/games). */
export function optionLabel(option) {
  return localized(option && option.label) || (option && option.name) || "";
}

/** A value of a table option in words, in the reader's language (the value itself when unnamed). */
export function optionValueLabel(option, value) {
  const words = localized(option && option.value_labels) || {};
  return words[String(value)] ?? String(value);
}

/** A table's options in words ([{name, label, value}]) from its summary's params, in the game's
 * order; [] for a game without options. */
export function tableOptions(game, params) {
  return ((game && game.options) || [])
    .filter((option) => params && params[option.name] !== undefined)
    .map((option) => ({ name: option.name, label: optionLabel(option), value: optionValueLabel(option, params[option.name]) }));
}
