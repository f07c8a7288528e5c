// The coach's analyses (D19: GET …/duels/{duel_id}/analysis), kept in memory for the page's
// life: an ended duel's analysis never changes, so each is asked for once. Only ever for an
// ended duel: a duel whose `result` is still null is never asked for (the server would answer
// 409 duel_in_play, and a live board's analysis would be a hint).

import * as api from "../api.js";

const KEPT = 300; // analyses kept (a few KB each), the oldest out first

const kept = new Map(); // "tournament/duel" → {promise, data, error}
const waiting = new Map(); // duels being gathered (gather()) → what to run once they have come

function key(tid, duelId) {
  return `${tid}/${duelId}`;
}

// A duel that has an analysis worth opening: ended, with at least one word played.
export function coachable(duel) {
  return Boolean(duel && duel.result && (duel.board || []).some((row) => row !== null));
}

// The analysis of `duel` (a duel of the state, the history or the summary) when already here.
export function peek(tid, duelId) {
  const entry = kept.get(key(tid, duelId));
  return entry && entry.data ? entry.data : null;
}

// The analysis of an ended duel: from memory, else asked for once (a failure is forgotten, so
// that opening it again asks again).
export function analysis(tid, duel) {
  if (!duel || !duel.result) {
    return Promise.reject(new api.ApiError(409, "duel_in_play", "the duel is still being played"));
  }
  const id = key(tid, duel.id);
  const known = kept.get(id);
  if (known && !known.error) return known.promise;
  const entry = { promise: null, data: null, error: null };
  const path = `/v1/tournaments/${encodeURIComponent(tid)}/duels/${encodeURIComponent(duel.id)}/analysis`;
  entry.promise = api.get(path).then(
    (response) => {
      entry.data = response.data;
      return response.data;
    },
    (err) => {
      entry.error = err;
      throw err;
    },
  );
  kept.delete(id);
  kept.set(id, entry);
  while (kept.size > KEPT) kept.delete(kept.keys().next().value);
  return entry.promise;
}

// The analyses of several ended duels of one tournament (the player's own, for the results and
// the share): {done, analyses (duel id → analysis), failed}. What is missing is asked for, and
// `onSettled` runs once when every one of them has come or failed (pass the same function on
// every draw: it is kept once).
export function gather(tid, duels, onSettled) {
  const wanted = duels.filter(coachable);
  const analyses = new Map();
  const missing = [];
  let failed = false;
  for (const duel of wanted) {
    const entry = kept.get(key(tid, duel.id));
    if (entry && entry.data) analyses.set(duel.id, entry.data);
    else if (entry && entry.error) failed = true;
    else missing.push(duel);
  }
  if (missing.length) {
    const id = key(tid, missing.map((duel) => duel.id).join(","));
    let callbacks = waiting.get(id);
    if (!callbacks) {
      callbacks = new Set();
      waiting.set(id, callbacks);
      Promise.allSettled(missing.map((duel) => analysis(tid, duel))).then(() => {
        waiting.delete(id);
        for (const callback of callbacks) callback();
      });
    }
    callbacks.add(onSettled);
  }
  return { done: !missing.length, analyses, failed };
}

// A player's skill over a tournament: the mean of the skill of every word they played in
// `analyses` (a skipped turn has none), rounded; null when there is none.
export function skillOver(analyses, you) {
  const scores = [];
  for (const a of analyses.values()) {
    for (const row of a.rows) if (row.by === you && row.skill !== null) scores.push(row.skill);
  }
  if (!scores.length) return null;
  return Math.round(scores.reduce((sum, s) => sum + s, 0) / scores.length);
}

// The player's own summary line of one analysis ({player, guesses, skill, luck}).
export function summaryOf(a, playerId) {
  return a ? a.players_summary.find((s) => s.player === playerId) || null : null;
}
