// The results (R7, R8, R17): everyone's place and rating before → after, the player's own on
// top, the result to share (with the skill of the player's words, D19), the player's duels,
// each opening its analysis, and the ways on: the group (R22), another game, home, the whole
// story and the public results (the address the share links to).

import { h } from "../../dom.js";
import { summaryPath } from "../../paths.js";
import { place, t } from "../../strings.js";
import { shareCard, yourDuels } from "../../components/share.js";
import { coachable, gather, skillOver, summaryOf } from "../../components/coach-data.js";
import { signed } from "../common.js";
import { duelTitle, ratingClass, ratingMove, resultText, standingLine, waysOn } from "./parts.js";

export function renderResults(ctx) {
  const state = ctx.state;
  const you = ctx.me();
  const ranked = [...state.players].sort((x, y) => (x.place ?? 99) - (y.place ?? 99));
  const winner = state.players.find((p) => p.status === "winner");
  const long = you && you.place && place(you.place).length > 4;
  return h(
    "div",
    { class: "results", id: "results" },
    h(
      "div",
      { class: "card results-hero" },
      h("span", { class: `medallion m${you && you.place ? Math.min(you.place, 4) : 4} ${long ? "long" : ""}`, "aria-hidden": "true" }, you && you.place ? place(you.place) : "—"),
      h("h2", {}, winner ? (winner.id === ctx.you ? t("results.winner.you") : t("results.winner", { name: winner.nickname })) : t("results.noWinner")),
      you && you.place
        ? h(
            "p",
            { class: "your-result", id: "your-result" },
            t("results.you.ordinal", { n: you.place }),
            " · ",
            h("strong", { class: ratingClass(you.rating_change) }, signed(you.rating_change)),
          )
        : null,
      you && you.place ? h("p", { class: "your-rating", id: "your-rating" }, ratingMove(you, you.rating_change)) : null,
    ),
    you && you.place ? share(ctx, you) : null,
    you ? yourDuelsCard(ctx) : null,
    h(
      "section",
      { class: "card standings", "aria-labelledby": "standings-title" },
      h("h2", { class: "sr-only", id: "standings-title" }, t("results.heading")),
      h(
        "div",
        { class: "standings-head", "aria-hidden": "true" },
        h("span", {}, t("results.place")),
        h("span", {}, t("results.player")),
        h("span", {}, t("results.rating")),
      ),
      h(
        "ol",
        { id: "standings" },
        ranked.map((p) => standingLine(ctx, p)),
      ),
    ),
    waysOn(ctx, "results"),
    h(
      "div",
      { class: "row-buttons" },
      h("button", { class: "btn secondary", id: "open-story", type: "button", onclick: () => ctx.openStory() }, t("story.open")),
      h("a", { class: "btn ghost", id: "public-results", href: `#/${summaryPath(ctx.tid)}` }, t("results.public")),
    ),
  );
}

// The player's own duels of the finished tournament (from the history), with the analyses of
// those that have one (asked for once, kept: components/coach-data.js).
function mine(ctx) {
  const history = ctx.history;
  if (!history || history.rounds.length < (ctx.state.history_rounds || 0)) return null;
  const duels = [];
  for (const round of history.rounds) {
    const duel = round.duels.find((d) => d.players.includes(ctx.you));
    if (duel) duels.push({ round: round.number, duel });
  }
  return { duels, coached: gather(ctx.tid, duels.map((x) => x.duel), ctx.redraw) };
}

// The share card, once the history holds every round (the boards' marks) and the analyses of
// the player's duels have come (the skill of their words), or failed (then without it).
function share(ctx, you) {
  const known = mine(ctx);
  if (!known || !known.coached.done) {
    return h("div", { class: "card share-card loading-card", id: "share-card", "aria-busy": "true" }, h("span", { class: "spinner", "aria-hidden": "true" }));
  }
  const { analyses, failed } = known.coached;
  return shareCard({
    id: ctx.tid,
    language: ctx.state.language,
    place: you.place,
    players: ctx.state.players.length,
    rating: you.rating,
    change: you.rating_change,
    duels: yourDuels(ctx.history.rounds, ctx.you),
    skill: failed ? null : skillOver(analyses, ctx.you),
  });
}

// One line per duel of the player's: the round, the opponent, how it ended, the skill of their
// words in it; the line opens the duel's analysis.
function yourDuelsCard(ctx) {
  const known = mine(ctx);
  const lines = known ? known.duels.filter((x) => coachable(x.duel)) : [];
  if (!lines.length) return null;
  return h(
    "section",
    { class: "card your-duels", id: "your-duels", "aria-labelledby": "your-duels-title" },
    h("h2", { class: "label", id: "your-duels-title" }, t("coach.yours")),
    h(
      "ul",
      {},
      lines.map(({ round, duel }) => {
        const own = summaryOf(known.coached.analyses.get(duel.id), ctx.you);
        const id = `coach-line-${duel.id}`;
        return h(
          "li",
          {},
          h(
            "button",
            { class: "duel-line", id, type: "button", dataset: { duel: duel.id }, onclick: () => ctx.openCoach(duel, id) },
            h(
              "span",
              { class: "dl-text" },
              h("span", { class: "dl-head" }, h("span", { class: "dl-round" }, t("t.round", { n: round })), " ", h("span", { class: "dl-title" }, duelTitle(ctx, duel.players))),
              h(
                "span",
                { class: "dl-detail" },
                h("span", { class: "dl-result" }, resultText(ctx, duel)),
                own && own.skill !== null ? h("span", { class: "dl-skill" }, t("coach.skill.score", { score: own.skill })) : null,
              ),
            ),
            h("span", { class: "dl-open" }, t("coach.open"), h("span", { "aria-hidden": "true" }, " ›")),
          ),
        );
      }),
    ),
  );
}
