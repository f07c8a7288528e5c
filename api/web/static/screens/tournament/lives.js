// Everyone's lives at a glance (the strip under the round's title): hearts while playing, the
// place once out — marked while it is still provisional (R9, D1) — and a line for screen readers.

import { h, replace } from "../../dom.js";
import { place, t } from "../../strings.js";
import { avatar, hearts } from "../common.js";
import { botMark, spokenName } from "../../components/names.js";
import { standing } from "./parts.js";

export function renderLives(ctx, list) {
  const s = ctx.state;
  const live = s.duel && !s.duel.result;
  const inMyDuel = new Set(live ? s.duel.players : []);
  const turn = live && ctx.now() >= s.duel.starts_at ? s.duel.to_play : null;
  replace(
    list,
    s.players.map((p) => {
      const mark = standing(p);
      return h(
        "li",
        {
          class: `life ${p.status} ${p.id === s.you ? "you" : ""} ${inMyDuel.has(p.id) ? "duelling" : ""} ${turn === p.id ? "turn" : ""}`,
          dataset: { player: p.id },
        },
        avatar(p, "small"),
        h(
          "span",
          { class: "life-text", "aria-hidden": "true" },
          h("span", { class: "life-name" }, h("span", { class: "pname-text", dataset: { name: p.id === s.you ? t("t.you") : p.nickname } }, p.id === s.you ? t("t.you") : p.nickname), p.bot ? botMark() : null),
          p.status === "playing" || p.status === "winner"
            ? h("span", { class: "hearts" }, hearts(p.lives))
            : h("span", { class: `life-place ${mark && mark.provisional ? "provisional" : ""}` }, mark ? place(mark.place) : t(`t.status.${p.status}`)),
        ),
        h("span", { class: "sr-only" }, playerStatus(p)),
      );
    }),
  );
}

// A player's line for a screen reader: "Ana: 2 lives", "Ana: out, 7th".
function playerStatus(p) {
  const name = spokenName(p);
  if (p.status === "playing") return t("t.lives.label", { name, n: p.lives });
  if (p.status === "winner") return t("t.player.winner", { name, place: place(p.place || 1) });
  const kind = p.status === "left" ? "left" : "out";
  return p.place ? t(`t.player.${kind}.placed`, { name, place: place(p.place) }) : t(`t.player.${kind}`, { name });
}
