// The lively wait (R9): while the player's own duel is over, on a bye, or out, every duel of the
// round at a glance — small boards with their rows, whose turn and the time left, both players'
// lives — and any of them opens full size (watched through the state with ?watch=).

import { h } from "../../dom.js";
import { place, t } from "../../strings.js";
import { Board } from "../../components/board.js";
import { fullRows, miniBoard, secretRow } from "../../components/miniboard.js";
import { avatar, hearts } from "../common.js";
import { bar, countdown, duelTitle, playerCard, ratingLine, resultText, standing, waysOn } from "./parts.js";

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
      h("span", { class: "mname" }, id === ctx.you ? t("t.you") : p.nickname),
      h("span", { class: "hearts", "aria-hidden": "true" }, hearts(p.lives)),
    );
  };
  const status = live
    ? started
      ? h("span", { class: "mstatus" }, h("span", { class: "mturn" }, t("duel.theirTurn", { name: ctx.names.get(d.to_play) || "?" })), countdown(d.deadline))
      : h("span", { class: "mstatus" }, t("duel.starting"))
    : h("span", { class: "mstatus over" }, resultText(ctx, d));
  return h(
    "button",
    {
      class: `mini-duel ${live ? "live" : "over"} ${d.players.includes(ctx.you) ? "mine" : ""} ${ctx.watching === d.id ? "active" : ""}`,
      id: `mini-${d.id}`,
      type: "button",
      dataset: { duel: d.id },
      "aria-label": `${duelTitle(ctx, d.players)}: ${live ? t("watch.live") : t("watch.over")}`,
      onclick: () => ctx.watch(d.id),
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
  const compact = ctx.compact(duel);
  return h(
    "div",
    { class: `card result-card ${cls}`, id: "duel-result" },
    h("h2", {}, resultText(ctx, duel)),
    // A forfeit (D8) costs the leaver every life at once, the winner none.
    duel.result.kind === "forfeit" && !won ? null : h("p", { class: "life-note" }, won ? t("duel.noLifeLost") : t("duel.lifeLost")),
    duel.secret ? secretRow(duel.secret, state.language, "big") : null,
    miniBoard(compact, state.language, ctx.names, { you: ctx.you }),
  );
}

export function renderWaiting(ctx) {
  return h(
    "div",
    { class: "waiting-view", id: "waiting" },
    myResultCard(ctx),
    h("p", { class: "waiting-note" }, h("span", { class: "dots", "aria-hidden": "true" }), t("duel.waiting")),
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
  return h(
    "div",
    { class: "out-view", id: "out" },
    h(
      "div",
      { class: "card out-card" },
      h("h2", {}, p.status === "left" ? t("out.left") : t("out.heading")),
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
    duelGrid(ctx),
    storyLink(ctx),
  );
}

// One duel of the round full size: its board from the state (?watch=), whose turn, time left.
export class WatchView {
  constructor(ctx) {
    this.ctx = ctx;
    this.board = new Board(ctx.state.language);
    this.board.el.removeAttribute("id");
    this.board.el.id = "watch-board";
  }

  render() {
    const ctx = this.ctx;
    const d = ctx.state.duels.find((x) => x.id === ctx.watching);
    if (!d) return null;
    const [a, b] = d.players.map((id) => ctx.player(id));
    const started = ctx.now() >= ctx.state.starts_at;
    const used = (id) => d.board.filter((_, i) => d.players[i % 2] === id).length;
    const turnText = d.result
      ? resultText(ctx, d)
      : !started
        ? t("duel.starting")
        : t("duel.theirTurn", { name: ctx.names.get(d.to_play) || "?" });
    const rows = fullRows(d.players, d.board);
    this.board.update(
      { id: d.id, word_length: d.word_length, rows, result: d.result, to_play: started ? d.to_play : null },
      ctx.names,
      ctx.you,
      [],
    );
    return h(
      "div",
      { class: "watch", id: "watch", dataset: { duel: d.id } },
      h(
        "div",
        { class: "watch-head" },
        h("button", { class: "btn ghost small", id: "watch-back", type: "button", onclick: () => ctx.stopWatching() }, h("span", { "aria-hidden": "true" }, "← "), t("watch.back")),
        h("h2", {}, duelTitle(ctx, d.players)),
        h("span", { class: `pill ${d.result ? "done" : "live"}` }, d.result ? t("watch.over") : t("watch.live")),
      ),
      h(
        "div",
        { class: "duel-head" },
        playerCard(ctx, a, started && d.to_play === a.id ? "turn" : "", used(a.id)),
        h("div", { class: "duel-meta" }, h("span", { class: "chip" }, t("duel.letters", { n: d.word_length }))),
        playerCard(ctx, b, `right ${started && d.to_play === b.id ? "turn" : ""}`, used(b.id)),
      ),
      h(
        "div",
        { class: `turnbar ${d.result ? "over" : "theirs"}`, id: "watch-turnbar" },
        h("div", { class: "turn-line" }, h("span", { class: "turn-text" }, turnText), d.result ? null : countdown(started ? d.deadline : ctx.state.starts_at, { id: "watch-clock", cls: "turn-clock" })),
        d.result ? null : bar(started ? d.deadline : null, ctx.state.timers.turn_ms, "watch-fill"),
      ),
      d.secret ? secretRow(d.secret, ctx.state.language, "big") : null,
      h("div", { class: "board-wrap" }, this.board.el),
      duelGrid(ctx),
    );
  }
}
