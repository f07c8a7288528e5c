// The records' tabs: statistics, history, leaderboards (each its own address).

import { h } from "../../dom.js";
import { t } from "../../strings.js";

const TABS = [
  ["stats", "#/stats", "records.stats"],
  ["history", "#/history", "records.history"],
  ["leaderboard", "#/leaderboard", "records.leaderboard"],
];

export function recordsNav(current) {
  return h(
    "nav",
    { class: "records-nav", "aria-label": t("records.nav") },
    TABS.map(([name, href, key]) =>
      h(
        "a",
        { class: `tab ${name === current ? "active" : ""}`, id: `tab-${name}`, href, "aria-current": name === current ? "page" : null },
        t(key),
      ),
    ),
  );
}

// What a records screen shows before the first tournament: a line and the way to play.
export function emptyCard(id, text) {
  return h(
    "div",
    { class: "card center empty-card", id },
    h("p", {}, text),
    h("a", { class: "btn primary", href: "#/", id: `${id}-play` }, t("records.play")),
  );
}
