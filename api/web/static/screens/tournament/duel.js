// The player's own duel (R10–R14): the shared board, the turn and its clock, the keyboard. It
// keeps its board and keyboard between polls, so focus and animations survive.
//
// Keys: whatever has the focus (the Leave button, the palette toggle, an on-screen key), Enter
// sends the typed word and Backspace deletes; letters from a physical keyboard become the
// language's tiles as the server reads them (components/typing.js), digraphs included.

import * as api from "../../api.js";
import { h } from "../../dom.js";
import { t } from "../../strings.js";
import { Board } from "../../components/board.js";
import { dialogOpen } from "../../components/confirm.js";
import { Keyboard } from "../../components/keyboard.js";
import { Typing } from "../../components/typing.js";
import { errorText } from "../common.js";
import { fitNames } from "../../components/names.js";
import { bar, countdown, playerCard } from "./parts.js";

const MESSAGE_MS = 2600;

export class DuelView {
  constructor(ctx) {
    this.ctx = ctx;
    const duel = ctx.state.duel;
    this.id = duel.id;
    this.length = duel.word_length;
    const lang = ctx.lang();
    this.typing = new Typing(lang);
    this.entry = this.typing.empty();
    this.sending = false;
    this.board = new Board(ctx.state.language);
    this.keyboard = new Keyboard(lang, (key) => this.press(key));
    this.opponent = duel.players.find((p) => p !== ctx.you);
    this.head = h("div", { class: "duel-head", id: "duel-head" });
    this.turnText = h("span", { class: "turn-text", id: "turn-text" });
    this.clock = countdown(null, { id: "turn-clock", cls: "turn-clock" });
    this.bar = bar(null, ctx.state.timers.turn_ms, "turn-fill");
    // The word's length sits in the turn's line, leaving the head's width to the two names.
    const letters = h("span", { class: "chip", id: "word-length" }, t("duel.letters", { n: duel.word_length }));
    this.turnbar = h("div", { class: "turnbar", id: "turnbar" }, h("div", { class: "turn-line" }, this.turnText, letters, this.clock), this.bar);
    this.note = h("div", { class: "duel-message", id: "duel-message", role: "alert" });
    this.el = h(
      "div",
      { class: "duel", id: "duel", dataset: { duel: duel.id } },
      this.head,
      this.turnbar,
      h("div", { class: "board-wrap" }, this.note, this.board.el),
      this.keyboard.el,
    );
    this.messageTimer = null;
  }

  duel() {
    return this.ctx.state.duel;
  }

  // R10 as a function of time: our turn from the duel's start until the turn's deadline.
  myTurn() {
    return this.ctx.yourTurn(this.duel());
  }

  update() {
    const ctx = this.ctx;
    const duel = this.duel();
    const you = ctx.me();
    const them = ctx.player(this.opponent);
    const started = ctx.now() >= duel.starts_at;
    const mine = this.myTurn();
    const used = (id) => duel.turns_used[id] || 0;
    const turn = started && !duel.result ? duel.to_play : null;
    this.head.replaceChildren(
      playerCard(ctx, you, turn === you.id ? "turn" : "", used(you.id)),
      playerCard(ctx, them, `right ${turn === this.opponent ? "turn" : ""}`, used(this.opponent)),
    );
    fitNames(this.head);
    this.turnbar.classList.toggle("mine", mine);
    this.turnbar.classList.toggle("theirs", started && !mine);
    const over = started && duel.to_play === ctx.you && !mine; // our deadline passed, the poll is on its way
    this.turnText.textContent = !started
      ? t("duel.starting")
      : mine
        ? t("duel.yourTurn")
        : over
          ? t("duel.timeUp")
          : t("duel.theirTurn", { name: them.nickname });
    this.clock.dataset.deadline = String(started ? duel.deadline : duel.starts_at);
    this.bar.firstChild.dataset.bar = String(started ? duel.deadline : "");
    this.board.update(this.viewDuel(duel, started), ctx.names, ctx.you, this.entry.tiles, this.typing.pending(this.entry));
    this.keyboard.show(duel.rows, this.board.revealedRows(duel.rows.length), this.board.revealIn());
    this.keyboard.setEnabled(mine);
    this.el.classList.toggle("my-turn", mine);
    this.shownTurn = mine;
    this.shownStarted = started;
  }

