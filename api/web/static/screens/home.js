// Home: the interface language (D17), the player (nickname shown and editable, rating), the word
// language, Play, Create group, the last tournament, the records, and the rules.

import * as api from "../api.js";
import { h, replace, toast } from "../dom.js";
import { Poller, chooseLanguage, chosenLanguage, refreshMe, store } from "../state.js";
import { nicknameRefusal, nicknameRules, NICKNAME } from "../nickname.js";
import { LOCALES, chooseLocale, has, locale, t } from "../strings.js";
import { tournamentPath } from "../paths.js";
import { errorText, initials } from "./common.js";
import { exitNotice } from "./exit.js";

const GROUP_POLL_MS = 2000;

export async function mount(root, _params, { go }) {
  const me = await refreshMe();
  // Still playing a tournament: the `Where` of that read is already taking the player there.
  if (me.tournament_id) return null;

  let busy = false;
  const face = h("div", { class: "avatar big", id: "home-avatar", "aria-hidden": "true" }, initials(me.nickname));
  const nickname = h("span", { class: "nickname", id: "nickname" }, me.nickname);
  const editButton = h(
    "button",
    { class: "icon-btn small", type: "button", id: "edit-nickname", "aria-label": t("home.edit"), title: t("home.edit") },
    h("span", { "aria-hidden": "true" }, "✎"),
  );
  const nameRow = h("div", { class: "name-row" }, nickname, editButton);

  function showEditor() {
    const input = h("input", {
      id: "nickname-input",
      class: "text-input",
      value: store.me.nickname,
      maxlength: NICKNAME.max,
      autocomplete: "off",
      spellcheck: "false",
      "aria-label": t("home.nickname"),
      "aria-describedby": "nickname-rules",
    });
    const save = h("button", { class: "btn small", type: "submit" }, t("home.save"));
    const cancel = h("button", { class: "btn small ghost", type: "button", onclick: hideEditor }, t("home.cancel"));
    const form = h(
      "form",
      { class: "name-form", onsubmit: onSave },
      input,
      save,
      cancel,
      h("p", { class: "hint", id: "nickname-rules" }, nicknameRules()),
    );
    async function onSave(event) {
      event.preventDefault();
      try {
        store.me = (await api.patch("/v1/me", { nickname: input.value })).data;
        nickname.textContent = store.me.nickname;
        face.textContent = initials(store.me.nickname);
        toast(t("home.renamed"));
        hideEditor();
      } catch (err) {
        // R25: say which rule the nickname breaks, in the player's language.
        const why = err.code === "invalid_nickname" ? nicknameRefusal(err, input.value) : null;
        toast(why || errorText(err), "error");
        input.focus();
      }
    }
    input.addEventListener("keydown", (e) => {
      if (e.key === "Escape") hideEditor();
    });
    replace(nameRow, form);
    input.focus();
    input.select();
  }
  function hideEditor() {
    replace(nameRow, nickname, editButton);
    editButton.focus();
  }
  editButton.addEventListener("click", showEditor);

  const select = h(
    "select",
    { id: "language", class: "select", "aria-describedby": "language-hint", onchange: () => chooseLanguage(select.value) },
    store.languages.map((lang) => h("option", { value: lang.code }, wordLanguageName(lang))),
  );
  select.value = chosenLanguage();

  async function play() {
    if (busy) return;
    busy = true;
    try {
      chooseLanguage(select.value);
      await api.post("/v1/queue", { language: select.value });
      go("lobby");
    } catch (err) {
      toast(errorText(err), "error");
    } finally {
      busy = false;
    }
  }

  async function openGroup() {
    if (busy) return;
    busy = true;
    try {
      if (!store.me.group_id) {
        chooseLanguage(select.value);
        await api.post("/v1/groups", { language: select.value });
      }
      go("group");
    } catch (err) {
      toast(errorText(err), "error");
    } finally {
      busy = false;
    }
  }

  const playButton = me.lobby_id
    ? h("button", { class: "btn primary big", id: "play", type: "button", onclick: () => go("lobby") }, t("home.lobby"))
    : h("button", { class: "btn primary big", id: "play", type: "button", onclick: play }, t("home.play"));

  // D17: the interface language, each in its own name, apart from the word language.
  const interfaceSelect = h(
    "select",
    {
      id: "interface-language",
      class: "select compact",
      onchange: () => chooseLocale(interfaceSelect.value),
    },
    Object.entries(LOCALES).map(([code, name]) => h("option", { value: code, lang: code }, name)),
  );
  interfaceSelect.value = locale();

  const notice = h("div", { class: "exit-slot", id: "exit-slot" });
  replace(
    root,
    h(
      "section",
      { class: "home screen", "aria-labelledby": "home-title" },
      notice,
      h(
        "div",
        { class: "interface-picker" },
        h("label", { for: "interface-language" }, h("span", { class: "globe", "aria-hidden": "true" }), t("home.interface")),
        interfaceSelect,
      ),
      h(
        "div",
        { class: "hero" },
        h("h1", { id: "home-title" }, t("app.title")),
        h("p", { class: "tagline" }, t("app.tagline")),
        h("div", { class: "hero-tiles", "aria-hidden": "true" }, tileRow()),
      ),
      h(
        "div",
        { class: "card profile" },
        h("h2", { class: "sr-only" }, t("home.heading")),
        face,
        h(
          "div",
          { class: "profile-main" },
          h("span", { class: "label" }, t("home.nickname")),
          nameRow,
        ),
        h(
          "dl",
          { class: "stats" },
          h("div", {}, h("dt", {}, t("home.rating")), h("dd", { id: "rating" }, me.rating)),
          h("div", {}, h("dt", {}, t("home.played")), h("dd", {}, me.tournaments_played)),
        ),
      ),
      h(
        "div",
        { class: "card play-card" },
        h("label", { class: "label", for: "language" }, t("home.language")),
        select,
        h("p", { class: "hint", id: "language-hint" }, t("home.language.hint")),
        playButton,
        h("p", { class: "hint" }, t("home.play.hint")),
        h("div", { class: "divider", "aria-hidden": "true" }),
        h(
          "button",
          { class: "btn secondary", id: "group", type: "button", onclick: openGroup },
          t(me.group_id ? "home.group.open" : "home.group.create"),
        ),
        h("p", { class: "hint" }, t("home.group.hint")),
      ),
      lastTournament(me, go, notice),
      records(),
      h(
        "details",
        { class: "card rules" },
        h("summary", {}, t("home.howto")),
        h("ol", { id: "rules" }, ruleLines().map((line) => h("li", {}, line))),
      ),
    ),
  );
  // A group's leader may seat the player at any time (R22): a read every few seconds carries
  // the `Where` that takes them there (app.js), as the group screen's own polls do.
  if (!me.group_id) return null;
  const poller = new Poller(async () => {
    await refreshMe();
    return GROUP_POLL_MS;
  }).start(GROUP_POLL_MS);
  return () => poller.stop();
}

