// A tournament, from the first intro to the results: one polled state drives every view.
//
// The views are modules of their own (screens/tournament/): the intro, the player's duel, the
// lively wait with its featured duel, the player who is out, the results and the whole story.
// What they ask of this screen and what they do through it are its base classes there
// (screen-facts.js, screen-actions.js).
// This screen polls the state as the server advises (Poll-Interval, counted from the answer's
// arrival, with ?watch= for the featured duel), keeps time between polls (an intro ends and a
// turn runs out by the clock, docs/client.md), fetches the history when a round ends, and draws.

import * as api from "../api.js";
import * as clock from "../clock.js";
import { h, replace, toast } from "../dom.js";
import { closeDialog } from "../components/confirm.js";
import { closeCoach } from "../components/coach.js";
import { tournamentPath } from "../paths.js";
import { Poller } from "../state.js";
import { t } from "../strings.js";
import { errorText, paletteButton } from "./common.js";
import { DuelView } from "./tournament/duel.js";
import { Spotlight } from "./tournament/featured.js";
import { fitNames } from "../components/names.js";
import { renderIntro } from "./tournament/intro.js";
import { narrate } from "./tournament/narrate.js";
import { renderLives } from "./tournament/lives.js";
import { runClocks } from "./tournament/parts.js";
import { ScreenActions } from "./tournament/screen-actions.js";
import { StoryData } from "./tournament/story-data.js";
import { renderResults } from "./tournament/results.js";
import { renderStory } from "./tournament/story.js";
import { renderOut, renderWaiting } from "./tournament/wait.js";

const TICK_MS = 200;
const DEFAULT_POLL_S = 2;

export async function mount(root, params, { go }) {
  if (!params.id) {
    go("");
    return null;
  }
  const screen = new TournamentScreen(root, params, go);
  if (!(await screen.start())) {
    screen.destroy();
    return null;
  }
  return { unmount: () => screen.destroy(), update: (next) => screen.setView(next.view) };
}

class TournamentScreen extends ScreenActions {
  constructor(root, params, go) {
    super();
    this.root = root;
    this.tid = params.id;
    this.view = params.view || null;
    this.go = go;
    this.state = null;
    this.etag = null;
    this.spotlight = new Spotlight(); // the duel shown full size while the player waits (R9)
    this.featuredView = null;
    this.duelView = null;
    this.mode = null;
    this.story = new StoryData(this.tid, () => this.render());
    this.names = new Map();
    this.redraw = () => this.render(); // for what comes later (the coach's analyses)
    this.skeleton();
    this.poller = new Poller(() => this.poll());
    this.ticker = setInterval(() => this.tick(), TICK_MS);
    this.onKeydown = (e) => {
      if (this.mode === "duel" && this.duelView) this.duelView.onKeydown(e);
    };
    window.addEventListener("keydown", this.onKeydown, true);
  }

  skeleton() {
    this.roundTitle = h("h1", { class: "round", id: "round-title" });
    this.phaseNote = h("span", { class: "phase-note", id: "phase-note" });
    this.headButton = h("button", { class: "btn ghost small", id: "t-leave", type: "button" });
    this.lives = h("ul", { class: "lives", id: "lives", "aria-label": t("t.lives") });
    this.stage = h("div", { class: "stage", id: "stage" });
    replace(
      this.root,
      h(
        "section",
        { class: "tournament screen" },
        h(
          "div",
          { class: "t-head" },
          h("div", { class: "t-title" }, this.roundTitle, this.phaseNote),
          // The top bar (and its palette toggle) is hidden during a duel: this one shows instead.
          h("div", { class: "t-head-actions" }, paletteButton("duel-palette", "small"), this.headButton),
        ),
        this.lives,
        this.stage,
      ),
    );
    this.headButton.addEventListener("click", () => this.onHeadButton());
  }

  async start() {
    const first = await this.poll();
    if (first === null) return false;
    this.poller.start(first);
    if (this.view === "story") this.loadHistory();
    return true;
  }

  destroy() {
    this.gone = true;
    this.poller.stop();
    clearInterval(this.ticker);
    window.removeEventListener("keydown", this.onKeydown, true);
    if (this.duelView) this.duelView.destroy();
    closeDialog();
    closeCoach();
    delete document.body.dataset.view;
  }

  // ---------------------------------------------------------------- the state

  async poll() {
    const sentAt = Date.now();
    const watched = this.watchId();
    const watch = watched ? `?watch=${encodeURIComponent(watched)}` : "";
    let response;
    try {
      response = await api.get(`/v1/tournaments/${encodeURIComponent(this.tid)}/state${watch}`, { etag: this.etag });
    } catch (err) {
      if (err.status === 404 || err.status === 403) {
        toast(errorText(err), "error");
        this.go("");
        return null;
      }
      throw err;
    }
    const arrived = Date.now();
    if (response.status === 200) this.accept(response.data, response.headers.get("ETag"), sentAt);
    // The featured duel changed since this poll was sent (the first draw, a pin, the next race):
    // the advice was for another duel, so ask again at once, for this one.
    return this.watchId() !== watched ? 0 : this.advice(response, arrived);
  }

