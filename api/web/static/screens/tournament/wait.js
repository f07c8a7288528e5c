// The lively wait (R9): while the player's own duel is over, on a bye, or out, one duel of the
// round full size (the featured duel, featured.js) and every duel at a glance beside or below
// it — small boards with their rows, whose turn and the time left, both players' lives — any of
// which can be pinned full size.

import { h } from "../../dom.js";
import { place, t } from "../../strings.js";
import { miniBoard, secretRow } from "../../components/miniboard.js";
import { avatar, hearts } from "../common.js";
import { playerName } from "../../components/names.js";
import { markExitSeen } from "../exit.js";
import { countdown, duelTitle, ratingLine, resultText, standing, waysOn } from "./parts.js";

// Every duel of the round: live ones first.
export function duelGrid(ctx) {
  const duels = [...ctx.state.duels].sort((a, b) => Boolean(a.result) - Boolean(b.result));
  return h(
    "section",
    { class: "duel-grid-wrap", "aria-labelledby": "duels-title" },
    h("h2", { class: "label", id: "duels-title" }, t("watch.heading")),
    h("ul", { class: "duel-grid", id: "duel-grid" }, duels.map((d) => h("li", {}, miniDuel(ctx, d)))),
  );
}

function miniDuel(ctx, d) {
  const live = !d.result;
  const started = ctx.now() >= ctx.state.starts_at;
  const side = (id) => {
    const p = ctx.player(id);
    return h(
      "span",
      { class: `mside ${live && started && d.to_play === id ? "turn" : ""} ${d.result && d.result.winner === id ? "won" : ""}` },
      avatar(p, "small"),
      playerName(p, ctx.you, "mname"),
      h("span", { class: "hearts", "aria-hidden": "true" }, hearts(p.lives)),
    );
  };
  const status = live
    ? started
      ? h("span", { class: "mstatus" }, h("span", { class: "mturn" }, t("duel.theirTurn", { name: ctx.names.get(d.to_play) || "?" })), countdown(d.deadline))
      : h("span", { class: "mstatus" }, t("duel.starting"))
    : h("span", { class: "mstatus over" }, resultText(ctx, d));
  const featured = ctx.featuredId() === d.id;
  return h(
    "button",
    {
      class: `mini-duel ${live ? "live" : "over"} ${d.players.includes(ctx.you) ? "mine" : ""} ${featured ? "active" : ""}`,
      id: `mini-${d.id}`,
      type: "button",
      dataset: { duel: d.id },
      "aria-label": `${duelTitle(ctx, d.players)}: ${live ? t("watch.live") : t("watch.over")}`,
      // Pressed: this duel is the one pinned full size (pressing it again unpins it).
      "aria-pressed": String(featured && ctx.spotlight.pinned),
      onclick: () => ctx.pin(d.id),
    },
    h("span", { class: "mhead" }, side(d.players[0]), side(d.players[1])),
    status,
    miniBoard(d, ctx.state.language, ctx.names, { current: started, you: ctx.you }),
    d.secret ? secretRow(d.secret, ctx.state.language) : null,
  );
}

// The player's own duel of this round, once it has ended (or their bye).
export function myResultCard(ctx) {
  const state = ctx.state;
  const duel = state.duel;
  if (!duel) {
    return state.bye === ctx.you ? h("div", { class: "card result-card bye", id: "bye-card" }, h("p", {}, t("duel.bye"))) : null;
  }
  if (!duel.result) return null;
  const won = duel.result.winner === ctx.you;
  const cls = duel.result.kind === "draw" ? "draw" : won ? "won" : "lost";
  return h(
    "div",
    { class: `card result-card ${cls}`, id: "duel-result" },
    h("h2", {}, resultText(ctx, duel)),
    // A forfeit (D8) costs the leaver every life at once, the winner none.
    duel.result.kind === "forfeit" && !won ? null : h("p", { class: "life-note" }, won ? t("duel.noLifeLost") : t("duel.lifeLost")),
    duel.secret ? secretRow(duel.secret, state.language) : null,
  );
}

export function renderWaiting(ctx) {
  return h(
    "div",
    { class: "waiting-view", id: "waiting" },
    h("div", { class: "wait-top" }, myResultCard(ctx), h("p", { class: "waiting-note" }, h("span", { class: "dots", "aria-hidden": "true" }), t("duel.waiting"))),
    ctx.featured(),
    duelGrid(ctx),
    storyLink(ctx),
  );
}

export function storyLink(ctx) {
  if (!ctx.state.history_rounds) return null;
  return h("button", { class: "btn ghost wide", id: "open-story", type: "button", onclick: () => ctx.openStory() }, t("story.open"));
}

// Out (R9) or left (R20): the place and rating change at once, provisional until the round's
// places are fixed (D1); free to go (D14) or to stay and watch.
export function renderOut(ctx) {
  const p = ctx.me();
  const mine = standing(p);
  markExitSeen(ctx.tid); // seen here: the home screen need not tell it again (screens/exit.js)
  const seconds = Math.round(ctx.state.timers.reconnect_ms / 1000);
  const heading = p.status !== "left" ? t("out.heading") : p.left_reason === "away" ? t("out.away", { seconds }) : t("out.left");
  return h(
    "div",
    { class: "out-view", id: "out" },
    h(
      "div",
      { class: "card out-card" },
      h("h2", {}, heading),
      h(
        "dl",
        { class: "stats big" },
        h(
          "div",
          {},
          h("dt", {}, t("out.place")),
          h("dd", { id: "out-place", class: mine && mine.provisional ? "provisional" : "" }, mine ? place(mine.place) : t("out.pending")),
        ),
        h(
          "div",
          {},
          h("dt", {}, t("out.rating")),
          h("dd", { class: "out-rating" }, mine ? ratingLine(p, mine.change, { provisional: mine.provisional, id: "out-rating" }) : t("out.pending")),
        ),
      ),
      mine && mine.provisional ? h("p", { class: "hint", id: "out-provisional" }, t("out.provisional")) : null,
      waysOn(ctx, "out"),
    ),
    ctx.state.duel && ctx.state.duel.result ? myResultCard(ctx) : null,
    ctx.featured(),
    duelGrid(ctx),
    storyLink(ctx),
  );
}
