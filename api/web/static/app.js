// The reference client of the Wordle Tournament REST API: a hash router over a few screens.

import * as api from "./api.js";
import { h, replace, toast } from "./dom.js";
import { colourBlind, loadLanguages, setColourBlind, store } from "./state.js";
import { errorText, paletteButton } from "./screens/common.js";
import { LOCALE_EVENT, loaded, preferredLocale, t, useLocale } from "./strings.js";
import * as group from "./screens/group.js";
import * as home from "./screens/home.js";
import * as join from "./screens/join.js";
import * as lobby from "./screens/lobby.js";
import * as tournament from "./screens/tournament.js";

const SCREENS = { "": home, group, lobby, t: tournament, join };

const main = document.getElementById("main");
let unmount = null;
let generation = 0;

function parse(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  return { name: parts[0] || "", arg: parts.slice(1).join("/") || null };
}

export function go(path) {
  const target = `#/${path}`;
  if (location.hash === target) route();
  else location.hash = target;
}

async function route() {
  const mine = ++generation;
  if (unmount) {
    try {
      unmount();
    } catch (err) {
      console.error(err);
    }
    unmount = null;
  }
  const { name, arg } = parse(location.hash);
  const screen = SCREENS[name] || home;
  document.body.dataset.screen = name || "home";
  replace(main, h("p", { class: "loading" }, h("span", { class: "spinner", "aria-hidden": "true" })));
  try {
    const cleanup = await screen.mount(main, arg, { go, isCurrent: () => mine === generation });
    if (mine !== generation) {
      if (cleanup) cleanup();
      return;
    }
    unmount = cleanup || null;
  } catch (err) {
    console.error(err);
    if (mine !== generation) return;
    toast(errorText(err), "error");
    replace(
      main,
      h(
        "section",
        { class: "card center" },
        h("p", {}, t("error.generic")),
        h("button", { class: "btn", onclick: () => go("") }, t("results.home")),
      ),
    );
  }
}

function topbar() {
  const palette = paletteButton("palette");
  const brand = h(
    "a",
    { class: "brand", href: "#/", "aria-label": t("app.title") },
    h("span", { class: "logo", "aria-hidden": "true" }, "W", h("b", {}, "T")),
    h("span", { class: "brand-name" }, t("app.title")),
  );
  replace(
    document.getElementById("topbar"),
    brand,
    h("span", { class: "offline-note", role: "status" }, t("app.offline")),
    palette,
  );
}

// The page's own text in the interface language (D17): the skip link and the top bar. Screens
// draw theirs when they mount.
function chrome() {
  document.getElementById("skip-link").textContent = t("app.skip");
  topbar();
}

// D17: the player picked another interface language: draw everything again in it, keeping the
// keyboard focus where it was (the picker).
async function relabel() {
  const focused = document.activeElement && document.activeElement.id;
  chrome();
  await route();
  const el = focused && document.getElementById(focused);
  if (el) el.focus();
}

async function boot() {
  setColourBlind(colourBlind());
  for (let attempt = 0; ; attempt++) {
    try {
      if (!loaded()) {
        await useLocale(preferredLocale());
        chrome();
      }
      await loadLanguages();
      store.me = await api.connect();
      break;
    } catch (err) {
      document.body.classList.add("offline");
      await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 500 * 2 ** attempt)));
    }
  }
  document.body.classList.remove("offline");
  const { name, arg } = parse(location.hash);
  const me = store.me;
  if (name === "join") {
    // An invite link always wins: the join screen sorts out where we are.
  } else if (me.tournament_id) {
    history.replaceState(null, "", `#/t/${me.tournament_id}`);
  } else if (me.lobby_id) {
    history.replaceState(null, "", "#/lobby");
  } else if (name === "t" && arg) {
    // A finished tournament, or one we are watching after elimination: stay.
  } else if (name === "group" && me.group_id) {
    // stay
  } else if (name !== "") {
    history.replaceState(null, "", "#/");
  }
  window.addEventListener("hashchange", route);
  window.addEventListener(LOCALE_EVENT, relabel);
  route();
}

boot();
