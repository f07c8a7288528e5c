// The coach (D19): an ended duel's analysis in a sheet over the screen that opened it (the
// story, the results, the public results) — full screen on a phone, a column on a desktop.
//
// Per row: the word with its marks and who played it, how many words could still be the answer
// before → after it, the word's skill and luck out of 100, and the best word the coach found
// beside the played word's expected count (a suggestion, in plain tiles: it was never played);
// then each player's summary. A newcomer gets a line each on skill and luck in words, a screen
// reader a sentence per row. The back button closes the sheet (it holds a history entry of the
// same address), as do Escape and the close button; the screen that opened it closes it when
// it goes away.

import { h, replace } from "../dom.js";
import { formatList, formatNumber, t } from "../strings.js";
import { avatar, errorText, hue, tileText } from "../screens/common.js";
import { fitNames, playerName, spokenName } from "./names.js";
import { tileState } from "./board.js";
import { secretRow } from "./miniboard.js";
import { analysis, peek } from "./coach-data.js";

const CLASS = { G: "mG", Y: "mY", "-": "mX" };
// A score's name, and what a screen reader hears of it (with a number, and without one).
const SCORES = {
  skill: ["coach.skill", "coach.sr.skill", "coach.sr.skill.none"],
  luck: ["coach.luck", "coach.sr.luck", "coach.sr.luck.none"],
};

let current = null; // {dialog, duelId, opener}

window.addEventListener("popstate", () => {
  if (current) finish(false); // the back button: its entry is already gone
});

function roundOf(duelId) {
  const m = /^r(\d+)d/.exec(duelId || "");
  return m ? Number(m[1]) : null;
}

// Opens the analysis of `duel` (ended: coach-data.js never asks for a live one).
// `o`: {tid, duel, players (id → {id, nickname, bot}), you, lang (the word language), title
// ("You vs Ben"), result ("Ben found it"), opener (the id of the button to focus again)}.
export function openCoach(o) {
  finish(false);
  const body = h("div", { class: "coach-body", id: "coach-body" });
  const close = h(
    "button",
    { class: "icon-btn coach-close", id: "coach-close", type: "button", title: t("coach.close"), "aria-label": t("coach.close") },
    h("span", { "aria-hidden": "true" }, "×"),
  );
  const round = roundOf(o.duel.id);
  const dialog = h(
    "dialog",
    { class: "coach", id: "coach", "aria-labelledby": "coach-title", dataset: { duel: o.duel.id } },
    h(
      "header",
      { class: "coach-head" },
      h(
        "div",
        { class: "coach-titles" },
        h("p", { class: "label", id: "coach-round" }, round ? `${t("t.round", { n: round })} · ${t("coach.title")}` : t("coach.title")),
        h("h2", { id: "coach-title" }, o.title),
      ),
      close,
    ),
    body,
  );
  close.addEventListener("click", () => finish(true));
  dialog.addEventListener("close", () => current && current.dialog === dialog && finish(true));
  dialog.addEventListener("click", (e) => {
    if (e.target === dialog) finish(true); // the backdrop, on a desktop
  });
  document.body.appendChild(dialog);
  current = { dialog, duelId: o.duel.id, opener: o.opener || null };
  history.pushState({ coach: o.duel.id }, "");
  dialog.showModal();
  close.focus();
  load(dialog, body, o);
}

// Closes the sheet, if one is open (the screen under it goes away, or moves on).
export function closeCoach() {
  finish(false);
}

function finish(byPlayer) {
  const c = current;
  if (!c) return;
  current = null;
  if (c.dialog.open) c.dialog.close();
  c.dialog.remove();
  // Closed by the player: the history entry it held goes too, so that Back then leaves the screen.
  if (byPlayer && history.state && history.state.coach === c.duelId) history.back();
  const opener = c.opener && document.getElementById(c.opener);
  if (opener) opener.focus({ preventScroll: true });
}

function load(dialog, body, o) {
  const known = peek(o.tid, o.duel.id);
  if (known) {
    fill(dialog, body, known, o);
    return;
  }
  replace(body, h("p", { class: "loading", "aria-busy": "true" }, h("span", { class: "spinner", "aria-hidden": "true" })));
  analysis(o.tid, o.duel).then(
    (a) => current && current.dialog === dialog && fill(dialog, body, a, o),
    (err) => current && current.dialog === dialog && failed(dialog, body, err, o),
  );
}

// A duel still being played (the server's 409, never asked for by this client), one that is
// not there, or the network: said in a line, with another try where one can help.
function failed(dialog, body, err, o) {
  const final = err && (err.code === "duel_in_play" || err.status === 404 || err.status === 403);
  replace(
    body,
    h(
      "div",
      { class: "coach-error", id: "coach-error", role: "status" },
      h("p", {}, errorText(err)),
      final ? null : h("button", { class: "btn secondary", id: "coach-retry", type: "button", onclick: () => load(dialog, body, o) }, t("coach.retry")),
    ),
  );
}

function fill(dialog, body, a, o) {
  const player = (id) => o.players.get(id) || { id, nickname: "?" };
  const name = (id) => spokenName(player(id), o.you);
  replace(
    body,
    h(
      "div",
      { class: "coach-outcome" },
      o.result ? h("p", { class: "coach-result", id: "coach-result" }, o.result) : null,
      secretRow(a.secret, o.lang),
    ),
    h(
      "section",
      { class: "coach-summary", id: "coach-summary", "aria-label": t("coach.summary") },
      youFirst(a.players_summary, o.you).map((s) => summaryCard(s, player(s.player), o.you)),
    ),
    h(
      "div",
      { class: "coach-explain", id: "coach-explain" },
      h("p", {}, term(t("coach.skill.explain"), t("coach.skill"))),
      h("p", {}, term(t("coach.luck.explain"), t("coach.luck"))),
      h(
        "details",
        { class: "coach-more", id: "coach-more" },
        h("summary", {}, t("coach.more")),
        h("p", {}, t("coach.count.explain")),
        h("p", {}, t("coach.expected.explain")),
      ),
    ),
    a.rows.length
      ? h("ol", { class: "coach-rows", id: "coach-rows", "aria-label": t("coach.rows") }, a.rows.map((r) => row(r, player(r.by), name(r.by), o)))
      : h("p", { class: "hint" }, t("coach.empty")),
  );
  fitNames(dialog);
}

