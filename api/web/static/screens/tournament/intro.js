// The round intro (R2): the countdown to the duels, the pairings and the bye, and what just
// happened: the player's own last duel with its secret (from the answer to the guess that ended
// it, or from the history) and who went out in the round before.

import { h } from "../../dom.js";
import { formatList, t } from "../../strings.js";
import { miniBoard, secretRow } from "../../components/miniboard.js";
import { countdown, duelTitle, playerCard, resultText } from "./parts.js";

export function renderIntro(ctx) {
  const state = ctx.state;
  const mine = state.pairings.find((pair) => pair.includes(ctx.you));
  const pairings = state.pairings.map((pair) =>
    h(
      "li",
      { class: `pairing ${pair === mine ? "mine" : ""}` },
      playerCard(ctx, ctx.player(pair[0])),
      h("span", { class: "vs" }, t("intro.vs")),
      playerCard(ctx, ctx.player(pair[1])),
      pair === mine ? h("span", { class: "badge" }, t("intro.yourDuel")) : null,
    ),
  );
  return h(
    "div",
    { class: "intro", id: "intro", dataset: { round: String(state.round) } },
    h(
      "div",
      { class: "countdown", role: "timer", "aria-label": t("intro.starts") },
      h("span", { class: "count-label" }, t("intro.starts")),
      h("span", { class: "count", id: "intro-count", dataset: { deadline: String(state.starts_at), plain: "1" } }, ""),
    ),
    h("ul", { class: "pairings", id: "pairings" }, pairings),
    state.bye
      ? h("p", { class: "bye", id: "intro-bye" }, state.bye === ctx.you ? t("intro.bye.you") : t("intro.bye", { name: ctx.names.get(state.bye) || "?" }))
      : null,
    lastRound(ctx),
  );
}

// The round before this one, as far as this client knows it.
function lastRound(ctx) {
  const previous = ctx.state.round - 1;
  if (previous < 1) return null;
  const duel = ctx.lastDuel(previous);
  const round = ctx.historyRound(previous);
  const out = round ? round.out.filter((id) => id !== ctx.you).map((id) => ctx.names.get(id) || "?") : [];
  if (!duel && !out.length) return null;
  return h(
    "section",
    { class: "card last-round", id: "last-duel", "aria-labelledby": "last-round-title" },
    h("h2", { class: "label", id: "last-round-title" }, t("intro.lastRound", { n: previous })),
    duel
      ? [
          h("p", { class: "last-result" }, h("strong", {}, duelTitle(ctx, duel.players)), " · ", resultText(ctx, duel)),
          duel.secret ? secretRow(duel.secret, ctx.state.language) : null,
          miniBoard(duel, ctx.state.language, ctx.names, { you: ctx.you }),
        ]
      : null,
    out.length ? h("p", { class: "hint", id: "last-out" }, t("story.out", { names: formatList(out) })) : null,
  );
}
