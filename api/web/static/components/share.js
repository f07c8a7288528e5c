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

// `result`: {language, place, players (how many), rating (at the start), change, duels, id}.
export function shareText(result) {
  const marks = squares();
  const lines = [
    `${t("app.title")} · ${t(`lang.${result.language}`)}`,
    `${MEDALS[result.place] ? `${MEDALS[result.place]} ` : ""}${t("share.place", { place: place(result.place), total: result.players })} · ${formatNumber(result.rating)} → ${formatNumber(result.rating + result.change)} (${formatSigned(result.change)})`,
  ];
  for (const duel of result.duels) {
    const rows = duel.rows.map((row) => (row === null ? SKIPPED : row[1].map((mark) => marks[mark] || marks["-"]).join("")));
    lines.push([...rows, RESULT[duel.outcome]].join(" "));
  }
  lines.push(summaryUrl(result.id));
  return lines.join("\n");
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

// The share card: the text as it will be sent (hidden from screen readers, which read the
// words instead) and the button.
export function shareCard(result) {
  const text = shareText(result);
  const preview = h("pre", { class: "share-preview", id: "share-preview", "aria-hidden": "true" }, text);
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
      selectText(preview);
      toast(t("share.failed"), "error");
    }
  });
  return h(
    "section",
    { class: "card share-card", id: "share-card", "aria-labelledby": "share-title" },
    h("h2", { class: "label", id: "share-title" }, t("share.heading")),
    preview,
    h("p", { class: "sr-only", id: "share-plain" }, plainText(result)),
    button,
  );
}

function selectText(el) {
  const range = document.createRange();
  range.selectNodeContents(el);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}
