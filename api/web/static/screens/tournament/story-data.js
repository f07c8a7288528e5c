// What the client knows of the rounds played: the history (GET …/history, ETag "h<rounds>",
// fetched when the state's `history_rounds` grows or the story opens) and the player's own
// duels as they ended (the answer to the guess that ended one carries it, `ended_duel`).

import * as api from "../../api.js";

// A duel view's rows in the compact form of the state's `duels` and the history.
export function compact(duel) {
  return {
    id: duel.id,
    players: duel.players,
    word_length: duel.word_length,
    result: duel.result,
    secret: duel.secret,
    to_play: null,
    board: duel.rows.map((r) => (r.skipped ? null : [r.tiles, r.marks])),
  };
}

function roundOf(duelId) {
  const m = /^r(\d+)d/.exec(duelId || "");
  return m ? Number(m[1]) : null;
}

export class StoryData {
  constructor(tid, onChange) {
    this.tid = tid;
    this.onChange = onChange;
    this.history = null; // {id, rounds}
    this.etag = null;
    this.busy = false;
    this.ended = new Map(); // round → the player's own duel of that round, once ended
  }

  count() {
    return this.history ? this.history.rounds.length : 0;
  }

  round(n) {
    return this.history ? this.history.rounds.find((r) => r.number === n) || null : null;
  }

  // A duel of the player's (a full duel view) that has ended.
  remember(duel) {
    if (duel && duel.result) this.ended.set(roundOf(duel.id), compact(duel));
  }

  // The player's own duel of round `n`, as far as this client knows it.
  lastDuel(n, you) {
    if (this.ended.has(n)) return this.ended.get(n);
    const round = this.round(n);
    return round ? round.duels.find((d) => d.players.includes(you)) || null : null;
  }

  async load() {
    if (this.busy) return;
    this.busy = true;
    try {
      const r = await api.get(`/v1/tournaments/${encodeURIComponent(this.tid)}/history`, { etag: this.etag });
      if (r.status === 200) {
        this.history = r.data;
        this.etag = r.headers.get("ETag");
      }
    } catch (err) {
      console.warn(err);
    } finally {
      this.busy = false;
    }
    this.onChange();
  }
}
