// Lobby: the seats filling, the wait and the rating window of the queue, Leave.

import * as api from "../api.js";
import * as clock from "../clock.js";
import { formatDuration } from "../clock.js";
import { announce, h, replace, toast } from "../dom.js";
import { Poller, language, refreshMe } from "../state.js";
import { formatNumber, formatRange, t } from "../strings.js";
import { tournamentPath } from "../paths.js";
import { avatar, errorText } from "./common.js";
import { fitNames, playerName } from "../components/names.js";

const POLL_MS = 1000;
const SEATS = 8;

export async function mount(root, _arg, { go }) {
  const sentAt = Date.now();
  const first = await api.get("/v1/queue");
  clock.roughSync(first.headers.get("Date"), sentAt);
  let status = first.data;
  if (!status.queued) {
    const me = await refreshMe();
    go(me.tournament_id ? tournamentPath(me.tournament_id) : "");
    return null;
  }
  let lobby = status.lobby;
  let names = new Map();
  let botIds = new Set(); // seated house bots, from GET /v1/lobbies
  let seatKey = "";
  let waitedAt = Date.now() - (status.waited_ms || 0);
  let leaving = false;

  const seats = h("ol", { class: "seats", id: "seats", "aria-label": t("lobby.heading") });
  const count = h("p", { class: "seat-count", id: "seat-count", "aria-live": "polite" });
  // When the house bots fill the free seats (GET /v1/queue's bots_at), counted down.
  const bots = h("p", { class: "bots-note", id: "bots-note", hidden: true });
  const wait = h("dd", { id: "wait" });
  const windowText = h("dd", { id: "window" });
  const searching = h("dd", { id: "searching" });
  const lang = language(lobby.language);

  async function leave() {
    if (leaving) return;
    leaving = true;
    try {
      await api.del("/v1/queue");
      go("");
    } catch (err) {
      leaving = false;
      toast(errorText(err), "error");
      poller.kick();
    }
  }

  let drawn = ""; // the seats as last drawn: drawn again only when they change (each new
  // avatar pops in, css/home.css, which must not replay at every poll)

  function render() {
    const taken = lobby.seats.length;
    count.textContent = taken >= SEATS ? t("lobby.starting") : t("lobby.seats", { n: taken });
    const w = status.window;
    windowText.textContent = w ? formatRange(w.min, w.max) : "—";
    searching.textContent = formatNumber(status.searching_in_window ?? 0);
    const key = JSON.stringify(lobby.seats.map((seat) => [seat.player_id, seat.nickname || names.get(seat.player_id) || "", Boolean(seat.bot || botIds.has(seat.player_id))]));
    if (key === drawn) return;
    drawn = key;
    const items = [];
    for (let i = 0; i < SEATS; i++) {
      const seat = lobby.seats[i];
      if (seat) {
        const nickname = seat.nickname || names.get(seat.player_id) || "…";
        const player = { id: seat.player_id, nickname, bot: Boolean(seat.bot || botIds.has(seat.player_id)) };
        items.push(
          h(
            "li",
            { class: `seat taken ${seat.player_id === status.me ? "me" : ""}`, style: { "--i": i } },
            avatar(player),
            playerName(player, null, "seat-name"),
          ),
        );
      } else {
        items.push(
          h(
            "li",
            { class: "seat open" },
            h("span", { class: "avatar empty", "aria-hidden": "true" }, "?"),
            h("span", { class: "seat-name" }, t("lobby.seat.open")),
          ),
        );
      }
    }
    replace(seats, items);
    fitNames(seats);
  }

  function tick() {
    wait.textContent = formatDuration(Date.now() - waitedAt);
    const at = status.bots_at;
    bots.hidden = !at || lobby.seats.length >= SEATS;
    if (bots.hidden) return;
    const left = Math.ceil((at - clock.now()) / 1000);
    const text = left > 0 ? t("lobby.bots", { n: left }) : t("lobby.bots.now");
    if (bots.textContent !== text) bots.textContent = text;
  }

  replace(
    root,
    h(
      "section",
      { class: "lobby screen", "aria-labelledby": "lobby-title" },
      h(
        "div",
        { class: "lobby-head" },
        h("span", { class: "radar", "aria-hidden": "true" }, h("i"), h("i")),
        h("h1", { id: "lobby-title" }, t("lobby.heading")),
        lobby.group_id ? h("span", { class: "badge" }, t("lobby.group")) : null,
        count,
        bots,
      ),
      h("div", { class: "card" }, seats),
      h(
        "dl",
        { class: "card facts" },
        h("div", {}, h("dt", {}, t("lobby.wait")), wait),
        h("div", {}, h("dt", {}, t("lobby.window")), windowText, h("p", { class: "hint" }, t("lobby.window.fixed"))),
        h("div", {}, h("dt", {}, t("lobby.searching")), searching),
        h("div", {}, h("dt", {}, t("lobby.language")), h("dd", { lang: lobby.language }, lang ? lang.native_name : lobby.language)),
      ),
      h("button", { class: "btn ghost danger wide", id: "leave-lobby", type: "button", onclick: leave }, t("lobby.leave")),
    ),
  );
  const me = await refreshMe();
  status.me = me.id;
  render();
  tick();
  const ticker = setInterval(tick, 250);

  async function loadNames() {
    const key = lobby.seats.map((s) => s.player_id).join(",");
    if (key === seatKey) return;
    const full = (await api.get(`/v1/lobbies/${lobby.id}`)).data;
    names = new Map(full.seats.map((s) => [s.player_id, s.nickname]));
    botIds = new Set(full.seats.filter((s) => s.bot).map((s) => s.player_id));
    seatKey = key;
    if (full.tournament_id) lobby = full;
  }

  const poller = new Poller(async () => {
    if (leaving) return null;
    const asked = Date.now();
    const answer = await api.get("/v1/queue");
    clock.roughSync(answer.headers.get("Date"), asked);
    const next = answer.data;
    if (!next.queued) {
      // The 8th seat started the tournament (or the lobby is gone).
      const full = await api.get(`/v1/lobbies/${lobby.id}`).then((r) => r.data).catch(() => null);
      if (full) {
        lobby = full;
        render();
      }
      const profile = await refreshMe();
      const tid = (full && full.tournament_id) || profile.tournament_id;
      if (tid) {
        announce(t("lobby.starting"));
        go(tournamentPath(tid));
      } else go("");
      return null;
    }
    next.me = status.me;
    status = next;
    lobby = next.lobby;
    waitedAt = Date.now() - (next.waited_ms || 0);
    await loadNames();
    render();
    if (lobby.tournament_id) {
      go(tournamentPath(lobby.tournament_id));
      return null;
    }
    return POLL_MS;
  }).start();

  return () => {
    poller.stop();
    clearInterval(ticker);
  };
}