  // docs/client.md: wait exactly Poll-Interval (decimal seconds) from the answer's arrival.
  advice(response, arrived) {
    const seconds = Number(response.headers.get("Poll-Interval"));
    const ms = (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_POLL_S) * 1000;
    return Math.max(0, arrived + ms - Date.now());
  }

  // The answer to a guess or a leave: the new state, which replaces the next poll; a guess that
  // ended its duel also carries that duel's final board (even when the next intro is on).
  acceptAnswer(response, sentAt) {
    const arrived = Date.now();
    this.story.remember(response.data && response.data.ended_duel);
    this.accept(response.data, response.headers.get("ETag"), sentAt);
    // A write's answer is advised for no watched duel: with one featured now, ask for it at once.
    this.poller.kick(this.watchId() ? 0 : this.advice(response, arrived));
  }

  pollSoon() {
    this.poller.kick(0);
  }

  accept(next, tag, sentAt) {
    clock.sync(next.server_time, sentAt);
    const prev = this.state;
    this.state = next;
    if (tag) this.etag = tag;
    for (const p of next.players) this.names.set(p.id, p.nickname);
    this.story.remember(next.duel);
    narrate(this, prev, next);
    // A round has ended: its story (and the player's last duel) is in the history, once a round.
    if ((next.history_rounds || 0) > this.story.count()) this.story.load();
    this.render();
  }

  // ---------------------------------------------------------------- views

  currentMode() {
    const s = this.state;
    const stillIn = this.stillIn();
    const intro = s.phase === "intro" && this.now() < s.starts_at;
    const dueling = stillIn && !intro && s.duel && !s.duel.result;
    // The story waits while the player has a moment to catch (an intro, their own duel).
    if (this.view === "story" && !(stillIn && (intro || dueling))) return "story";
    if (s.phase === "finished") return "results";
    if (stillIn && intro) return "intro";
    if (dueling) return "duel";
    if (!stillIn) return "out";
    return "waiting";
  }

  render() {
    if (!this.state || this.gone) return;
    if (this.view === "story" && this.currentMode() !== "story") {
      this.view = null; // back to the game: the address follows without a new screen
      history.replaceState(null, "", `#/${tournamentPath(this.tid)}`);
    }
    this.renderHead();
    this.renderLives();
    const next = this.currentMode();
    document.body.dataset.view = next;
    // The analysis belongs to the story and the results: an intro or the player's duel comes first.
    if (next !== "story" && next !== "results") closeCoach();
    if (next !== "duel" && this.duelView) {
      this.duelView.destroy();
      this.duelView = null;
    }
    if (next === "duel") {
      if (!this.duelView || this.duelView.id !== this.state.duel.id) {
        if (this.duelView) this.duelView.destroy();
        this.duelView = new DuelView(this);
        replace(this.stage, this.duelView.el);
      }
      this.mode = next;
      this.duelView.update();
    } else {
      this.mode = next;
      this.keepFocus(() => replace(this.stage, this.build(next)));
    }
    fitNames(this.root);
    this.clocks();
  }

  build(mode) {
    if (mode === "intro") return renderIntro(this);
    if (mode === "waiting") return renderWaiting(this);
    if (mode === "out") return renderOut(this);
    if (mode === "results") return renderResults(this);
    return renderStory(this);
  }

  keepFocus(build) {
    const focused = document.activeElement && document.activeElement.id;
    build();
    if (focused) {
      const el = document.getElementById(focused);
      if (el && el !== document.activeElement) el.focus({ preventScroll: true });
    }
  }

  renderHead() {
    const s = this.state;
    this.roundTitle.textContent = s.phase === "finished" ? t("results.heading") : t("t.round", { n: s.round });
    const l = this.lang();
    this.phaseNote.textContent = l ? l.native_name : s.language;
    this.phaseNote.lang = s.language;
    const stillIn = this.stillIn();
    this.headButton.textContent = stillIn ? t("t.leave") : t("t.home");
    this.headButton.classList.toggle("danger", stillIn);
  }

  renderLives() {
    renderLives(this, this.lives);
  }

  // ---------------------------------------------------------------- time between polls

  tick() {
    if (!this.state) return;
    if (this.currentMode() !== this.mode) {
      this.render(); // an intro ended, a turn began: by the clock, not a poll
      return;
    }
    // An ended featured duel has been shown long enough: the next race takes its place.
    if (this.featuredView && this.spotlight.remaining() === 0) {
      this.render();
      return;
    }
    if (this.mode === "duel" && this.duelView) this.duelView.tick();
    this.clocks();
  }

  clocks() {
    runClocks(this.root);
  }
}
