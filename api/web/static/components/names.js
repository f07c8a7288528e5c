// Players' names where two of them must be told apart (a duel's head, the pairings, the previews,
// the standings, the lobby): the whole name when it fits the room the screen gives it, else its
// start and its distinguishing end around an ellipsis ("NobleMo…58"), never a cut-off end that
// makes NobleMoose58 and NobleMouse91 look the same. A house bot's name carries a small robot
// mark; screen readers hear the whole name, and "(bot)" after a bot's.

import { h } from "../dom.js";
import { t } from "../strings.js";

const ELLIPSIS = "…";
const TAIL_MAX = 4; // the ending kept: a name's trailing digits (as generated: NobleMoose58), or
const TAIL_LETTERS = 3; // its last letters

// `p`: a player line ({id, nickname, bot}); `you`: the viewer's id ("You" for their own name).
export function playerName(p, you = null, extra = "") {
  const shown = p.id === you ? t("t.you") : p.nickname || "?";
  return h(
    "span",
    { class: `pname ${extra}`.trim(), title: p.nickname || undefined },
    h("span", { class: "pname-text", "aria-hidden": "true", dataset: { name: shown } }, shown),
    h("span", { class: "sr-only" }, spokenName(p, you)),
    p.bot ? botMark() : null,
  );
}

// The name as a screen reader says it: "Ana", "You", "Robo Rita (bot)".
export function spokenName(p, you = null) {
  const name = p.id === you ? t("t.you") : p.nickname || "?";
  return p.bot ? t("t.bot.name", { name }) : name;
}

// A nickname for running text ("Ana's turn"), marked for a bot the way its line is.
export function botMark() {
  return h("span", { class: "bot-mark", "aria-hidden": "true", title: t("t.bot") });
}

// Fits every name under `root` into its box (call after drawing, and when the width changes).
export function fitNames(root = document) {
  for (const el of root.querySelectorAll(".pname-text")) fit(el);
}

function fits(el) {
  return el.scrollWidth <= el.clientWidth + 0.5;
}

function tailLength(chars) {
  let digits = 0;
  while (digits < chars.length && /\p{N}/u.test(chars[chars.length - 1 - digits])) digits++;
  return digits > 0 ? Math.min(digits, TAIL_MAX) : TAIL_LETTERS;
}

// The longest "start…end" form of the name that fits (a binary search over how much is kept).
export function shortened(name, kept) {
  const chars = [...name];
  if (kept >= chars.length) return name;
  const tail = Math.min(tailLength(chars), Math.max(1, kept - 1));
  const head = Math.max(1, kept - tail);
  return `${chars.slice(0, head).join("").trimEnd()}${ELLIPSIS}${chars.slice(chars.length - tail).join("").trimStart()}`;
}

function fit(el) {
  const full = el.dataset.name || "";
  if (el.textContent !== full) el.textContent = full;
  if (!el.clientWidth || fits(el)) return;
  const length = [...full].length;
  let lo = 2;
  let hi = length - 1;
  let best = shortened(full, 2);
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    el.textContent = shortened(full, mid);
    if (fits(el)) {
      best = el.textContent;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  el.textContent = best;
}