// D14, R9: a player who is out (or has left) is free at once, and may come back to watch their
// tournament until it ends, then read its results and story.
// The same read says, once, what happened to a player who left it without seeing it happen
// (removed after 60 s away, or left from another tab): screens/exit.js.
function lastTournament(me, go, notice) {
  const id = me.last_tournament_id;
  if (!id) return null;
  const button = h("button", { class: "btn secondary wide", id: "last-tournament", type: "button", onclick: () => go(tournamentPath(id)) }, t("home.last.results"));
  const card = h("div", { class: "card last-card", id: "last-card" }, h("span", { class: "label" }, t("home.last.heading")), button);
  api
    .get(`/v1/tournaments/${encodeURIComponent(id)}/state`)
    .then(({ data }) => {
      if (!data) return;
      if (data.phase !== "finished") button.textContent = t("home.last.watch");
      const shown = exitNotice(data, () => go(tournamentPath(id)));
      if (shown) replace(notice, shown);
    })
    .catch(() => card.remove());
  return card;
}

// The player's records: statistics, history, leaderboards.
function records() {
  return h(
    "nav",
    { class: "card records-card", id: "records-card", "aria-labelledby": "records-title" },
    h("h2", { class: "label", id: "records-title" }, t("home.records")),
    h(
      "div",
      { class: "records-links" },
      h("a", { class: "btn secondary", id: "open-stats", href: "#/stats" }, h("span", { class: "records-icon bars", "aria-hidden": "true" }), t("records.stats")),
      h("a", { class: "btn secondary", id: "open-history", href: "#/history" }, h("span", { class: "records-icon list", "aria-hidden": "true" }), t("records.history")),
      h("a", { class: "btn secondary", id: "open-leaderboard", href: "#/leaderboard" }, h("span", { class: "records-icon podium", "aria-hidden": "true" }), t("records.leaderboard")),
    ),
  );
}

// "Deutsch · German": the word language in its own name, and in the interface language when that
// reads differently.
function wordLanguageName(lang) {
  const here = t(`lang.${lang.code}`);
  return here.toLocaleLowerCase() === lang.native_name.toLocaleLowerCase() ? lang.native_name : `${lang.native_name} · ${here}`;
}

function ruleLines() {
  const lines = [];
  for (let i = 1; has(`home.rules.${i}`); i++) lines.push(t(`home.rules.${i}`));
  return lines;
}

function tileRow() {
  const marks = ["G", "Y", "-", "G", "Y"];
  return [..."DUELS"].map((c, i) => h("span", { class: `tile small m${markClass(marks[i])}` }, c));
}

function markClass(mark) {
  return mark === "G" ? "G" : mark === "Y" ? "Y" : "X";
}
