// A tournament, from the first intro to the results: round intro, the duel, everyone's lives,
// watching other duels, elimination, results. One polled state drives every view.

import * as api from "../api.js";
import * as clock from "../clock.js";
import { Board, describeRow } from "../components/board.js";
import { Keyboard, letterStates } from "../components/keyboard.js";
import { Typing } from "../components/typing.js";
import { announce, h, replace, toast } from "../dom.js";
import { Poller, chooseLanguage, language, refreshMe, store } from "../state.js";
import { formatNumber, place, t } from "../strings.js";
import { avatar, errorText, hearts, paletteButton, signed, tileText } from "./common.js";

const WATCH_POLL_MS = 1500;

export async function mount(root, tid, { go }) {
  if (!tid) {
    go("");
    return null;
  }
  let state = null;
  let etag = null;
  let mode = null;
  let watching = null; // the id of a duel we watch
  let watched = null; // its view
  let input = [];
  let inputDuel = null;
  let sending = false;
  let duelUi = null;
  let messageTimer = null;
  let finishedMe = null;
  const names = new Map();

  // ------------------------------------------------------------------ skeleton

  const roundTitle = h("h1", { class: "round", id: "round-title" });
  const phaseNote = h("span", { class: "phase-note", id: "phase-note" });
  const headButton = h("button", { class: "btn ghost small", id: "t-leave", type: "button" });
  const lives = h("ul", { class: "lives", id: "lives", "aria-label": t("t.lives") });
  const stage = h("div", { class: "stage", id: "stage" });
  replace(
    root,
    h(
      "section",
      { class: "tournament screen" },
      h(
        "div",
        { class: "t-head" },
        h("div", { class: "t-title" }, roundTitle, phaseNote),
        // The top bar (and its palette toggle) is hidden during a duel: this one shows instead.
        h("div", { class: "t-head-actions" }, paletteButton("duel-palette", "small"), headButton),
      ),
      lives,
      stage,
    ),
  );
  headButton.addEventListener("click", onHeadButton);

  // ------------------------------------------------------------------ helpers

  const lang = () => language(state.language);
  const me = () => state.players.find((p) => p.id === state.you);
  const player = (id) => state.players.find((p) => p.id === id);
  const isOut = (p) => p && (p.status === "out" || p.status === "left");

  function currentMode() {
    if (state.phase === "finished") return "results";
    if (watching) return "watch";
    if (isOut(me())) return "out";
    if (state.phase === "intro") return "intro";
    if (state.duel && !state.duel.result) return "duel";
    return "waiting";
  }

  function message(text) {
    const el = document.getElementById("duel-message");
    toast(text, "error");
    if (!el) return;
    el.textContent = text;
    el.classList.add("show");
    clearTimeout(messageTimer);
    messageTimer = setTimeout(() => el.classList.remove("show"), 2600);
  }

  function keepFocus(build) {
    const focused = document.activeElement && document.activeElement.id;
    build();
    if (focused) {
      const el = document.getElementById(focused);
      if (el && el !== document.activeElement) el.focus({ preventScroll: true });
    }
  }

  // ------------------------------------------------------------------ polling

  function accept(next, tag, sentAt) {
    clock.sync(next.server_time, sentAt);
    const prev = state;
    state = next;
    if (tag) etag = tag;
    for (const p of state.players) names.set(p.id, p.nickname);
    narrate(prev, next);
    render();
  }

  async function pollState() {
    const sentAt = Date.now();
    let response;
    try {
      response = await api.get(`/v1/tournaments/${encodeURIComponent(tid)}/state`, { etag });
    } catch (err) {
      if (err.status === 404 || err.status === 403) {
        toast(errorText(err), "error");
        go("");
        return null;
      }
      throw err;
    }
    if (response.status === 200) accept(response.data, response.headers.get("ETag"), sentAt);
    if (state.phase === "finished" && !finishedMe) {
      finishedMe = await refreshMe().catch(() => null);
      render();
    }
    const advice = Number(response.headers.get("Poll-Interval"));
    const ms = (Number.isFinite(advice) && advice > 0 ? advice : 2) * 1000;
    // The server advises as if the client kept time (docs/client.md); this screen does not,
    // so it also wakes when the intro ends, to show the duel.
    if (state.phase === "intro") return Math.min(ms, (clock.left(state.phase_deadline) ?? 0) + 100);
    return ms;
  }

  const poller = new Poller(pollState);

  const watchPoller = new Poller(async () => {
    if (!watching) return null;
    const sentAt = Date.now();
    const { data } = await api.get(
      `/v1/tournaments/${encodeURIComponent(tid)}/duels/${encodeURIComponent(watching)}`,
    );
    clock.sync(data.server_time, sentAt);
    watched = data;
    if (mode === "watch") render();
    return data.result ? WATCH_POLL_MS * 2 : WATCH_POLL_MS;
  });

  function watch(duelId) {
    if (state.duel && state.duel.id === duelId && !state.duel.result) {
      watching = null;
    } else {
      watching = duelId;
      watched = null;
      watchPoller.start();
    }
    render();
    const back = document.getElementById("watch-back");
    if (back) back.focus();
  }

  function stopWatching() {
    watching = null;
    watched = null;
    watchPoller.stop();
    render();
  }

  // ------------------------------------------------------------------ screen reader narration

  function narrate(prev, next) {
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
        const name = names.get(row.by) || "?";
        const word = row.tiles ? row.tiles.join("") : "";
        const marks = row.skipped ? "" : describeRow(row, next.language);
        announce(
          row.skipped
            ? mine ? t("duel.announce.skip.you") : t("duel.announce.skip", { name })
            : mine ? t("duel.announce.row.you", { word, marks }) : t("duel.announce.row", { name, word, marks }),
        );
      }
      if (!a.result && b.result) announce(resultText(b));
      else if (!a.your_turn && b.your_turn) {
        announce(t("duel.announce.yourTurn", { n: clock.seconds(clock.left(b.deadline) ?? 0) }));
      }
    }
    const before = prev.players.find((p) => p.id === prev.you);
    const after = next.players.find((p) => p.id === next.you);
    if (before && after && !isOut(before) && isOut(after)) announce(t("out.heading"), true);
  }

  function resultText(duel) {
    const r = duel.result;
    if (!r) return "";
    const other = duel.players.find((p) => p !== state.you);
    if (r.kind === "draw") return t("duel.draw");
    if (r.kind === "forfeit") {
      if (!duel.players.includes(state.you)) {
        const leaver = duel.players.find((p) => p !== r.winner);
        return t("duel.forfeit.other", { name: names.get(leaver) || "?" });
      }
      return r.winner === state.you
        ? t("duel.forfeit.win", { name: names.get(other) || "?" })
        : t("duel.forfeit.lose");
    }
    if (!duel.players.includes(state.you)) {
      return t("duel.lose", { name: names.get(r.winner) || "?" });
    }
    return r.winner === state.you ? t("duel.win") : t("duel.lose", { name: names.get(r.winner) || "?" });
  }

  // ------------------------------------------------------------------ rendering

  function render() {
    if (!state) return;
    renderHead();
    renderLives();
    const next = currentMode();
    document.body.dataset.view = next;
    if (next !== "duel") duelUi = null;
    if (next === "duel") renderDuel();
    else keepFocus(() => {
      if (next === "intro") renderIntro();
      else if (next === "waiting") renderWaiting();
      else if (next === "out") renderOut();
      else if (next === "watch") renderWatch();
      else if (next === "results") renderResults();
    });
    mode = next;
    tick();
  }

  function renderHead() {
    roundTitle.textContent = state.phase === "finished" ? t("results.heading") : t("t.round", { n: state.round });
    const l = lang();
    phaseNote.textContent = l ? l.native_name : state.language;
    phaseNote.lang = state.language;
    const stillIn = me() && !isOut(me()) && state.phase !== "finished";
    headButton.textContent = stillIn ? t("t.leave") : t("t.home");
    headButton.classList.toggle("danger", Boolean(stillIn));
  }

  async function onHeadButton() {
    const stillIn = state && me() && !isOut(me()) && state.phase !== "finished";
    if (!stillIn) {
      go("");
      return;
    }
    if (!window.confirm(t("t.leave.confirm"))) return;
    try {
      const sentAt = Date.now();
      const r = await api.post(`/v1/tournaments/${encodeURIComponent(tid)}/leave`);
      accept(r.data, r.headers.get("ETag"), sentAt);
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  function renderLives() {
    const inMyDuel = new Set(state.duel && !state.duel.result ? state.duel.players : []);
    const turn = state.duel && !state.duel.result ? state.duel.to_play : null;
    replace(
      lives,
      state.players.map((p) => {
        const status = playerStatus(p);
        return h(
          "li",
          {
            class: `life ${p.status} ${p.id === state.you ? "you" : ""} ${inMyDuel.has(p.id) ? "duelling" : ""} ${turn === p.id ? "turn" : ""}`,
            dataset: { player: p.id },
          },
          avatar(p, "small"),
          h(
            "span",
            { class: "life-text", "aria-hidden": "true" },
            h("span", { class: "life-name" }, p.id === state.you ? t("t.you") : p.nickname),
            p.status === "playing" || p.status === "winner"
              ? h("span", { class: "hearts" }, hearts(p.lives))
              : h("span", { class: "life-place" }, p.place ? place(p.place) : t(`t.status.${p.status}`)),
          ),
          h("span", { class: "sr-only" }, status),
        );
      }),
    );
  }

  // A player's line for a screen reader: "Ana: 2 lives", "Ana: out, 7th".
  function playerStatus(p) {
    const name = p.nickname;
    if (p.status === "playing") return t("t.lives.label", { name, n: p.lives });
    if (p.status === "winner") return t("t.player.winner", { name, place: place(p.place || 1) });
    const kind = p.status === "left" ? "left" : "out";
    return p.place ? t(`t.player.${kind}.placed`, { name, place: place(p.place) }) : t(`t.player.${kind}`, { name });
  }

  function playerCard(p, extra = "", used = null) {
    return h(
      "div",
      { class: `pcard ${extra} ${p.id === state.you ? "you" : ""}` },
      avatar(p),
      h(
        "span",
        { class: "pcard-text" },
        h("span", { class: "pcard-name" }, p.id === state.you ? t("t.you") : p.nickname),
        h("span", { class: "hearts", role: "img", "aria-label": t("t.lives.label", { name: p.nickname, n: p.lives }) }, hearts(p.lives)),
        used === null ? null : turnPips(used),
      ),
    );
  }

  // Six pips per player: the turns used of R10's six.
  function turnPips(used) {
    const pips = [];
    for (let i = 0; i < 6; i++) pips.push(h("i", { class: i < used ? "used" : "" }));
    return h("span", { class: "pips", role: "img", "aria-label": t("duel.turnsLeft", { n: 6 - used }) }, pips);
  }

  function renderIntro() {
    const mine = state.pairings.find((pair) => pair.includes(state.you));
    const pairings = state.pairings.map((pair) =>
      h(
        "li",
        { class: `pairing ${pair === mine ? "mine" : ""}` },
        playerCard(player(pair[0])),
        h("span", { class: "vs" }, t("intro.vs")),
        playerCard(player(pair[1])),
        pair === mine ? h("span", { class: "badge" }, t("intro.yourDuel")) : null,
      ),
    );
    replace(
      stage,
      h(
        "div",
        { class: "intro", id: "intro" },
        h(
          "div",
          { class: "countdown", role: "timer", "aria-label": t("intro.starts") },
          h("span", { class: "count-label" }, t("intro.starts")),
          h("span", { class: "count", id: "intro-count" }, ""),
        ),
        h("ul", { class: "pairings", id: "pairings" }, pairings),
        state.bye
          ? h("p", { class: "bye" }, state.bye === state.you ? t("intro.bye.you") : t("intro.bye", { name: names.get(state.bye) || "?" }))
          : null,
      ),
    );
  }

  // The duel keeps its board and keyboard between polls, so focus and animations survive.
  function renderDuel() {
    const duel = state.duel;
    if (inputDuel !== duel.id) {
      input = [];
      inputDuel = duel.id;
    }
    if (!duelUi || duelUi.id !== duel.id) {
      const l = lang();
      const board = new Board(state.language);
      const keyboard = new Keyboard(l, press);
      const typing = new Typing(l);
      const opponent = duel.players.find((p) => p !== state.you);
      const vs = h("div", { class: "duel-head", id: "duel-head" });
      const turnText = h("span", { class: "turn-text", id: "turn-text" });
      const turnClock = h("span", { class: "turn-clock", id: "turn-clock", role: "timer" });
      const fill = h("i", { id: "turn-fill" });
      const turnbar = h(
        "div",
        { class: "turnbar", id: "turnbar" },
        h("div", { class: "turn-line" }, turnText, turnClock),
        h("div", { class: "bar", "aria-hidden": "true" }, fill),
      );
      const note = h("div", { class: "duel-message", id: "duel-message", role: "alert" });
      replace(
        stage,
        h(
          "div",
          { class: "duel", id: "duel" },
          vs,
          turnbar,
          h("div", { class: "board-wrap" }, note, board.el),
          keyboard.el,
        ),
      );
      duelUi = { id: duel.id, board, keyboard, typing, opponent, vs, turnText, turnbar };
    }
    const { board, keyboard, vs, turnText, turnbar, opponent } = duelUi;
    const you = me();
    const them = player(opponent);
    replace(
      vs,
      playerCard(you, duel.to_play === you.id ? "turn" : "", duel.turns_used[you.id] || 0),
      h(
        "div",
        { class: "duel-meta" },
        h("span", { class: "chip", id: "word-length" }, t("duel.letters", { n: duel.word_length })),
      ),
      playerCard(them, `right ${duel.to_play === opponent ? "turn" : ""}`, duel.turns_used[opponent] || 0),
    );
    const started = clock.now() >= duel.starts_at;
    turnbar.classList.toggle("mine", duel.your_turn);
    turnbar.classList.toggle("theirs", started && !duel.your_turn);
    turnText.textContent = !started
      ? t("duel.starting")
      : duel.your_turn
        ? t("duel.yourTurn")
        : t("duel.theirTurn", { name: them.nickname });
    board.update(duel, names, state.you, input);
    keyboard.setStates(letterStates(duel.rows));
    keyboard.setEnabled(duel.your_turn);
    document.getElementById("duel").classList.toggle("my-turn", duel.your_turn);
  }

  function press(key) {
    if (mode !== "duel" || !state.duel || state.duel.result) return;
    const duel = state.duel;
    if (key === "Enter") {
      duelUi.keyboard.flash("Enter");
      submit();
      return;
    }
    if (key === "Backspace") {
      duelUi.keyboard.flash("Backspace");
      if (input.length) {
        input = input.slice(0, -1);
        duelUi.board.update(duel, names, state.you, input);
      }
      return;
    }
    if (!duel.your_turn) return; // letters belong to the row being played: only on our turn
    const next = duelUi.typing.add(input, key, duel.word_length);
    if (next === null) {
      if (/\p{L}/u.test(key)) {
        message(t("duel.notALetter", { c: key }));
      }
      return;
    }
    if (next === input) return;
    const grew = next.length > input.length;
    input = next;
    duelUi.keyboard.flash(input[input.length - 1]);
    duelUi.board.update(duel, names, state.you, input);
    if (grew) duelUi.board.pop(input.length - 1);
  }

  async function submit() {
    const duel = state.duel;
    if (!duel || duel.result) return;
    if (!duel.your_turn) {
      duelUi.board.shake();
      message(t("duel.notYourTurn"));
      return;
    }
    if (input.length !== duel.word_length) {
      duelUi.board.shake();
      message(t("duel.tooShort"));
      return;
    }
    if (sending) return;
    sending = true;
    const sentAt = Date.now();
    try {
      const r = await api.post(`/v1/tournaments/${encodeURIComponent(tid)}/guesses`, {
        row: duel.rows.length,
        word: input.join(""),
      });
      input = [];
      accept(r.data, r.headers.get("ETag"), sentAt);
      const advice = Number(r.headers.get("Poll-Interval"));
      poller.kick((Number.isFinite(advice) && advice > 0 ? advice : 1) * 1000);
    } catch (err) {
      if (err.status === 422) {
        if (duelUi) duelUi.board.shake();
        message(errorText(err, { n: (err.details && err.details.expected) || duel.word_length }));
      } else {
        message(errorText(err));
        poller.kick();
      }
    } finally {
      sending = false;
    }
  }

  function onKeydown(e) {
    if (mode !== "duel" || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    const target = e.target;
    const tag = target && target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (tag === "BUTTON" && (e.key === "Enter" || e.key === " ")) return;
    if (e.key === "Enter" || e.key === "Backspace") {
      e.preventDefault();
      press(e.key);
    } else if ([...e.key].length === 1 && e.key !== " ") {
      e.preventDefault();
      press(e.key);
    }
  }
  document.addEventListener("keydown", onKeydown);

  function finalBoard(duel, you) {
    const board = new Board(state.language);
    board.update(duel, names, you, []);
    board.el.classList.add("small");
    board.el.removeAttribute("id");
    return board.el;
  }

  function secretTiles(duel) {
    if (!duel.secret) return null;
    return h(
      "div",
      { class: "secret", id: "secret" },
      h("span", { class: "label" }, t("duel.secret")),
      h(
        "span",
        { class: "secret-tiles", lang: state.language },
        duel.secret.map((tile) => h("span", { class: "tile mG small" }, tileText(tile, state.language))),
      ),
    );
  }

  function myResultCard() {
    const duel = state.duel;
    if (!duel) {
      return state.bye === state.you ? h("div", { class: "card result-card bye" }, h("p", {}, t("duel.bye"))) : null;
    }
    if (!duel.result) return null;
    const r = duel.result;
    const won = r.winner === state.you;
    const cls = r.kind === "draw" ? "draw" : won ? "won" : "lost";
    return h(
      "div",
      { class: `card result-card ${cls}`, id: "duel-result" },
      h("h2", {}, resultText(duel)),
      h("p", { class: "life-note" }, won ? t("duel.noLifeLost") : t("duel.lifeLost")),
      secretTiles(duel),
      finalBoard(duel, state.you),
    );
  }

  function duelList() {
    return h(
      "section",
      { class: "duel-list", "aria-labelledby": "duels-title" },
      h("h2", { class: "label", id: "duels-title" }, t("watch.heading")),
      h(
        "ul",
        {},
        state.duels.map((d) => {
          const [a, b] = d.players.map(player);
          const over = Boolean(d.result);
          return h(
            "li",
            {},
            h(
              "button",
              {
                class: `duel-item ${watching === d.id ? "active" : ""} ${d.players.includes(state.you) ? "mine" : ""}`,
                id: `watch-${d.id}`,
                type: "button",
                onclick: () => watch(d.id),
              },
              avatar(a, "small"),
              h("span", { class: "di-names" }, duelTitle(a, b)),
              h("span", { class: "di-rows" }, t("watch.rows", { n: d.rows })),
              h("span", { class: `pill ${over ? "done" : "live"}` }, over ? t("watch.over") : t("watch.live")),
              avatar(b, "small"),
            ),
          );
        }),
      ),
    );
  }

  // "Ana vs Ben", or "You vs Ben" for our own duel.
  function duelTitle(a, b) {
    if (a.id === state.you) return t("watch.title.you", { name: b.nickname });
    if (b.id === state.you) return t("watch.title.you", { name: a.nickname });
    return t("watch.title", { a: a.nickname, b: b.nickname });
  }

  function renderWaiting() {
    replace(
      stage,
      h(
        "div",
        { class: "waiting-view", id: "waiting" },
        myResultCard(),
        h("p", { class: "waiting-note" }, h("span", { class: "dots", "aria-hidden": "true" }), t("duel.waiting")),
        duelList(),
      ),
    );
  }

  function renderOut() {
    const p = me();
    replace(
      stage,
      h(
        "div",
        { class: "out-view", id: "out" },
        h(
          "div",
          { class: "card out-card" },
          h("h2", {}, p.status === "left" ? t("out.left") : t("out.heading")),
          h(
            "dl",
            { class: "stats big" },
            h("div", {}, h("dt", {}, t("out.place")), h("dd", { id: "out-place", class: p.place ? "" : "pending" }, p.place ? place(p.place) : t("out.pending"))),
            h(
              "div",
              {},
              h("dt", {}, t("out.rating")),
              h(
                "dd",
                { id: "out-rating", class: p.rating_change === null ? "pending" : ratingClass(p.rating_change) },
                p.rating_change === null ? t("out.pending") : signed(p.rating_change),
              ),
            ),
          ),
          h(
            "div",
            { class: "row-buttons" },
            h("button", { class: "btn secondary", id: "out-watch", type: "button", onclick: () => {
              const first = state.duels.find((d) => !d.result) || state.duels[0];
              if (first) watch(first.id);
            } }, t("out.watch")),
            h("button", { class: "btn ghost", id: "out-leave", type: "button", onclick: () => go("") }, t("out.leave")),
          ),
        ),
        state.duel && state.duel.result ? myResultCard() : null,
        duelList(),
      ),
    );
  }

  function renderWatch() {
    const summary = state.duels.find((d) => d.id === watching);
    if (!watched) {
      replace(stage, h("p", { class: "loading" }, h("span", { class: "spinner", "aria-hidden": "true" })));
      return;
    }
    const duel = watched;
    const [a, b] = duel.players.map(player);
    const started = clock.now() >= duel.starts_at;
    const turnText = duel.result
      ? resultText(duel)
      : !started
        ? t("duel.starting")
        : t("duel.theirTurn", { name: names.get(duel.to_play) || "?" });
    const board = new Board(state.language);
    board.update(duel, names, state.you, []);
    replace(
      stage,
      h(
        "div",
        { class: "watch", id: "watch" },
        h(
          "div",
          { class: "watch-head" },
          h("button", { class: "btn ghost small", id: "watch-back", type: "button", onclick: stopWatching }, h("span", { "aria-hidden": "true" }, "← "), t("watch.back")),
          h("h2", {}, duelTitle(a, b)),
          h("span", { class: `pill ${duel.result ? "done" : "live"}` }, duel.result ? t("watch.over") : t("watch.live")),
        ),
        h(
          "div",
          { class: "duel-head" },
          playerCard(a, duel.to_play === a.id ? "turn" : "", duel.turns_used[a.id] || 0),
          h("div", { class: "duel-meta" }, h("span", { class: "chip" }, t("duel.letters", { n: duel.word_length }))),
          playerCard(b, `right ${duel.to_play === b.id ? "turn" : ""}`, duel.turns_used[b.id] || 0),
        ),
        h(
          "div",
          { class: `turnbar ${duel.result ? "over" : "theirs"}`, id: "watch-turnbar" },
          h("div", { class: "turn-line" }, h("span", { class: "turn-text" }, turnText), h("span", { class: "turn-clock", id: "watch-clock" })),
          h("div", { class: "bar", "aria-hidden": "true" }, h("i", { id: "watch-fill" })),
        ),
        secretTiles(duel),
        h("div", { class: "board-wrap" }, board.el),
        summary ? duelList() : null,
      ),
    );
  }

  function ratingClass(n) {
    return n > 0 ? "up" : n < 0 ? "down" : "";
  }

  function renderResults() {
    const you = me();
    const ranked = [...state.players].sort((x, y) => (x.place ?? 99) - (y.place ?? 99));
    const winner = state.players.find((p) => p.status === "winner");
    const profile = finishedMe || store.me;
    const buttons = [];
    if (profile && profile.group_id) {
      buttons.push(h("button", { class: "btn primary", id: "results-group", type: "button", onclick: () => go("group") }, t("results.group")));
    }
    buttons.push(
      h("button", { class: `btn ${profile && profile.group_id ? "secondary" : "primary"}`, id: "results-again", type: "button", onclick: playAgain }, t("results.again")),
      h("button", { class: "btn ghost", id: "results-home", type: "button", onclick: () => go("") }, t("results.home")),
    );
    replace(
      stage,
      h(
        "div",
        { class: "results", id: "results" },
        h(
          "div",
          { class: "card results-hero" },
          h(
            "span",
            {
              class: `medallion m${you && you.place ? Math.min(you.place, 4) : 4} ${you && you.place && place(you.place).length > 4 ? "long" : ""}`,
              "aria-hidden": "true",
            },
            you && you.place ? place(you.place) : "—",
          ),
          h("h2", {}, winner ? (winner.id === state.you ? t("results.winner.you") : t("results.winner", { name: winner.nickname })) : t("results.noWinner")),
          you && you.place
            ? h(
                "p",
                { class: "your-result", id: "your-result" },
                t("results.you.ordinal", { n: you.place }),
                " · ",
                h("strong", { class: ratingClass(you.rating_change) }, signed(you.rating_change)),
              )
            : null,
        ),
        h(
          "table",
          { class: "card standings", id: "standings" },
          h("caption", { class: "sr-only" }, t("results.heading")),
          h(
            "thead",
            {},
            h("tr", {}, h("th", { scope: "col" }, t("results.place")), h("th", { scope: "col" }, t("results.player")), h("th", { scope: "col" }, t("results.rating"))),
          ),
          h(
            "tbody",
            {},
            ranked.map((p) =>
              h(
                "tr",
                { class: `${p.id === state.you ? "you" : ""} place-${p.place}` },
                h("td", { class: "place" }, h("span", { class: `medal m${p.place}` }, p.place ? place(p.place) : "—")),
                h("td", { class: "who" }, avatar(p, "small"), h("span", {}, p.id === state.you ? t("results.playerYou", { name: p.nickname }) : p.nickname)),
                h("td", { class: `delta ${ratingClass(p.rating_change)}` }, signed(p.rating_change)),
              ),
            ),
          ),
        ),
        h("div", { class: "row-buttons" }, buttons),
      ),
    );
  }

  async function playAgain() {
    try {
      chooseLanguage(state.language);
      await api.post("/v1/queue", { language: state.language });
      go("lobby");
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  // ------------------------------------------------------------------ clocks (server time)

  function setBar(fillId, clockId, deadline, total, startsAt) {
    const fill = document.getElementById(fillId);
    const text = document.getElementById(clockId);
    if (!fill || !text) return;
    if (startsAt && clock.now() < startsAt) {
      text.textContent = t("duel.seconds", { n: clock.seconds(startsAt - clock.now()) });
      fill.style.width = "100%";
      return;
    }
    const left = clock.left(deadline);
    if (left === null) {
      text.textContent = "";
      fill.style.width = "0%";
      return;
    }
    text.textContent = t("duel.seconds", { n: clock.seconds(left) });
    fill.style.width = `${Math.max(0, Math.min(100, (left / total) * 100))}%`;
    fill.parentElement.classList.toggle("low", left < Math.min(5000, total / 3));
  }

  function tick() {
    if (!state) return;
    if (mode === "intro") {
      const el = document.getElementById("intro-count");
      if (el) el.textContent = formatNumber(clock.seconds(clock.left(state.phase_deadline) ?? 0));
    } else if (mode === "duel" && state.duel) {
      const duel = state.duel;
      setBar("turn-fill", "turn-clock", duel.deadline, state.timers.turn_ms, duel.starts_at);
      const started = clock.now() >= duel.starts_at;
      const text = document.getElementById("turn-text");
      if (text && !duel.your_turn) {
        const them = player(duelUi && duelUi.opponent);
        const want = started ? t("duel.theirTurn", { name: them ? them.nickname : "" }) : t("duel.starting");
        if (text.textContent !== want) text.textContent = want;
      }
    } else if (mode === "watch" && watched && !watched.result) {
      setBar("watch-fill", "watch-clock", watched.deadline, state.timers.turn_ms, watched.starts_at);
    }
  }
  const ticker = setInterval(tick, 200);

  const firstDelay = await pollState();
  if (firstDelay === null) return null;
  poller.start(firstDelay);

  return () => {
    poller.stop();
    watchPoller.stop();
    clearInterval(ticker);
    clearTimeout(messageTimer);
    document.removeEventListener("keydown", onKeydown);
    delete document.body.dataset.view;
  };
}
