// The shared board of a duel: up to 12 rows, each showing who played it (R10, D4).

import { h, reducedMotion, replace } from "../dom.js";
import { formatList, t } from "../strings.js";
import { hue, initials, tileText, tone } from "../screens/common.js";

export const MAX_ROWS = 12;
const CLASS = { G: "mG", Y: "mY", "-": "mX" };
// A new row's tiles flip one after another (css/components.css: .tile.flip, 0.5 s each).
const FLIP_STEP_MS = 120;
const FLIP_MS = 500;

export function flipMs(length) {
  return (length - 1) * FLIP_STEP_MS + FLIP_MS;
}

export class Board {
  constructor(langCode) {
    this.lang = langCode;
    this.seen = null; // rows already shown, so only new rows flip in
    this.duelId = null;
    this.flipFrom = null; // the first row still flipping in, and when it began
    this.flipStart = 0;
    this.length = 5;
    this.el = h("div", { class: "board", id: "board", role: "group", "aria-label": t("duel.board") });
  }

  // duel: the duel view; names: Map id → nickname; you: the viewer's id (null when watching);
  // input: tiles typed for the current row; pending: the typed start of the next tile ("c" of
  // Uzbek "ch"), shown dimmed.
  update(duel, names, you, input = [], pending = "") {
    if (duel.id !== this.duelId) {
      this.duelId = duel.id;
      this.seen = null;
      this.flipFrom = null;
    }
    const len = duel.word_length;
    this.length = len;
    if (this.seen !== null && duel.rows.length > this.seen && !reducedMotion()) {
      this.flipFrom = this.flipping() ? this.flipFrom : this.seen;
      this.flipStart = this.flipping() ? this.flipStart : Date.now();
    }
    const elapsed = Date.now() - this.flipStart;
    this.el.style.setProperty("--len", len);
    const nameOf = (id) => (id === you ? t("t.you") : names.get(id) || "?");
    const rows = [];
    duel.rows.forEach((row, i) => {
      const fresh = this.flipping() && i >= this.flipFrom;
      rows.push(this.playedRow(row, i, nameOf(row.by), fresh, len, row.by === you, elapsed));
    });
    const active = !duel.result && duel.to_play;
    if (active && duel.rows.length < MAX_ROWS) {
      const i = duel.rows.length;
      const mine = duel.to_play === you;
      const cells = [];
      for (let c = 0; c < len; c++) {
        const tile = mine ? input[c] : undefined;
        const half = mine && c === input.length && pending ? pending : "";
        cells.push(
          h(
            "span",
            {
              class: `tile ${tile ? "filled" : half ? "pending" : "empty"} ${(tile || half).length > 1 ? "multi" : ""}`,
            },
            tile ? tileText(tile, this.lang) : half ? tileText(half, this.lang) : "",
          ),
        );
      }
      rows.push(
        h(
          "div",
          {
            class: `brow current ${mine ? "mine" : "theirs"}`,
            id: "current-row",
            role: "group",
            "aria-label": t("duel.row.current", { row: i + 1 }),
          },
          this.by(duel.to_play, nameOf(duel.to_play)),
          h("div", { class: "tiles" }, cells),
          mine ? null : h("span", { class: "typing", "aria-hidden": "true" }, h("i"), h("i"), h("i")),
        ),
      );
    }
    for (let i = rows.length; i < MAX_ROWS; i++) {
      const cells = [];
      for (let c = 0; c < len; c++) cells.push(h("span", { class: "tile empty" }));
      rows.push(
        h(
          "div",
          { class: "brow blank", "aria-hidden": "true" },
          h("span", { class: "by none" }),
          h("div", { class: "tiles" }, cells),
        ),
      );
    }
    replace(this.el, rows);
    if (Date.now() < (this.shakeUntil || 0)) this.el.querySelector("#current-row")?.classList.add("shake");
    this.seen = duel.rows.length;
    const current = this.el.querySelector("#current-row");
    const last = current || this.el.querySelector(".brow.played:last-of-type");
    if (last && this.el.scrollHeight > this.el.clientHeight) {
      last.scrollIntoView({ block: "nearest" });
    }
  }

  by(id, name) {
    return h(
      "span",
      { class: "by", style: { "--hue": hue(id), "--tone": `${tone(hue(id))}%` }, title: name, "aria-hidden": "true" },
      initials(name),
    );
  }

  // A player's own rows say "you", not their name (D17: "you" and a name are different messages).
  // Whether a new row is still flipping in, and in how many ms its colours are all shown.
  flipping() {
    return this.flipFrom !== null && Date.now() - this.flipStart < flipMs(this.length);
  }

  revealIn() {
    return this.flipping() ? flipMs(this.length) - (Date.now() - this.flipStart) : 0;
  }

  // How many rows show their colours: the keyboard colours only those, not a row mid-flip.
  revealedRows(total) {
    return this.flipping() ? Math.min(this.flipFrom, total) : total;
  }

  playedRow(row, i, name, fresh, len, yours, elapsed = 0) {
    if (row.skipped) {
      const cells = [];
      for (let c = 0; c < len; c++) cells.push(h("span", { class: "tile skipped", "aria-hidden": "true" }));
      return h(
        "div",
        { class: `brow played skipped ${fresh ? "fresh" : ""}`, role: "group", "aria-label": yours ? t("duel.row.skipped.you", { row: i + 1 }) : t("duel.row.skipped", { row: i + 1, name }) },
        this.by(row.by, name),
        h("div", { class: "tiles" }, cells, h("span", { class: "skip-label", "aria-hidden": "true" }, t("duel.skipped"))),
      );
    }
    const cells = row.tiles.map((tile, c) =>
      h(
        "span",
        {
          class: `tile ${CLASS[row.marks[c]] || "mX"} ${tile.length > 1 ? "multi" : ""} ${fresh ? "flip" : ""}`,
          // Drawn again mid-flip (a poll, a key), the flip goes on where it was.
          style: fresh ? { animationDelay: `${c * FLIP_STEP_MS - elapsed}ms` } : null,
          dataset: { mark: row.marks[c] },
        },
        h("span", { "aria-hidden": "true" }, tileText(tile, this.lang)),
        h("span", { class: "sr-only" }, tileState(tile, row.marks[c], this.lang)),
      ),
    );
    return h(
      "div",
      { class: `brow played ${fresh ? "fresh" : ""}`, role: "group", "aria-label": yours ? t("duel.row.label.you", { row: i + 1 }) : t("duel.row.label", { row: i + 1, name }) },
      this.by(row.by, name),
      h("div", { class: "tiles" }, cells),
    );
  }

  shake() {
    const row = this.el.querySelector("#current-row");
    if (!row) return;
    row.classList.remove("shake");
    void row.offsetWidth;
    row.classList.add("shake");
    this.shakeUntil = Date.now() + 650;
    setTimeout(() => this.el.querySelector("#current-row")?.classList.remove("shake"), 700);
  }

  pop(index) {
    const row = this.el.querySelector("#current-row");
    const cell = row && row.querySelectorAll(".tile")[index];
    if (cell) cell.classList.add("pop");
  }
}

// "C correct", "R in the word", … for a screen reader.
export function tileState(tile, mark, lang) {
  return t(`tile.${CLASS[mark] ? mark : "-"}`, { tile: tileText(tile, lang) });
}

export function describeRow(row, lang) {
  return formatList(
    row.tiles.map((tile, i) => tileState(tile, row.marks[i], lang)),
    { type: "unit", style: "short" },
  );
}
