// The language's on-screen keyboard, with the letter states seen on the board so far.

import { h } from "../dom.js";
import { t } from "../strings.js";
import { tileText } from "../screens/common.js";
import { tileState } from "./board.js";

const RANK = { "-": 1, Y: 2, G: 3 };
const CLASS = { G: "mG", Y: "mY", "-": "mX" };

export class Keyboard {
  constructor(lang, onKey) {
    this.lang = lang;
    this.keys = new Map();
    const rows = lang.keyboard.map((row, i) => {
      const buttons = row.map((tile) => this.key(tile, tileText(tile, lang.code), onKey));
      if (i === lang.keyboard.length - 1) {
        const enter = h(
          "button",
          { type: "button", class: "key wide enter", dataset: { key: "Enter" }, "aria-label": t("duel.enter") },
          h("span", { "aria-hidden": "true" }, "⏎"),
        );
        const back = h(
          "button",
          { type: "button", class: "key wide back", dataset: { key: "Backspace" }, "aria-label": t("duel.backspace") },
          h("span", { "aria-hidden": "true" }, "⌫"),
        );
        for (const [btn, key] of [[enter, "Enter"], [back, "Backspace"]]) {
          btn.addEventListener("pointerdown", (e) => e.preventDefault());
          btn.addEventListener("click", () => onKey(key));
        }
        return h("div", { class: "krow" }, enter, buttons, back);
      }
      return h("div", { class: "krow" }, buttons);
    });
    const widest = Math.max(...lang.keyboard.map((r) => r.length + 0));
    this.el = h(
      "div",
      { class: "keyboard", id: "keyboard", role: "group", "aria-label": t("duel.keyboard"), style: { "--cols": widest } },
      rows,
    );
  }

  key(tile, label, onKey) {
    const btn = h(
      "button",
      { type: "button", class: `key ${tile.length > 1 ? "multi" : ""}`, dataset: { key: tile }, lang: this.lang.code },
      h("span", { "aria-hidden": "true" }, label),
      h("span", { class: "sr-only" }, label),
    );
    // A mouse or finger press must not move focus onto the key: Enter on the physical keyboard
    // would then press it again.
    btn.addEventListener("pointerdown", (e) => e.preventDefault());
    btn.addEventListener("click", () => onKey(tile));
    this.keys.set(tile, btn);
    return btn;
  }

  // The colours of `rows`, of which only the first `revealed` are on show yet: the others are
  // still flipping on the board, and colour their keys `ms` from now, when the flip has ended.
  show(rows, revealed = rows.length, ms = 0) {
    clearTimeout(this.revealTimer);
    if (revealed >= rows.length || ms <= 0) {
      this.setStates(letterStates(rows));
      return;
    }
    this.setStates(letterStates(rows.slice(0, revealed)));
    this.revealTimer = setTimeout(() => this.setStates(letterStates(rows)), ms);
  }

  destroy() {
    clearTimeout(this.revealTimer);
  }

  // states: Map tile → "G" | "Y" | "-"
  setStates(states) {
    for (const [tile, btn] of this.keys) {
      const mark = states.get(tile);
      const want = `key ${tile.length > 1 ? "multi" : ""} ${mark ? CLASS[mark] : ""}`.trim();
      if (btn.className !== want) btn.className = want;
      const sr = btn.lastChild;
      const text = mark ? tileState(tile, mark, this.lang.code) : tileText(tile, this.lang.code);
      if (sr.textContent !== text) sr.textContent = text;
    }
  }

  setEnabled(enabled) {
    this.el.classList.toggle("disabled", !enabled);
  }

  flash(key) {
    const btn = key === "Enter" || key === "Backspace" ? this.el.querySelector(`[data-key="${key}"]`) : this.keys.get(key);
    if (!btn) return;
    btn.classList.remove("pressed");
    void btn.offsetWidth;
    btn.classList.add("pressed");
  }
}

export function letterStates(rows) {
  const states = new Map();
  for (const row of rows) {
    if (row.skipped || !row.tiles) continue;
    row.tiles.forEach((tile, i) => {
      const mark = row.marks[i];
      if ((RANK[mark] || 0) > (RANK[states.get(tile)] || 0)) states.set(tile, mark);
    });
  }
  return states;
}
