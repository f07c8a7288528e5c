// What a screen reader hears as the state changes: rows played, turns, results, elimination.

import * as clock from "../../clock.js";
import { announce } from "../../dom.js";
import { describeRow } from "../../components/board.js";
import { t } from "../../strings.js";
import { resultText } from "./parts.js";

const out = (p) => p && (p.status === "out" || p.status === "left");

export function narrate(ctx, prev, next) {
  if (!prev) return;
  if (prev.phase !== next.phase || prev.round !== next.round) {
    if (next.phase === "intro") announce(t("intro.heading", { n: next.round }));
    if (next.phase === "finished") announce(t("results.heading"));
  }
  const a = prev.duel;
  const b = next.duel;
  if (b && a && a.id === b.id) {
    for (let i = a.rows.length; i < b.rows.length; i++) {
      const row = b.rows[i];
      const mine = row.by === next.you;
      const name = ctx.names.get(row.by) || "?";
      const word = row.tiles ? row.tiles.join("") : "";
      const marks = row.skipped ? "" : describeRow(row, next.language);
      announce(
        row.skipped
          ? mine ? t("duel.announce.skip.you") : t("duel.announce.skip", { name })
          : mine ? t("duel.announce.row.you", { word, marks }) : t("duel.announce.row", { name, word, marks }),
      );
    }
    if (!a.result && b.result) announce(resultText(ctx, b));
    else if (!a.your_turn && b.your_turn) {
      announce(t("duel.announce.yourTurn", { n: clock.seconds(clock.left(b.deadline) ?? 0) }));
    }
  }
  const before = prev.players.find((p) => p.id === prev.you);
  const after = next.players.find((p) => p.id === next.you);
  if (before && after && !out(before) && out(after)) announce(t("out.heading"), true);
}
