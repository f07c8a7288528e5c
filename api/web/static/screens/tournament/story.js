// The whole story of a tournament (R8, D2, D4): every round that has ended — its pairings and
// bye, each duel's result with its final board and secret, who went out — from the history
// (GET …/history), and the round being played from the state.

import { h } from "../../dom.js";
import { formatList, t } from "../../strings.js";
import { miniBoard, secretRow } from "../../components/miniboard.js";
import { avatar, hearts } from "../common.js";
import { playerName } from "../../components/names.js";
import { duelTitle, placeText, ratingClass, ratingMove, resultText } from "./parts.js";

export function renderStory(ctx) {
  const history = ctx.history;
  const rounds = history ? history.rounds : [];
  const state = ctx.state;
  const live = state.phase !== "finished";
  return h(
    "div",
    { class: "story", id: "story" },
    h(
      "div",
      { class: "story-head" },
      h("button", { class: "btn ghost small", id: "story-back", type: "button", onclick: () => ctx.closeStory() }, h("span", { "aria-hidden": "true" }, "← "), t("watch.back")),
      h("h2", {}, t("story.heading")),
    ),
    players(ctx),
    !history ? h("p", { class: "loading" }, h("span", { class: "spinner", "aria-hidden": "true" })) : null,
    history && !rounds.length && !live ? h("p", { class: "hint" }, t("story.empty")) : null,
    h(
      "ol",
      { class: "story-rounds", id: "story-rounds", reversed: true },
      live && state.round > rounds.length ? h("li", {}, currentRound(ctx)) : null,
      [...rounds].reverse().map((round) => h("li", {}, pastRound(ctx, round))),
    ),
  );
}

// Everyone's line: start rating, lives left or the round they went out in, place and change.
function players(ctx) {
  const ranked = [...ctx.state.players].sort(
    (a, b) => (a.place ?? (a.lives > 0 ? 0 : 50)) - (b.place ?? (b.lives > 0 ? 0 : 50)) || b.lives - a.lives,
  );
  return h(
    "section",
    { class: "card story-players", "aria-labelledby": "story-players-title" },
    h("h3", { class: "label", id: "story-players-title" }, t("story.players")),
    h(
      "ul",
      {},
      ranked.map((p) =>
        h(
          "li",
          { class: `sp ${p.id === ctx.you ? "you" : ""}` },
          avatar(p, "small"),
          h("span", { class: "sp-name" }, playerName(p, null, "sp-nick"), p.id === ctx.you ? h("span", { class: "you-mark" }, t("group.you")) : null),
          p.lives > 0 && !p.place
            ? h("span", { class: "hearts", role: "img", "aria-label": t("t.lives.label", { name: p.nickname, n: p.lives }) }, hearts(p.lives))
            : h("span", { class: "sp-out" }, p.out_round ? t("story.outIn", { n: p.out_round }) : t(`t.status.${p.status}`)),
          h(
            "span",
            { class: `sp-rating ${ratingClass(p.rating_change)}` },
            p.place ? `${placeText(p.place)} · ${ratingMove(p, p.rating_change)}` : t("story.rating", { n: p.rating }),
          ),
        ),
      ),
    ),
  );
}

function roundHead(ctx, number, bye, extra = null) {
  return h(
    "header",
    { class: "round-head" },
    h("h3", {}, t("t.round", { n: number })),
    extra,
    bye ? h("span", { class: "round-bye" }, bye === ctx.you ? t("intro.bye.you") : t("intro.bye", { name: ctx.names.get(bye) || "?" })) : null,
  );
}

// A round that has ended, its duels' boards in the word language `lang`; also the public
// results' (screens/summary.js), where `ctx` is just {names, you}.
export function pastRound(ctx, round, lang = ctx.state.language) {
  const out = round.out.map((id) => (id === ctx.you ? t("t.you") : ctx.names.get(id) || "?"));
  return h(
    "section",
    { class: "card story-round", id: `story-round-${round.number}`, dataset: { round: String(round.number) } },
    roundHead(ctx, round.number, round.bye),
    h("ul", { class: "story-duels" }, round.duels.map((d) => h("li", {}, storyDuel(ctx, d, lang)))),
    out.length ? h("p", { class: "round-out" }, t("story.out", { names: formatList(out) })) : null,
  );
}

function currentRound(ctx) {
  const state = ctx.state;
  return h(
    "section",
    { class: "card story-round current", id: `story-round-${state.round}` },
    roundHead(ctx, state.round, state.bye, h("span", { class: "pill live" }, t("watch.live"))),
    h("ul", { class: "story-duels" }, state.duels.map((d) => h("li", {}, storyDuel(ctx, d)))),
  );
}

function storyDuel(ctx, d, lang = ctx.state.language) {
  return h(
    "article",
    { class: `story-duel ${d.players.includes(ctx.you) ? "mine" : ""}`, dataset: { duel: d.id } },
    h("h4", {}, duelTitle(ctx, d.players)),
    h("p", { class: "story-result" }, d.result ? resultText(ctx, d) : t("watch.live")),
    d.secret ? secretRow(d.secret, lang) : null,
    miniBoard(d, lang, ctx.names, { you: ctx.you }),
  );
}
