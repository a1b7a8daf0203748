// A table's pace in words ("1 day per move", "Real time · 1 minute per turn") and a turn-based
// deadline as a date and time in the reader's own time zone and language.

import { language, t } from "./i18n.js";

/** The lobby's choices: real-time, or turn-based with 12 hours, 1 day or 3 days per move. */
export const PACES = ["real-time", 12 * 3600, 24 * 3600, 3 * 24 * 3600];

function perMove(seconds) {
  if (seconds % 86400 === 0) return t("pace.days", { count: seconds / 86400 });
  return t("pace.hours", { count: Math.round(seconds / 3600) });
}

function perTurn(seconds) {
  return seconds < 60 ? t("lobby.seconds", { count: seconds }) : t("lobby.minutes", { count: Math.round(seconds / 60) });
}

/** The pace of a table summary (or of a choice of PACES) in words. */
export function paceLabel(table) {
  if (table === "real-time") return t("pace.real_time");
  if (typeof table === "number") return perMove(table);
  if (table.pace === "turn-based") return perMove(table.turn_seconds);
  return t("pace.real_time_turn", { time: perTurn(table.turn_seconds) });
}

/** "Thu 4 Dec, 18:30" (epoch seconds), in the reader's time zone. */
export function deadlineText(epochSeconds) {
  return new Intl.DateTimeFormat(language(), {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(epochSeconds * 1000));
}

/** "Move by Thu 4 Dec, 18:30". */
export function moveBy(epochSeconds) {
  return t("pace.move_by", { date: deadlineText(epochSeconds) });
}

/**
 * A turn-based deadline as the reader needs it: "Move by …" to the person to move, and to
 * everyone else whose turn it is and until when ("has until …" after the name, or "until …"
 * after "To move" in the seats panel).
 */
export function turnDeadline(clock, me, form = "has_until") {
  if (clock.bot) return "";
  return clock.seat === me ? moveBy(clock.deadline) : t(`pace.${form}`, { date: deadlineText(clock.deadline) });
}