// The viewer's own line first, as the sheet's title names them ("You vs Ben").
function youFirst(summary, you) {
  return [...summary].sort((a, b) => (b.player === you) - (a.player === you));
}

// A line that starts with the word it explains: that word in bold.
function term(text, word) {
  return text.startsWith(word) ? [h("strong", {}, word), text.slice(word.length)] : text;
}

function summaryCard(s, p, you) {
  return h(
    "article",
    { class: `coach-player ${p.id === you ? "you" : ""}`, dataset: { player: p.id } },
    h("div", { class: "cp-who" }, avatar(p, "small"), playerName(p, you, "cp-name")),
    h("div", { class: "cp-scores" }, score("skill", s.skill), score("luck", s.luck)),
    h("p", { class: "cp-words" }, s.guesses ? t("coach.words", { n: s.guesses }) : t("coach.noWords")),
  );
}

// "Skill 87" with a bar out of 100; screen readers hear "Skill: 87 of 100".
function score(kind, n) {
  const none = n === null || n === undefined;
  const [name, said, unsaid] = SCORES[kind];
  return h(
    "span",
    { class: `score ${kind}` },
    h("span", { class: "score-name", "aria-hidden": "true" }, t(name)),
    h("span", { class: "score-n", "aria-hidden": "true" }, none ? "—" : formatNumber(n)),
    h("span", { class: "sr-only" }, none ? t(unsaid) : t(said, { score: n })),
    h("span", { class: "meter", "aria-hidden": "true" }, h("i", { style: { width: `${none ? 0 : n}%` } })),
  );
}

// An expected number of words left, as shown: one decimal at most ("6.1", "14").
function expected(x) {
  return formatNumber(Math.round(x * 10) / 10, { maximumFractionDigits: 1 });
}

function tiles(word, marks, lang, extra = "") {
  return h(
    "span",
    { class: `cr-tiles ${extra}`.trim(), lang },
    word.map((tile, c) =>
      h("i", { class: `mt ${marks ? CLASS[marks[c]] || "mX" : "suggest"} ${tile.length > 1 ? "multi" : ""}`.trim() }, tileText(tile, lang)),
    ),
  );
}

function spelled(word, lang) {
  return word.map((tile) => tileText(tile, lang)).join("");
}

function row(r, p, who, o) {
  const n = r.row + 1;
  const head = h(
    "div",
    { class: "cr-head", "aria-hidden": "true" },
    h("span", { class: "mby", style: { "--hue": hue(p.id) } }),
    h("span", { class: "cr-n" }, t("coach.row", { n })),
    playerName(p, o.you, "cr-name"),
    r.skipped
      ? null
      : h(
          "span",
          { class: "cr-count" },
          h("span", { class: "cr-before" }, formatNumber(r.before)),
          " → ",
          r.after
            ? h("span", { class: "cr-after" }, formatNumber(r.after))
            : h("span", { class: "cr-after found" }, t("coach.found")),
        ),
  );
  if (r.skipped) {
    return h(
      "li",
      { class: `coach-row skipped ${p.id === o.you ? "mine" : ""}`, dataset: { row: String(r.row) } },
      head,
      h("p", { class: "cr-skipped", "aria-hidden": "true" }, t("coach.skipped")),
      h("p", { class: "sr-only" }, t("coach.sr.skipped", { row: n, name: who })),
    );
  }
  const same = r.best && r.best.join("") === r.tiles.join("");
  const marks = formatList(r.tiles.map((tile, c) => tileState(tile, r.marks[c], o.lang)), { type: "unit", style: "short" });
  const word = spelled(r.tiles, o.lang);
  const said = [
    r.after
      ? t("coach.sr.row", { row: n, name: who, word, marks, before: r.before, after: r.after })
      : t("coach.sr.found", { row: n, name: who, word, before: r.before }),
    t("coach.sr.scores", { skill: r.skill, luck: r.luck }),
    same
      ? t("coach.sr.bestPlayed", { played: expected(r.played_expected) })
      : t("coach.sr.best", { word: spelled(r.best, o.lang), best: expected(r.best_expected), played: expected(r.played_expected) }),
  ];
  return h(
    "li",
    { class: `coach-row ${p.id === o.you ? "mine" : ""}`, dataset: { row: String(r.row) } },
    head,
    h(
      "div",
      { class: "cr-word", "aria-hidden": "true" },
      tiles(r.tiles, r.marks, o.lang),
      h("span", { class: "cr-exp cr-played-exp" }, `≈ ${expected(r.played_expected)}`),
    ),
    h("div", { class: "cr-scores", "aria-hidden": "true" }, score("skill", r.skill), score("luck", r.luck)),
    same
      ? h("p", { class: "cr-best same", "aria-hidden": "true" }, t("coach.best.played"))
      : h(
          "div",
          { class: "cr-best", "aria-hidden": "true" },
          h("span", { class: "cr-best-label" }, t("coach.suggestion")),
          tiles(r.best, null, o.lang, "suggested"),
          h("span", { class: "cr-exp cr-best-exp" }, `≈ ${expected(r.best_expected)}`),
        ),
    h("p", { class: "sr-only" }, said.join(" ")),
  );
}
