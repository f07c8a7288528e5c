// A duel at a glance: the compact board of the state's `duels` and of the history
// (`[tiles, marks]` per played row, null for a skipped turn; row i was played by players[i % 2],
// R10), in small tiles. Used by the lively wait, the story and the intro's last duel.

import { h } from "../dom.js";
import { t } from "../strings.js";
import { hue, tileText } from "../screens/common.js";
import { tileState } from "./board.js";

const CLASS = { G: "mG", Y: "mY", "-": "mX" };

// The full rows of a compact board, as the Board component takes them.
export function fullRows(players, board) {
  return board.map((row, i) =>
    row === null ? { by: players[i % 2], skipped: true } : { by: players[i % 2], tiles: row[0], marks: row[1] },
  );
}

// `entry`: a duel of the state's `duels` or of a history round; `names`: id → nickname.
// Options: `current` draws the row being played (a live duel); `secret` a last row with it.
export function miniBoard(entry, lang, names, { current = false, you = null } = {}) {
  const length = entry.word_length || (entry.secret ? entry.secret.length : 5);
  const rows = entry.board.map((row, i) => {
    const by = entry.players[i % 2];
    const who = by === you ? t("t.you") : names.get(by) || "?";
    if (row === null) {
      const cells = [];
      for (let c = 0; c < length; c++) cells.push(h("i", { class: "mt skipped" }));
      return h(
        "div",
        { class: "mrow skipped", role: "listitem", "aria-label": by === you ? t("duel.row.skipped.you", { row: i + 1 }) : t("duel.row.skipped", { row: i + 1, name: who }) },
        dot(by),
        cells,
      );
    }
    const [tiles, marks] = row;
    return h(
      "div",
      { class: "mrow", role: "listitem", "aria-label": `${by === you ? t("duel.row.label.you", { row: i + 1 }) : t("duel.row.label", { row: i + 1, name: who })}: ${tiles.map((tile, c) => tileState(tile, marks[c], lang)).join(", ")}` },
      dot(by),
      tiles.map((tile, c) =>
        h("i", { class: `mt ${CLASS[marks[c]] || "mX"} ${tile.length > 1 ? "multi" : ""}`, "aria-hidden": "true" }, tileText(tile, lang)),
      ),
    );
  });
  if (current && !entry.result && entry.to_play && entry.board.length < 12) {
    const cells = [];
    for (let c = 0; c < length; c++) cells.push(h("i", { class: "mt empty" }));
    rows.push(h("div", { class: "mrow current", "aria-hidden": "true" }, dot(entry.to_play), cells));
  }
  return h(
    "div",
    { class: "mboard", role: "list", lang, style: { "--len": length }, "aria-label": t("duel.board") },
    rows,
  );
}

// The secret of an ended duel in small tiles.
export function secretRow(secret, lang, extra = "") {
  return h(
    "span",
    { class: `msecret ${extra}`.trim(), lang },
    h("span", { class: "label" }, t("duel.secret")),
    h(
      "span",
      { class: "mtiles" },
      secret.map((tile) => h("i", { class: `mt mG ${tile.length > 1 ? "multi" : ""}` }, tileText(tile, lang))),
    ),
  );
}

function dot(id) {
  return h("span", { class: "mby", style: { "--hue": hue(id) }, "aria-hidden": "true" });
}
