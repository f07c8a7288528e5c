// What the tournament's views do through their screen (screens/tournament.js): leave (or go
// home), the featured duel of the lively wait and its pins (R9), the coach's analysis of an
// ended duel (D19), the story, and another tournament. The screen extends this class.

import * as api from "../../api.js";
import { toast } from "../../dom.js";
import { confirmDialog } from "../../components/confirm.js";
import { tournamentPath } from "../../paths.js";
import { chooseLanguage } from "../../state.js";
import { t } from "../../strings.js";
import { errorText } from "../common.js";
import { FeaturedView } from "./featured.js";
import { openAnalysis } from "./parts.js";
import { ScreenFacts } from "./screen-facts.js";

export class ScreenActions extends ScreenFacts {
  // ---------------------------------------------------------------- actions

  async onHeadButton() {
    if (!this.stillIn()) {
      this.go("");
      return;
    }
    const yes = await confirmDialog({
      id: "leave-dialog",
      title: t("t.leave.title"),
      text: t("t.leave.confirm"),
      yes: t("t.leave"),
      no: t("t.leave.no"),
    });
    if (!yes || !this.stillIn()) return;
    try {
      const sentAt = Date.now();
      this.acceptAnswer(await api.post(`/v1/tournaments/${encodeURIComponent(this.tid)}/leave`), sentAt);
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  // ---------------------------------------------------------------- the featured duel

  // The duel shown full size in the lively wait, and its view (kept while it is the same duel).
  featured() {
    const id = this.featuredId();
    if (!id) {
      this.featuredView = null;
      return null;
    }
    if (!this.featuredView || this.featuredView.id !== id) this.featuredView = new FeaturedView(this, id);
    return this.featuredView.render();
  }

  featuredId() {
    return this.spotlight.update(this.state);
  }

  // The duel the next poll asks the server's advice for (?watch=): the featured one while the
  // player waits or watches, none in their own duel or an intro.
  watchId() {
    if (!this.state || !["waiting", "out"].includes(this.mode)) return null;
    return this.spotlight.watchId(this.state);
  }

  // A preview pressed: that duel full size (pressed again: back to the closest race).
  pin(duelId) {
    const duel = this.state.duels.find((d) => d.id === duelId);
    if (!duel) return;
    const wasPinned = this.spotlight.pinned && this.spotlight.id === duelId;
    if (wasPinned) this.spotlight.unpin();
    else this.spotlight.pin(duel);
    this.render();
    if (!wasPinned) {
      this.pollSoon(); // the advice follows the pinned duel, as watching a duel always did
      document.getElementById("featured")?.scrollIntoView({ block: "nearest" });
    }
  }

  unpin() {
    this.spotlight.unpin();
    this.render();
  }

  // D19: an ended duel's analysis (the story's and the results' buttons exist only for ended duels).
  openCoach(duel, opener) {
    openAnalysis(this, { tid: this.tid, players: this.state.players, lang: this.state.language }, duel, opener);
  }

  openStory() {
    this.go(tournamentPath(this.tid, "story"));
  }

  closeStory() {
    this.go(tournamentPath(this.tid));
  }

  setView(view) {
    this.view = view || null;
    if (this.view === "story") this.loadHistory();
    this.render();
    window.scrollTo(0, 0);
  }

  async playAgain() {
    try {
      chooseLanguage(this.state.language);
      await api.post("/v1/queue", { language: this.state.language });
      this.go("lobby");
    } catch (err) {
      toast(errorText(err), "error");
    }
  }
}
