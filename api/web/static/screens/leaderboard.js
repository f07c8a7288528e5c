// The leaderboards (GET /v1/leaderboard[?language=]): everyone's, or one word language's; the
// top 100 by rating of the players who finished a tournament in the last 30 days, and the
// player's own rank, highlighted (and shown after the list when it is not in the top).

import * as api from "../api.js";
import { h, replace } from "../dom.js";
import { leaderboardPath } from "../paths.js";
import { store } from "../state.js";
import { formatNumber, t } from "../strings.js";
import { avatar } from "./common.js";
import { recordsNav } from "./records/nav.js";

export async function mount(root, params, { go }) {
  const code = params.language && store.byCode.has(params.language) ? params.language : null;
  const query = code ? `?language=${encodeURIComponent(code)}` : "";
  const { data: board } = await api.get(`/v1/leaderboard${query}`);
  const you = board.you || null;

  const picker = h(
    "select",
    { id: "board-language", class: "select", onchange: () => go(leaderboardPath(picker.value || null)) },
    h("option", { value: "" }, t("leaderboard.all")),
    store.languages.map((lang) => h("option", { value: lang.code, lang: lang.code }, lang.native_name)),
  );
  picker.value = code || "";

  const inTop = you && board.top.some((line) => line.player_id === you.player_id);
  replace(
    root,
    h(
      "section",
      { class: "records screen leaderboard-screen", id: "leaderboard", dataset: { board: board.board }, "aria-labelledby": "leaderboard-title" },
      recordsNav("leaderboard"),
      h("h1", { id: "leaderboard-title" }, t("records.leaderboard")),
      h(
        "div",
        { class: "card board-head" },
        h("label", { class: "label", for: "board-language" }, t("leaderboard.board")),
        picker,
        h("p", { class: "hint" }, t("leaderboard.window", { n: board.window_days })),
        yourRank(you, board, code),
      ),
      board.top.length || (you && you.rank)
        ? h(
            "ol",
            { class: "card ranking", id: "ranking" },
            board.top.map((line) => boardLine(line, you)),
            // Ranked below the top, or since the snapshot was read: the player's own line after it.
            you && you.rank && !inTop
              ? [board.top.length ? h("li", { class: "ranking-gap", "aria-hidden": "true" }, "⋯") : null, boardLine(you, you)]
              : null,
          )
        : h("p", { class: "card center hint", id: "ranking-empty" }, t("leaderboard.empty")),
    ),
  );
  return null;
}

function yourRank(you, board, code) {
  if (!you) return null;
  if (you.rank === null) {
    return h(
      "p",
      { class: "your-rank none", id: "your-rank" },
      code ? t("leaderboard.unranked.language", { language: t(`lang.${code}`) }) : t("leaderboard.unranked"),
    );
  }
  return h(
    "p",
    { class: "your-rank", id: "your-rank" },
    t("leaderboard.you", { rank: you.rank, n: Math.max(board.players, you.rank), rating: you.rating }),
  );
}

function boardLine(line, you) {
  const mine = you && line.player_id === you.player_id;
  return h(
    "li",
    { class: `ranking-line ${mine ? "you" : ""} rank-${Math.min(line.rank, 4)}`, dataset: { player: line.player_id }, "aria-current": mine ? "true" : null },
    h("span", { class: "ranking-rank" }, formatNumber(line.rank)),
    avatar({ id: line.player_id, nickname: line.nickname }, "small"),
    h("span", { class: "ranking-name" }, mine ? t("results.playerYou", { name: line.nickname }) : line.nickname),
    h("span", { class: "ranking-rating" }, formatNumber(line.rating)),
  );
}
