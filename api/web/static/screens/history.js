// History (GET /v1/me/history): the player's finished tournaments, newest first, a page at a
// time (the cursor of the page before); each line opens the tournament's public results.

import * as api from "../api.js";
import { h, replace, toast } from "../dom.js";
import { summaryPath } from "../paths.js";
import { language } from "../state.js";
import { formatDate, formatNumber, formatSigned, t } from "../strings.js";
import { errorText } from "./common.js";
import { emptyCard, recordsNav } from "./records/nav.js";
import { placeText, ratingClass } from "./tournament/parts.js";

const PAGE = 20;

async function page(cursor) {
  const query = new URLSearchParams({ limit: String(PAGE) });
  if (cursor) query.set("cursor", cursor);
  return (await api.get(`/v1/me/history?${query}`)).data;
}

export async function mount(root, _params, { isCurrent }) {
  const first = await page(null);
  const list = h("ol", { class: "history-list", id: "history-list" });
  const more = h("button", { class: "btn secondary wide", id: "history-more", type: "button" }, t("history.more"));
  let cursor = first.next_cursor;
  let busy = false;

  function add(entries) {
    for (const entry of entries) list.appendChild(line(entry));
    more.hidden = !cursor;
  }

  more.addEventListener("click", async () => {
    if (busy || !cursor) return;
    busy = true;
    more.disabled = true;
    try {
      const next = await page(cursor);
      if (!isCurrent()) return;
      cursor = next.next_cursor;
      const firstNew = list.children.length;
      add(next.entries);
      // The keyboard goes on from the first line that came in.
      const link = list.children[firstNew] && list.children[firstNew].querySelector("a");
      if (link) link.focus();
    } catch (err) {
      toast(errorText(err), "error");
    } finally {
      busy = false;
      more.disabled = false;
    }
  });

  add(first.entries);
  replace(
    root,
    h(
      "section",
      { class: "records screen history-screen", id: "history", "aria-labelledby": "history-title" },
      recordsNav("history"),
      h("h1", { id: "history-title" }, t("records.history")),
      first.entries.length ? [list, more] : emptyCard("history-empty", t("history.empty")),
    ),
  );
  return null;
}

function line(entry) {
  const lang = language(entry.language);
  const duels = entry.duels;
  return h(
    "li",
    { class: `history-line place-${entry.place}`, dataset: { tournament: entry.tournament_id } },
    h(
      "a",
      { class: "history-link", href: `#/${summaryPath(entry.tournament_id)}` },
      h("span", { class: `medal m${entry.place}` }, placeText(entry.place)),
      h(
        "span",
        { class: "history-main" },
        h(
          "span",
          { class: "history-top" },
          h("span", { class: "history-lang", lang: entry.language }, lang ? lang.native_name : entry.language),
          entry.left ? h("span", { class: "pill done" }, t("t.status.left")) : null,
        ),
        h("span", { class: "history-when" }, formatDate(entry.finished_at)),
        h(
          "span",
          { class: "history-duels" },
          t("history.duels", { won: duels.won, drawn: duels.drawn, lost: duels.lost }),
          " · ",
          t("records.rounds", { n: entry.rounds_played }),
        ),
      ),
      h(
        "span",
        { class: "history-rating" },
        h("strong", { class: `delta ${ratingClass(entry.rating_change)}` }, formatSigned(entry.rating_change)),
        h("span", { class: "move" }, `${formatNumber(entry.rating_before)} → ${formatNumber(entry.rating_after)}`),
      ),
    ),
  );
}