  // Before the duel starts nobody is to play yet: no current row on the board.
  viewDuel(duel, started) {
    return started ? duel : { ...duel, to_play: null };
  }

  // Called by the screen's ticker: a turn that ends or begins by the clock shows at once.
  tick() {
    const mine = this.myTurn();
    const started = this.ctx.now() >= this.duel().starts_at;
    if (mine !== this.shownTurn || started !== this.shownStarted) this.update();
  }

  message(text) {
    this.note.textContent = text;
    this.note.classList.add("show");
    clearTimeout(this.messageTimer);
    this.messageTimer = setTimeout(() => this.note.classList.remove("show"), MESSAGE_MS);
  }

  redraw() {
    const duel = this.duel();
    this.board.update(this.viewDuel(duel, this.ctx.now() >= duel.starts_at), this.ctx.names, this.ctx.you, this.entry.tiles, this.typing.pending(this.entry));
  }

  press(key) {
    const duel = this.duel();
    if (!duel || duel.result || duel.id !== this.id) return;
    if (key === "Enter") {
      this.keyboard.flash("Enter");
      this.submit();
      return;
    }
    if (key === "Backspace") {
      this.keyboard.flash("Backspace");
      const next = this.typing.erase(this.entry);
      if (next !== this.entry) {
        this.entry = next;
        this.redraw();
      }
      return;
    }
    if (!this.myTurn()) return; // letters belong to the row being played: only on our turn
    const before = this.entry.tiles.length;
    const { entry, refused } = this.typing.type(this.entry, key, duel.word_length);
    if (refused && /\p{L}/u.test(refused)) this.message(t("duel.notALetter", { c: refused }));
    if (entry === this.entry) return;
    this.entry = entry;
    if (entry.tiles.length) this.keyboard.flash(entry.tiles[entry.tiles.length - 1]);
    this.redraw();
    if (entry.tiles.length > before) this.board.pop(entry.tiles.length - 1);
  }

  async submit() {
    const ctx = this.ctx;
    const duel = this.duel();
    if (!duel || duel.result) return;
    if (!this.myTurn()) {
      this.board.shake();
      this.message(t("duel.notYourTurn"));
      return;
    }
    if (this.entry.tiles.length !== duel.word_length || this.typing.pending(this.entry)) {
      this.board.shake();
      this.message(t("duel.tooShort"));
      return;
    }
    if (this.sending) return;
    this.sending = true;
    const sentAt = Date.now();
    try {
      const r = await api.post(`/v1/tournaments/${encodeURIComponent(ctx.tid)}/guesses`, {
        row: duel.rows.length,
        word: this.entry.tiles.join(""),
        duel: duel.id,
      });
      this.entry = this.typing.empty();
      ctx.acceptAnswer(r, sentAt);
    } catch (err) {
      if (err.status === 422) {
        this.board.shake();
        this.message(errorText(err, { n: (err.details && err.details.expected) || duel.word_length }));
      } else {
        this.message(errorText(err));
        ctx.pollSoon();
      }
    } finally {
      this.sending = false;
    }
  }

  // From the screen's keydown listener (capture phase, before any focused button acts).
  onKeydown(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing || dialogOpen()) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (e.key === "Enter" || e.key === "Backspace") {
      // Enter on a focused button (Leave, the palette) would press it: the word goes first.
      e.preventDefault();
      e.stopPropagation();
      if (!e.repeat || e.key === "Backspace") this.press(e.key);
      return;
    }
    if (e.key === " ") return; // Space still presses a focused button
    if ([...e.key].length === 1) {
      e.preventDefault();
      this.press(e.key);
    }
  }

  destroy() {
    clearTimeout(this.messageTimer);
    this.keyboard.destroy();
  }
}
