// The results (R7, R8, R17): everyone's place and rating before → after, the player's own on
// top, the result to share, and the ways on: the group (R22), another game, home, the whole
// story and the public results (the address the share links to).

import { h } from "../../dom.js";
import { summaryPath } from "../../paths.js";
import { place, t } from "../../strings.js";
import { shareCard, yourDuels } from "../../components/share.js";
import { signed } from "../common.js";
import { ratingClass, ratingMove, standingLine, waysOn } from "./parts.js";

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

// The share card, once the history holds every round (the boards' marks).
function share(ctx, you) {
  const history = ctx.history;
  if (!history || history.rounds.length < (ctx.state.history_rounds || 0)) {
    return h("div", { class: "card share-card loading-card", id: "share-card", "aria-busy": "true" }, h("span", { class: "spinner", "aria-hidden": "true" }));
  }
  return shareCard({
    id: ctx.tid,
    language: ctx.state.language,
    place: you.place,
    players: ctx.state.players.length,
    rating: you.rating,
    change: you.rating_change,
    duels: yourDuels(history.rounds, ctx.you),
  });
}
