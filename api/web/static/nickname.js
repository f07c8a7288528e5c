// R25: the nickname rules of core/nicknames.py (a test keeps the two in step), so that a refused
// nickname is explained in the player's own language rather than the server's English.

import { t } from "./strings.js";

export const NICKNAME = Object.freeze({ min: 3, max: 20, punctuation: " _-." });

// The nickname as the server stores it: NFC, inner runs of spaces collapsed, trimmed.
function cleaned(name) {
  return String(name).normalize("NFC").trim().split(/\s+/u).filter(Boolean).join(" ");
}

// Why the server refuses `name`, as a message, or null when it looks fine.
export function nicknameProblem(name) {
  const text = cleaned(name);
  const length = [...text].length;
  if (length < NICKNAME.min || length > NICKNAME.max) {
    return t("nickname.length", { min: NICKNAME.min, n: NICKNAME.max });
  }
  const bad = [...new Set([...text].filter((c) => !NICKNAME.punctuation.includes(c) && !/[\p{L}\p{N}]/u.test(c)))];
  if (bad.length) return t("nickname.characters", { chars: bad.join(" ") });
  if (!/\p{L}/u.test(text)) return t("nickname.letter");
  return null;
}

// The rules in one line, for the editor's hint.
export function nicknameRules() {
  return t("nickname.rules", { min: NICKNAME.min, n: NICKNAME.max });
}
