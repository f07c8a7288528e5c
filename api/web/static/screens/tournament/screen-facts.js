// What the tournament's views ask of their screen (screens/tournament.js): who the player is,
// the time, the players, whether the player is still in, whether it is their turn (R10, by
// the clock), and the story's rounds. The screen extends this class (through ScreenActions);
// it holds the state, the story and the rest these answers read.

import * as clock from "../../clock.js";
import { language, store } from "../../state.js";
import { compact } from "./story-data.js";

export class ScreenFacts {
  get you() {
    return this.state.you;
  }

  now() {
    return clock.now();
  }

  lang() {
    return language(this.state.language);
  }

  me() {
    return this.player(this.state.you);
  }

  player(id) {
    return this.state.players.find((p) => p.id === id);
  }

  isOut(p) {
    return Boolean(p) && (p.status === "out" || p.status === "left");
  }

  stillIn() {
    return Boolean(this.state) && this.state.phase !== "finished" && Boolean(this.me()) && !this.isOut(this.me());
  }

  inGroup() {
    const where = store.where || store.me || {};
    return Boolean(where.group_id);
  }

  // R10 as a function of time: the player's turn runs from the duel's start to its deadline.
  yourTurn(duel) {
    if (!duel || duel.result || duel.to_play !== this.you) return false;
    const now = this.now();
    return now >= duel.starts_at && (duel.deadline === null || now < duel.deadline);
  }

  compact(duel) {
    return compact(duel);
  }

  get history() {
    return this.story.history;
  }

  lastDuel(n) {
    return this.story.lastDuel(n, this.you);
  }

  historyRound(n) {
    return this.story.round(n);
  }

  loadHistory() {
    return this.story.load();
  }
}
