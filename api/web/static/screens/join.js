// An invite link (#/join/<invite_code>): join the group, then show it.

import * as api from "../api.js";
import { toast } from "../dom.js";
import { refreshMe } from "../state.js";
import { t } from "../strings.js";
import { errorText } from "./common.js";

export async function mount(_root, { code }, { go }) {
  try {
    await api.post("/v1/groups/join", { invite_code: code || "" });
    toast(t("group.joined"));
    go("group");
  } catch (err) {
    toast(errorText(err), "error");
    const me = await refreshMe().catch(() => null);
    go(me && me.group_id ? "group" : "");
  }
  return null;
}
