// Group: the invite link to copy, the members, the leader's Start. Members come back here after
// a tournament.

import * as api from "../api.js";
import { h, replace, toast } from "../dom.js";
import { confirmDialog } from "../components/confirm.js";
import { Poller, language, refreshMe } from "../state.js";
import { t } from "../strings.js";
import { tournamentPath } from "../paths.js";
import { avatar, errorText } from "./common.js";
import { fitNames, playerName } from "../components/names.js";

const POLL_MS = 2000;

export async function mount(root, _arg, { go }) {
  let me = await refreshMe();
  if (!me.group_id) {
    go("");
    return null;
  }
  let group = (await api.get(`/v1/groups/${me.group_id}`)).data;

  const linkInput = h("input", {
    id: "invite-link",
    class: "text-input link",
    readonly: true,
    "aria-label": t("group.invite"),
    onfocus: (e) => e.target.select(),
  });
  const members = h("ul", { class: "members", id: "members" });
  const membersTitle = h("h2", { class: "label" });
  const actions = h("div", { class: "actions" });
  const langLine = h("p", { class: "hint" });

  async function copy() {
    try {
      await navigator.clipboard.writeText(linkInput.value);
      toast(t("group.copied"));
    } catch {
      linkInput.focus();
      linkInput.select();
      let copied = false;
      try {
        copied = document.execCommand("copy");
      } catch {
        copied = false;
      }
      toast(t(copied ? "group.copied" : "group.copy.failed"));
    }
  }

  async function act(action) {
    try {
      await action();
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  const start = () =>
    act(async () => {
      const lobby = (await api.post(`/v1/groups/${group.id}/start`)).data;
      go(lobby.tournament_id ? tournamentPath(lobby.tournament_id) : "lobby");
    });
  const newInvite = () =>
    act(async () => {
      group = (await api.post(`/v1/groups/${group.id}/invite`)).data;
      render();
      toast(t("group.newInvite.done"));
    });
  // Leaving asks first, as leaving a tournament does: the way back is an invite link.
  const leave = async () => {
    const yes = await confirmDialog({
      id: "leave-group-dialog",
      title: t("group.leave.title"),
      text: t("group.leave.confirm"),
      yes: t("group.leave"),
      no: t("group.leave.no"),
    });
    if (!yes) return;
    await act(async () => {
      await api.del(`/v1/groups/${group.id}/members/${me.id}`);
      go("");
    });
  };
  // The leader's own button: drawn with the members, so that a member who becomes the leader
  // (D11: when the leader leaves) gets it at the next read, without a reload.
  const inviteActions = h("div", { class: "invite-actions" });

  function render() {
    linkInput.value = `${location.origin}${location.pathname}#/join/${encodeURIComponent(group.invite_code)}`;
    const lang = language(group.language);
    langLine.textContent = t("group.language", { language: lang ? lang.native_name : group.language });
    membersTitle.textContent = t("group.members", { n: group.members.length });
    const leader = group.members.find((m) => m.player_id === group.leader);
    replace(
      members,
      group.members.map((m) => {
        const status = m.tournament_id ? "group.busy.tournament" : m.lobby_id ? "group.busy.lobby" : "group.ready";
        return h(
          "li",
          { class: `member ${m.player_id === me.id ? "me" : ""}` },
          avatar({ id: m.player_id, nickname: m.nickname }),
          h(
            "span",
            { class: "member-name" },
            playerName({ id: m.player_id, nickname: m.nickname || "?", bot: m.bot }),
            m.player_id === me.id ? h("span", { class: "you-mark" }, t("group.you")) : null,
          ),
          m.player_id === group.leader ? h("span", { class: "badge gold" }, t("group.leader")) : null,
          h("span", { class: "member-rating" }, m.rating ?? ""),
          h("span", { class: `pill ${status === "group.ready" ? "ok" : "busy"}` }, t(status)),
        );
      }),
    );
    fitNames(members);
    const isLeader = group.leader === me.id;
    replace(
      inviteActions,
      isLeader ? h("button", { class: "btn link-btn", id: "new-invite", type: "button", onclick: newInvite }, t("group.newInvite")) : null,
    );
    replace(
      actions,
      isLeader
        ? [
            h("button", { class: "btn primary big", id: "start", type: "button", onclick: start }, t("group.start")),
            h("p", { class: "hint" }, t("group.start.hint")),
          ]
        : h("p", { class: "waiting-note" }, h("span", { class: "dots", "aria-hidden": "true" }), t("group.wait", { name: leader ? leader.nickname : "" })),
      h(
        "div",
        { class: "row-buttons" },
        h("button", { class: "btn ghost", id: "group-home", type: "button", onclick: () => go("") }, t("group.home")),
        h("button", { class: "btn ghost danger", id: "leave-group", type: "button", onclick: leave }, t("group.leave")),
      ),
    );
  }

  replace(
    root,
    h(
      "section",
      { class: "group screen", "aria-labelledby": "group-title" },
      h("h1", { id: "group-title" }, t("group.heading")),
      langLine,
      h(
        "div",
        { class: "card" },
        h("label", { class: "label", for: "invite-link" }, t("group.invite")),
        h(
          "div",
          { class: "link-row" },
          linkInput,
          h("button", { class: "btn secondary", id: "copy-link", type: "button", onclick: copy }, t("group.copy")),
        ),
        h("p", { class: "hint" }, t("group.invite.hint")),
        inviteActions,
      ),
      h("div", { class: "card" }, membersTitle, members),
      actions,
    ),
  );
  render();

  // The leader's Start seats every member: the `Where` of these reads takes them there (app.js),
  // and this screen goes away; until then it keeps reading.
  const poller = new Poller(async () => {
    me = await refreshMe();
    if (me.tournament_id || me.lobby_id) return POLL_MS;
    if (!me.group_id) {
      go("");
      return null;
    }
    group = (await api.get(`/v1/groups/${me.group_id}`)).data;
    // Rebuilt buttons keep their ids, so keyboard focus survives the refresh.
    const focused = document.activeElement && document.activeElement.id;
    render();
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
    return POLL_MS;
  }).start(POLL_MS);
  return () => poller.stop();
}
