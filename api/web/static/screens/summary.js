// A finished tournament's public results (GET /v1/tournaments/{id}/summary, no token needed):
// the address a share links to (#/r/<id>), for anyone, player or not. Places, nicknames, rating
// changes, and every round with its duels, boards and secrets (D4: all ended). A player of it
// also gets the share card.

import * as api from "../api.js";
import { h, replace } from "../dom.js";
import { tournamentPath } from "../paths.js";
import { language, store } from "../state.js";
import { formatDate, t } from "../strings.js";
import { shareCard, yourDuels } from "../components/share.js";
import { errorText } from "./common.js";
import { fitNames } from "../components/names.js";
import { standingLine } from "./tournament/parts.js";
import { pastRound } from "./tournament/story.js";

export async function mount(root, { id }) {
  let summary;
  try {
    summary = (await api.get(`/v1/tournaments/${encodeURIComponent(id)}/summary`)).data;
  } catch (err) {
    if (err.status !== 404) throw err;
    replace(root, notYet(id, err));
    return null;
  }
  const you = store.me ? store.me.id : null;
  const mine = summary.players.find((p) => p.id === you) || null;
  const ctx = { you: mine ? you : null, names: new Map(summary.players.map((p) => [p.id, p.nickname])) };
  const lang = language(summary.language);
  const winner = summary.players.find((p) => p.place === 1 && p.out_round === null) || null;
  replace(
    root,
    h(
      "section",
      { class: "records screen summary-screen", id: "summary", dataset: { tournament: summary.id }, "aria-labelledby": "summary-title" },
      h(
        "header",
        { class: "summary-head" },
        h("h1", { id: "summary-title" }, t("summary.heading")),
        h(
          "p",
          { class: "hint", id: "summary-meta" },
          h("span", { lang: summary.language }, lang ? lang.native_name : summary.language),
          " · ",
          formatDate(summary.finished_at),
          " · ",
          t("records.rounds", { n: summary.rounds_played }),
        ),
        winner ? h("p", { class: "summary-winner", id: "summary-winner" }, winner.id === ctx.you ? t("results.winner.you") : t("results.winner", { name: winner.nickname })) : null,
      ),
      mine
        ? shareCard({
            id: summary.id,
            language: summary.language,
            place: mine.place,
            players: summary.players.length,
            rating: mine.rating,
            change: mine.rating_change,
            duels: yourDuels(summary.rounds, you),
          })
        : invitation(),
      standings(ctx, summary.players),
      h(
        "section",
        { class: "summary-rounds", "aria-labelledby": "summary-rounds-title" },
        h("h2", { class: "label", id: "summary-rounds-title" }, t("summary.roundsHeading")),
        h(
          "ol",
          { class: "story-rounds", id: "story-rounds" },
          summary.rounds.map((round) => h("li", {}, pastRound(ctx, round, summary.language))),
        ),
      ),
    ),
  );
  fitNames(root);
  return null;
}

// A tournament still being played (404 not_finished), or none with that id.
function notYet(id, err) {
  const playing = err.code === "not_finished" && store.me;
  return h(
    "section",
    { class: "records screen summary-screen", id: "summary" },
    h(
      "div",
      { class: "card center", id: "summary-missing" },
      h("p", {}, errorText(err)),
      h(
        "div",
        { class: "row-buttons" },
        playing ? h("a", { class: "btn secondary", id: "summary-watch", href: `#/${tournamentPath(id)}` }, t("home.last.watch")) : null,
        h("a", { class: "btn primary", id: "summary-home", href: "#/" }, t("summary.play")),
      ),
    ),
  );
}

// Someone who never played (or not in this tournament): the way in.
function invitation() {
  return h(
    "div",
    { class: "card center invite-card", id: "summary-invite" },
    h("p", {}, t("app.tagline")),
    h("a", { class: "btn primary", id: "summary-play", href: "#/" }, t("summary.play")),
  );
}

function standings(ctx, players) {
  return h(
    "section",
    { class: "card standings", "aria-labelledby": "summary-standings-title" },
    h("h2", { class: "label", id: "summary-standings-title" }, t("results.heading")),
    h(
      "ol",
      { id: "standings" },
      players.map((p) =>
        standingLine(ctx, p, p.left ? t("t.status.left") : p.out_round ? t("story.outIn", { n: p.out_round }) : t("t.status.winner")),
      ),
    ),
  );
}
