// Statistics (GET /v1/me/stats): tournaments, wins, podiums, average place, win streaks, the
// duels, the guesses of the duels won (Wordle's distribution) and the rating over time.

import * as api from "../api.js";
import { h, replace } from "../dom.js";
import { formatNumber, t } from "../strings.js";
import { ratingChart } from "./records/chart.js";
import { emptyCard, recordsNav } from "./records/nav.js";

export async function mount(root) {
  const { data: stats } = await api.get("/v1/me/stats");
  replace(
    root,
    h(
      "section",
      { class: "records screen stats-screen", id: "stats", "aria-labelledby": "stats-title" },
      recordsNav("stats"),
      h("h1", { id: "stats-title" }, t("records.stats")),
      stats.tournaments_played === 0
        ? emptyCard("stats-empty", t("stats.empty"))
        : [numbers(stats), distribution(stats.guesses), duels(stats.duels), rating(stats)],
    ),
  );
  return null;
}

// A number and what it counts (the number shows above, css/records.css).
function figure(id, value, label) {
  return h("div", { class: "figure", id }, h("dt", {}, label), h("dd", {}, value));
}

function numbers(stats) {
  const winRate = Math.round((100 * stats.wins) / stats.tournaments_played);
  return h(
    "dl",
    { class: "card figures", id: "stats-figures" },
    figure("stat-played", formatNumber(stats.tournaments_played), t("stats.played")),
    figure("stat-wins", formatNumber(stats.wins), t("stats.wins")),
    figure("stat-win-rate", formatNumber(winRate / 100, { style: "percent" }), t("stats.winRate")),
    figure("stat-podiums", formatNumber(stats.podiums), t("stats.podiums")),
    figure(
      "stat-average",
      stats.average_place === null ? "—" : formatNumber(stats.average_place, { maximumFractionDigits: 2, minimumFractionDigits: 0 }),
      t("stats.averagePlace"),
    ),
    figure("stat-streak", formatNumber(stats.win_streak.current), t("stats.streak")),
    figure("stat-best-streak", formatNumber(stats.win_streak.best), t("stats.bestStreak")),
    figure("stat-rating", formatNumber(stats.rating), t("stats.rating")),
  );
}

// Wordle's bars: duels won on the player's 1st … 6th turn.
function distribution(guesses) {
  const most = Math.max(1, ...guesses);
  const won = guesses.reduce((a, b) => a + b, 0);
  return h(
    "section",
    { class: "card dist-card", "aria-labelledby": "guesses-title" },
    h("h2", { class: "label", id: "guesses-title" }, t("stats.guesses")),
    won === 0
      ? h("p", { class: "hint" }, t("stats.guesses.none"))
      : h(
          "ol",
          { class: "distribution", id: "distribution" },
          guesses.map((count, i) =>
            h(
              "li",
              { class: `dist-row ${count === most ? "most" : ""}`, "aria-label": t("stats.guesses.row", { turn: i + 1, n: count }) },
              h("span", { class: "dist-turn", "aria-hidden": "true" }, formatNumber(i + 1)),
              h(
                "span",
                { class: "dist-track", "aria-hidden": "true" },
                h("span", { class: "dist-bar", style: { "--share": `${Math.max(7, (100 * count) / most)}%` } }, formatNumber(count)),
              ),
            ),
          ),
        ),
    h("p", { class: "hint" }, t("stats.guesses.hint")),
  );
}

function duels(counts) {
  const total = counts.won + counts.drawn + counts.lost;
  const part = (kind, n) =>
    h("span", { class: `duel-part ${kind}`, style: { "--share": total ? n / total : 0 }, "aria-hidden": "true" });
  return h(
    "section",
    { class: "card duels-card", "aria-labelledby": "duels-title" },
    h("h2", { class: "label", id: "duels-title" }, t("stats.duels")),
    h("div", { class: "duel-split", "aria-hidden": "true" }, part("won", counts.won), part("drawn", counts.drawn), part("lost", counts.lost)),
    h(
      "dl",
      { class: "duel-counts", id: "duel-counts" },
      figure("duels-won", formatNumber(counts.won), t("stats.duels.won")),
      figure("duels-drawn", formatNumber(counts.drawn), t("stats.duels.drawn")),
      figure("duels-lost", formatNumber(counts.lost), t("stats.duels.lost")),
    ),
  );
}

function rating(stats) {
  const points = stats.rating_history;
  return h(
    "section",
    { class: "card chart-card", "aria-labelledby": "chart-title" },
    h("h2", { class: "label", id: "chart-title" }, t("stats.chart")),
    points.length ? ratingChart(points) : null,
  );
}
