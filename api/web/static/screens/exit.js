// Coming back: a player who left a tournament without seeing it happen — removed after the
// reconnect window ran out (D9: the tab was closed, the phone slept), or who left it from another
// tab — sees once, on the home screen, what happened: "You were away for more than 60 s, so you
// left the tournament: 7th, −24", with the way to its results. A player who saw their out card
// on this device already knows (renderOut marks it), so nothing is repeated.

import { h } from "../dom.js";
import { formatSigned, place, t } from "../strings.js";
import { standing } from "./tournament/parts.js";

const KEY = "wt.exitSeen"; // the last tournament whose exit this device has shown
let showing = null; // shown on this page: it stays through a redraw (a new language) until dismissed

function seen() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function markExitSeen(tournamentId) {
  try {
    localStorage.setItem(KEY, tournamentId);
  } catch {
    // private mode: the notice may show again on another visit
  }
}

// What to say about the player's exit from the tournament `state` (null when there is nothing
// new to say); `open` goes to the tournament (its live view or its results).
export function exitNotice(state, open) {
  const me = state.players.find((p) => p.id === state.you);
  if (!me || me.status !== "left") return null;
  if (seen() === state.id && showing !== state.id) return null;
  markExitSeen(state.id);
  showing = state.id;
  const mine = standing(me);
  const vars = {
    seconds: Math.round(state.timers.reconnect_ms / 1000),
    place: mine ? place(mine.place) : "",
    change: mine ? formatSigned(mine.change) : "",
  };
  const away = me.left_reason === "away";
  const text = mine ? t(away ? "back.away.placed" : "back.left.placed", vars) : away ? t("back.away", vars) : t("out.left");
  const card = h(
    "section",
    { class: "card exit-card", id: "exit-notice", role: "status" },
    h("p", { class: "exit-text", id: "exit-text" }, text, mine && mine.provisional ? [" ", h("span", { class: "pill provisional" }, t("rating.provisional"))] : null),
    h(
      "div",
      { class: "row-buttons" },
      h("button", { class: "btn secondary", id: "exit-results", type: "button", onclick: open }, t(state.phase === "finished" ? "home.last.results" : "home.last.watch")),
      h(
        "button",
        {
          class: "btn ghost",
          id: "exit-dismiss",
          type: "button",
          onclick: () => {
            showing = null;
            card.remove();
          },
        },
        t("back.dismiss"),
      ),
    ),
  );
  return card;
}
