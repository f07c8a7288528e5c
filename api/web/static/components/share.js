// A tournament's result to share: the place, the rating change, one line of coloured squares
// per duel of the player's (their own rows, no letters) and the public results' address —
// through the Web Share API where the browser has it, else the clipboard. Screen readers get the
// same in plain words, never the squares.

import { h, toast } from "../dom.js";
import { colourBlind } from "../state.js";
import { theme } from "../theme.js";
import { formatNumber, formatSigned, place, t } from "../strings.js";
import { summaryUrl } from "../paths.js";

const MEDALS = { 1: "🥇", 2: "🥈", 3: "🥉" };
const RESULT = { won: "✅", lost: "❌", draw: "🤝" };
const SKIPPED = "⌛";
const CLASS = { G: "mG", Y: "mY", "-": "mX" };
const END = { won: "✓", lost: "✗", draw: "=" };
const SAID = { won: "share.sr.won", lost: "share.sr.lost", draw: "share.sr.draw" };

// The squares of each mark, as Wordle shares them: orange and blue in the colour-blind palette,
// white for an absent letter in the light theme.
function squares() {
  const cb = colourBlind();
  return { G: cb ? "🟧" : "🟩", Y: cb ? "🟦" : "🟨", "-": theme() === "light" ? "⬜" : "⬛" };
}

// The player's duels of a finished tournament: `rounds` of its history or summary.
export function yourDuels(rounds, you) {
  const duels = [];
  for (const round of rounds || []) {
    const duel = round.duels.find((d) => d.players.includes(you));
    if (!duel) continue; // a bye
    const seat = duel.players.indexOf(you);
    const rows = duel.board.filter((_row, i) => i % 2 === seat);
    const result = duel.result || {};
    const outcome = result.kind === "draw" ? "draw" : result.winner === you ? "won" : "lost";
    duels.push({ round: round.number, rows, outcome, forfeit: result.kind === "forfeit" });
  }
  return duels;
}

// The headline: the tournament's language, the place and the rating change.
function headline(result) {
  const medal = MEDALS[result.place] ? `${MEDALS[result.place]} ` : "";
  const move = `${formatNumber(result.rating)} → ${formatNumber(result.rating + result.change)} (${formatSigned(result.change)})`;
  return [
    `${t("app.title")} · ${t(`lang.${result.language}`)}`,
    `${medal}${t("share.place", { place: place(result.place), total: result.players })} · ${move}`,
  ];
}

// `result`: {id, language, place, players (how many), rating (at the start), change, duels}.
export function shareText(result) {
  const marks = squares();
  const lines = headline(result);
  for (const duel of result.duels) {
    const rows = duel.rows.map((row) => (row === null ? SKIPPED : [...row[1]].map((mark) => marks[mark] || marks["-"]).join("")));
    lines.push([...rows, RESULT[duel.outcome]].join(" "));
  }
  lines.push(summaryUrl(result.id));
  return lines.join("\n");
}

// The text as it will be sent, drawn with the page's own squares (a device may lack an emoji
// font; the palette and the theme apply as everywhere else).
function preview(result) {
  const [title, standing] = headline(result);
  const duelLines = result.duels.map((duel) =>
    h(
      "span",
      { class: "share-line" },
      duel.rows.map((row) =>
        row === null
          ? h("span", { class: "sq-row" }, h("i", { class: "sq skipped" }))
          : h("span", { class: "sq-row" }, [...row[1]].map((mark) => h("i", { class: `sq ${CLASS[mark] || "mX"}` }))),
      ),
      h("span", { class: `sq-end ${duel.outcome}` }, END[duel.outcome]),
    ),
  );
  return h(
    "div",
    { class: "share-preview", id: "share-preview", "aria-hidden": "true" },
    h("span", { class: "share-line" }, title),
    h("span", { class: "share-line" }, standing),
    duelLines,
    h("span", { class: "share-line share-url" }, h("span", {}, breakable(summaryUrl(result.id)))),
  );
}

// An address that wraps only after a "/" (never leaving one character alone on a line).
function breakable(url) {
  const parts = url.split(/(?<=\/)/);
  return parts.flatMap((part, i) => (i ? [h("wbr"), part] : [part]));
}

// The same in words, for a screen reader.
export function plainText(result) {
  const sentences = [
    t("share.sr.result", {
      place: place(result.place),
      total: result.players,
      before: result.rating,
      after: result.rating + result.change,
    }),
  ];
  for (const duel of result.duels) {
    const vars = { round: duel.round, n: duel.rows.length };
    if (duel.forfeit) sentences.push(t(duel.outcome === "won" ? "share.sr.forfeit.win" : "share.sr.forfeit.lose", vars));
    else sentences.push(t(SAID[duel.outcome], vars));
  }
  return sentences.join(" ");
}

// Shares `text`: the system's share sheet, else the clipboard. Resolves to how it went.
export async function share(text) {
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title: t("app.title"), text });
      return "shared";
    } catch (err) {
      if (err && err.name === "AbortError") return "cancelled";
      // no share target (or not allowed here): the clipboard instead
    }
  }
  try {
    await navigator.clipboard.writeText(text);
    return "copied";
  } catch {
    return "failed";
  }
}

// The share card: what will be sent (hidden from screen readers, which read the words
// instead) and the button. The button's text changes when the browser has no share sheet.
export function shareCard(result) {
  const text = shareText(result);
  const shown = preview(result);
  const button = h(
    "button",
    { class: "btn primary", id: "share", type: "button", "aria-describedby": "share-plain" },
    t(typeof navigator.share === "function" ? "share.button" : "share.copy"),
  );
  button.addEventListener("click", async () => {
    const how = await share(text);
    if (how === "shared") toast(t("share.shared"));
    else if (how === "copied") toast(t("share.copied"));
    else if (how === "failed") {
      // Neither way works here: the text itself, selected, for the player to copy.
      let box = document.getElementById("share-text");
      if (!box) {
        box = h("textarea", { class: "text-input share-text", id: "share-text", readonly: true, rows: String(text.split("\n").length) });
        box.value = text;
        button.before(box);
      }
      box.focus();
      box.select();
      toast(t("share.failed"), "error");
    }
  });
  return h(
    "section",
    { class: "card share-card", id: "share-card", "aria-labelledby": "share-title" },
    h("h2", { class: "label", id: "share-title" }, t("share.heading")),
    shown,
    h("p", { class: "sr-only", id: "share-plain" }, plainText(result)),
    button,
  );
}
