// The featured duel (R9): while the player waits — their duel over, a bye, or out and watching —
// one duel of the round shows full size without a click: its board, whose turn and the clock,
// both players' lives. It is the closest race (the fewest rows left, a player on their last life
// counting as two rows fewer), or the one the player pinned from the small previews; when it ends
// it shows its result for a moment, then the next closest race takes its place by itself.
//
// It costs no request of its own: every duel's board is in the state, and the state is polled
// with ?watch=<the featured duel>, so the server advises polls as for a player of that duel
// (docs/client.md) — what watching one duel always cost.

import { h } from "../../dom.js";
import { t } from "../../strings.js";
import { Board } from "../../components/board.js";
import { fullRows, secretRow } from "../../components/miniboard.js";
import { bar, countdown, duelTitle, playerCard, resultText } from "./parts.js";

export const HOLD_MS = 3000; // an ended featured duel stays on screen this long, with its result
const ROWS = 12; // R10: six turns each
const LAST_LIFE_ROWS = 2; // a player on their last life: the race is as close as two rows nearer

// How close a live duel is to its end: rows left, less LAST_LIFE_ROWS per player on their last
// life (what is at stake). Lower is closer.
export function closeness(duel, livesOf) {
  const atStake = duel.players.filter((id) => livesOf(id) === 1).length;
  return ROWS - duel.board.length - LAST_LIFE_ROWS * atStake;
}

// The live duels, the closest race first (then the duel's id, so that the order is stable).
export function closestRaces(duels, livesOf) {
  return duels
    .filter((d) => !d.result)
    .map((d) => ({ d, key: closeness(d, livesOf) }))
    .sort((a, b) => a.key - b.key || (a.d.id < b.d.id ? -1 : a.d.id > b.d.id ? 1 : 0))
    .map((x) => x.d);
}

// Which duel is featured, across polls: it stays while live (a race is not left for a closer one
// mid-way), stays HOLD_MS once ended, then gives way. A pinned duel is the player's choice: it
// stays while live, and one pinned when already over stays until unpinned or the round ends.
export class Spotlight {
  constructor() {
    this.id = null;
    this.pinned = false;
    this.pinnedOver = false;
    this.endedAt = null;
  }

  // The featured duel's id for `state` at device time `now` (null when the round has none).
  update(state, now = Date.now()) {
    const livesOf = (id) => (state.players.find((p) => p.id === id) || {}).lives;
    const current = this.id && state.duels.find((d) => d.id === this.id);
    if (!current) this.release();
    else if (current.result) {
      if (this.endedAt === null) this.endedAt = now;
      const stays = this.pinned && this.pinnedOver;
      if (!stays && now - this.endedAt >= HOLD_MS) this.release();
    }
    if (this.id === null) {
      const next = closestRaces(state.duels, livesOf)[0];
      this.id = next ? next.id : null;
    }
    return this.id;
  }

  // The duel whose turns the next poll should be advised for: the featured one while it is
  // live, else the one that will follow it (so no poll is spent on a duel that is over).
  watchId(state) {
    const current = this.id && state.duels.find((d) => d.id === this.id);
    if (current && !current.result) return current.id;
    const livesOf = (id) => (state.players.find((p) => p.id === id) || {}).lives;
    const next = closestRaces(state.duels, livesOf)[0];
    return next ? next.id : null;
  }

  // Hold until the duel ends, or no longer than HOLD_MS from `now` if it already has.
  remaining(now = Date.now()) {
    return this.endedAt === null || (this.pinned && this.pinnedOver) ? null : Math.max(0, HOLD_MS - (now - this.endedAt));
  }

  pin(duel) {
    this.id = duel.id;
    this.pinned = true;
    this.pinnedOver = Boolean(duel.result);
    this.endedAt = null;
  }

  // Back to the closest race (which may be another duel than the one pinned).
  unpin() {
    this.release();
  }

  release() {
    this.id = null;
    this.pinned = false;
    this.pinnedOver = false;
    this.endedAt = null;
  }
}

// The featured duel, full size: kept across polls (its board flips new rows in).
export class FeaturedView {
  constructor(ctx, duelId) {
    this.ctx = ctx;
    this.id = duelId;
    this.board = new Board(ctx.state.language);
    this.board.el.id = "featured-board";
    this.board.el.classList.add("featured-board");
  }

  render() {
    const ctx = this.ctx;
    const d = ctx.state.duels.find((x) => x.id === this.id);
    if (!d) return null;
    const [a, b] = d.players.map((id) => ctx.player(id));
    const started = ctx.now() >= ctx.state.starts_at;
    const used = (id) => d.board.filter((_, i) => d.players[i % 2] === id).length;
    const turn = started && !d.result ? d.to_play : null;
    const turnText = d.result
      ? resultText(ctx, d)
      : !started
        ? t("duel.starting")
        : t("duel.theirTurn", { name: ctx.names.get(d.to_play) || "?" });
    this.board.update(
      { id: d.id, word_length: d.word_length, rows: fullRows(d.players, d.board), result: d.result, to_play: turn },
      ctx.names,
      ctx.you,
      [],
    );
    const pinned = ctx.spotlight.pinned;
    return h(
      "section",
      { class: `featured card ${d.result ? "over" : "live"}`, id: "featured", dataset: { duel: d.id }, "aria-labelledby": "featured-title" },
      h(
        "div",
        { class: "featured-head" },
        h("span", { class: `pill ${d.result ? "done" : "live"}` }, d.result ? t("watch.over") : t("watch.live")),
        h("span", { class: "chip" }, t("duel.letters", { n: d.word_length })),
        // The two players' lines below name them: the title is for screen readers.
        h("h2", { class: "sr-only", id: "featured-title" }, duelTitle(ctx, d.players)),
        pinned
          ? h("button", { class: "btn ghost small", id: "featured-unpin", type: "button", onclick: () => ctx.unpin() }, t("watch.unpin"))
          : h("span", { class: "featured-why" }, t("watch.closest")),
      ),
      // One line a player, as in the previews: each name has the card's whole width.
      h(
        "div",
        { class: "duel-head stacked" },
        playerCard(ctx, a, turn === a.id ? "turn" : "", used(a.id)),
        playerCard(ctx, b, turn === b.id ? "turn" : "", used(b.id)),
      ),
      h(
        "div",
        { class: `turnbar ${d.result ? "over" : "theirs"}`, id: "featured-turnbar" },
        h(
          "div",
          { class: "turn-line" },
          h("span", { class: "turn-text", id: "featured-turn" }, turnText),
          d.result ? null : countdown(started ? d.deadline : ctx.state.starts_at, { id: "featured-clock", cls: "turn-clock" }),
        ),
        d.result ? null : bar(started ? d.deadline : null, ctx.state.timers.turn_ms, "featured-fill"),
      ),
      d.secret ? secretRow(d.secret, ctx.state.language, "big") : null,
      h("div", { class: "board-wrap" }, this.board.el),
    );
  }
}
