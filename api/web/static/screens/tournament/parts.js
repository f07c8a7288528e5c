// Pieces the tournament's views share: player cards, results in words, ratings before → after,
// countdowns that the screen's ticker keeps running.

import * as clock from "../../clock.js";
import { h } from "../../dom.js";
import { formatNumber, place, t } from "../../strings.js";
import { avatar, hearts, signed } from "../common.js";
import { playerName } from "../../components/names.js";

// A countdown to `deadline` (server time): the screen's ticker writes the seconds left into
// every element that carries data-deadline, and the width of every bar that carries data-bar.
export function countdown(deadline, { id = null, cls = "clock" } = {}) {
  return h("span", { class: cls, id, role: "timer", dataset: { deadline: String(deadline ?? "") } });
}

// Every countdown (data-deadline) and time bar (data-bar) under `root`, in server time: the
// screen's ticker calls this a few times a second.
export function runClocks(root) {
  for (const el of root.querySelectorAll("[data-deadline]")) {
    const deadline = el.dataset.deadline;
    const left = () => clock.seconds(clock.left(Number(deadline)));
    const text = !deadline || deadline === "null" ? "" : el.dataset.plain ? formatNumber(left()) : t("duel.seconds", { n: left() });
    if (el.textContent !== text) el.textContent = text;
  }
  for (const el of root.querySelectorAll("[data-bar]")) {
    const deadline = el.dataset.bar;
    const total = Number(el.dataset.total) || 1;
    const left = !deadline || deadline === "null" ? total : clock.left(Number(deadline));
    el.style.width = `${Math.max(0, Math.min(100, (left / total) * 100))}%`;
    el.parentElement.classList.toggle("low", left < Math.min(5000, total / 3));
  }
}

export function bar(deadline, total, id = null) {
  return h(
    "div",
    { class: "bar", "aria-hidden": "true" },
    h("i", { id, dataset: { bar: String(deadline ?? ""), total: String(total) } }),
  );
}

export function playerCard(ctx, p, extra = "", used = null) {
  return h(
    "div",
    { class: `pcard ${extra} ${p.id === ctx.you ? "you" : ""}` },
    avatar(p),
    h(
      "span",
      { class: "pcard-text" },
      playerName(p, ctx.you, "pcard-name"),
      h("span", { class: "hearts", role: "img", "aria-label": t("t.lives.label", { name: p.nickname, n: p.lives }) }, hearts(p.lives)),
      used === null ? null : turnPips(used),
    ),
  );
}

// Six pips per player: the turns used of R10's six.
export function turnPips(used) {
  const pips = [];
  for (let i = 0; i < 6; i++) pips.push(h("i", { class: i < used ? "used" : "" }));
  return h("span", { class: "pips", role: "img", "aria-label": t("duel.turnsLeft", { n: 6 - used }) }, pips);
}

// How a duel ended, in words, from the viewer's side: "You found it!", "Ana found it", …
export function resultText(ctx, duel) {
  const r = duel.result;
  if (!r) return "";
  const name = (id) => ctx.names.get(id) || "?";
  const mine = duel.players.includes(ctx.you);
  if (r.kind === "draw") return t("duel.draw");
  if (r.kind === "forfeit") {
    const leaver = duel.players.find((p) => p !== r.winner);
    if (!mine) return t("duel.forfeit.other", { name: name(leaver) });
    return r.winner === ctx.you ? t("duel.forfeit.win", { name: name(leaver) }) : t("duel.forfeit.lose");
  }
  if (mine && r.winner === ctx.you) return t("duel.win");
  return t("duel.lose", { name: name(r.winner) });
}

// "Ana vs Ben", or "You vs Ben" for our own duel.
export function duelTitle(ctx, ids) {
  const [a, b] = ids.map((id) => ctx.names.get(id) || "?");
  if (ids[0] === ctx.you) return t("watch.title.you", { name: b });
  if (ids[1] === ctx.you) return t("watch.title.you", { name: a });
  return t("watch.title", { a, b });
}

export function ratingClass(n) {
  return n > 0 ? "up" : n < 0 ? "down" : "";
}

// A player's place and rating change: fixed, or provisional while the round that put them out
// is still being played (R9, D1: it can only get better).
export function standing(p) {
  if (p.place !== null && p.place !== undefined) {
    return { place: p.place, change: p.rating_change, provisional: false };
  }
  if (p.provisional) return { place: p.provisional.place, change: p.provisional.rating_change, provisional: true };
  return null;
}

// "1000 → 1018": the rating at the start (D5) and after the change (numbers and an arrow read
// the same in every language of the game).
export function ratingMove(p, change) {
  if (change === null || change === undefined || p.rating === null || p.rating === undefined) return null;
  return `${formatNumber(p.rating)} → ${formatNumber(p.rating + change)}`;
}

// The place and rating change of a player who is out, as a line: "6th · 1000 → 982 (−18)".
export function ratingLine(p, change, { provisional = false, id = null } = {}) {
  const move = ratingMove(p, change);
  return h(
    "span",
    { class: `rating-line ${ratingClass(change)} ${provisional ? "provisional" : ""}`, id },
    move ? h("span", { class: "move" }, move) : null,
    h("strong", { class: `delta ${ratingClass(change)}` }, signed(change)),
    provisional ? h("span", { class: "pill provisional" }, t("rating.provisional")) : null,
  );
}

export function placeText(n) {
  return n ? place(n) : "—";
}

// A player's line of the standings: place, name, rating change and before → after; `note`
// under the name (the public results say when each player went out).
export function standingLine(ctx, p, note = null) {
  return h(
    "li",
    { class: `standing ${p.id === ctx.you ? "you" : ""} place-${p.place}`, dataset: { player: p.id } },
    h("span", { class: `medal m${p.place}` }, placeText(p.place)),
    h(
      "span",
      { class: "who" },
      avatar(p, "small"),
      h(
        "span",
        { class: "who-name" },
        h("span", { class: "who-line" }, playerName(p, null, "who-nick"), p.id === ctx.you ? h("span", { class: "you-mark" }, t("group.you")) : null),
        note ? h("span", { class: "who-note" }, note) : null,
      ),
    ),
    h(
      "span",
      { class: "rating-cell" },
      h("strong", { class: `delta ${ratingClass(p.rating_change)}` }, signed(p.rating_change)),
      h("span", { class: "move" }, ratingMove(p, p.rating_change) || ""),
    ),
  );
}

// The ways on for a player who is free (D14): their group (R22), another game, home. `prefix`
// names the buttons (results-group, out-again, …).
export function waysOn(ctx, prefix) {
  const group = ctx.inGroup();
  return h(
    "div",
    { class: "row-buttons" },
    group ? h("button", { class: "btn primary", id: `${prefix}-group`, type: "button", onclick: () => ctx.go("group") }, t("results.group")) : null,
    h("button", { class: `btn ${group ? "secondary" : "primary"}`, id: `${prefix}-again`, type: "button", onclick: () => ctx.playAgain() }, t("results.again")),
    h("button", { class: "btn ghost", id: `${prefix}-home`, type: "button", onclick: () => ctx.go("") }, t("results.home")),
  );
}
