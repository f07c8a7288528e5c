// The shared board of a duel: up to 12 rows, each showing who played it (R10, D4).

import { h, replace } from "../dom.js";
import { formatList, t } from "../strings.js";
import { hue, initials, tileText } from "../screens/common.js";

export const MAX_ROWS = 12;
const CLASS = { G: "mG", Y: "mY", "-": "mX" };

export class Board {
  constructor(langCode) {
    this.lang = langCode;
    this.seen = null; // rows already shown, so only new rows flip in
    this.duelId = null;
    this.el = h("div", { class: "board", id: "board", role: "group", "aria-label": t("duel.board") });
  }

  // duel: the duel view; names: Map id → nickname; you: the viewer's id (null when watching);
  // input: tiles typed for the current row.
  update(duel, names, you, input = []) {
    if (duel.id !== this.duelId) {
      this.duelId = duel.id;
      this.seen = null;
    }
    const len = duel.word_length;
    this.el.style.setProperty("--len", len);
    const nameOf = (id) => (id === you ? t("t.you") : names.get(id) || "?");
    const rows = [];
    duel.rows.forEach((row, i) => {
      const fresh = this.seen !== null && i >= this.seen;
      rows.push(this.playedRow(row, i, nameOf(row.by), fresh, len, row.by === you));
    });
    const active = !duel.result && duel.to_play;
    if (active && duel.rows.length < MAX_ROWS) {
      const i = duel.rows.length;
      const mine = duel.to_play === you;
      const cells = [];
      for (let c = 0; c < len; c++) {
        const tile = mine ? input[c] : undefined;
        cells.push(
          h(
            "span",
            { class: `tile ${tile ? "filled" : "empty"} ${tile && tile.length > 1 ? "multi" : ""}` },
            tile ? tileText(tile, this.lang) : "",
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
      { class: "by", style: { "--hue": hue(id) }, title: name, "aria-hidden": "true" },
      initials(name),
    );
  }

  // A player's own rows say "you", not their name (D17: "you" and a name are different messages).
  playedRow(row, i, name, fresh, len, yours) {
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
          style: fresh ? { animationDelay: `${c * 120}ms` } : null,
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
