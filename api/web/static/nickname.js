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

// Why the server refused `name` (422 invalid_nickname), from the reason it gives: each rule
// its own message, in the player's language; the client's own check when the reason is unknown.
export function nicknameRefusal(err, name) {
  const details = (err && err.details) || {};
  switch (details.reason) {
    case "length":
      return t("nickname.length", { min: NICKNAME.min, n: NICKNAME.max });
    case "characters":
      return t("nickname.characters", { chars: (details.characters || []).join(" ") || "?" });
    case "letter":
      return t("nickname.letter");
    case "invisible":
      return t("nickname.invisible");
    case "blocked":
      return t("nickname.blocked");
    case "look_alike":
      return t("nickname.lookAlike");
    default:
      return nicknameProblem(name);
  }
}

// The rules in one line, for the editor's hint.
export function nicknameRules() {
  return t("nickname.rules", { min: NICKNAME.min, n: NICKNAME.max });
}
