// The reference client of the Wordle Tournament REST API: a hash router over a few screens
// (routes.js), which also takes the player wherever the server says they are (follow()).

import * as api from "./api.js";
import { h, replace, toast } from "./dom.js";
import { colourBlind, loadLanguages, setColourBlind, store } from "./state.js";
import { errorText, paletteButton } from "./screens/common.js";
import { fitNames } from "./components/names.js";
import { LOCALE_EVENT, loaded, preferredLocale, t, useLocale } from "./strings.js";
import { match } from "./routes.js";
import { tournamentPath } from "./paths.js";
import { theme, toggleTheme } from "./theme.js";
import { registerWorker } from "./update.js";

const main = document.getElementById("main");
let mounted = null; // {route, params, unmount, update}
let generation = 0;

export function go(path) {
  const target = `#/${path}`;
  if (location.hash === target) route();
  else location.hash = target;
}

// What is on screen now: the route's name and parameters.
function here() {
  return match(location.hash);
}

// docs/client.md, "Where the player is": a live tournament the player is still playing in must
// be on screen, from any screen and at once; else a lobby they sit in. Nothing else forces a
// move, so a player who is out (D14) may go home, queue or join their group, and watch.
function follow(where) {
  store.where = where;
  if (store.me) Object.assign(store.me, where, { where });
  const { route, params } = here();
  if (where.tournament_id) {
    if (route.name !== "t" || params.id !== where.tournament_id) go(tournamentPath(where.tournament_id));
    return;
  }
  if (where.lobby_id && route.name !== "lobby" && route.name !== "join") go("lobby");
}

function unmountCurrent() {
  if (!mounted) return;
  try {
    if (mounted.unmount) mounted.unmount();
  } catch (err) {
    console.error(err);
  }
  mounted = null;
}

// A screen's mount returns nothing, a cleanup function, or {unmount, update}: a screen with
// `update` takes a change of its own parameters (the same tournament's story) without a remount.
function normalise(result) {
  if (!result) return {};
  if (typeof result === "function") return { unmount: result };
  return result;
}

async function route() {
  const mine = ++generation;
  const { route: next, params } = here();
  if (
    mounted &&
    mounted.update &&
    mounted.route.screen === next.screen &&
    mounted.params.id === params.id
  ) {
    mounted.params = params;
    mounted.update(params);
    return;
  }
  unmountCurrent();
  document.body.dataset.screen = next.name;
  replace(main, h("p", { class: "loading" }, h("span", { class: "spinner", "aria-hidden": "true" })));
  try {
    // A visitor who came by a public link becomes a player only on a screen that needs one.
    if (!next.public) await player();
    if (mine !== generation) return;
    const result = normalise(await next.screen.mount(main, params, { go, isCurrent: () => mine === generation }));
    if (mine !== generation) {
      if (result.unmount) result.unmount();
      return;
    }
    mounted = { route: next, params, ...result };
  } catch (err) {
    console.error(err);
    if (mine !== generation) return;
    toast(errorText(err), "error");
    replace(
      main,
      h(
        "section",
        { class: "card center", id: "screen-error" },
        h("p", {}, err && err.status === 0 ? t("error.network") : t("error.generic")),
        h("button", { class: "btn", onclick: () => go("") }, t("results.home")),
      ),
    );
    // No network: the screen tries again as soon as there is one.
    if (err && err.status === 0) window.addEventListener("online", () => mine === generation && route(), { once: true });
  }
}

function topbar() {
  const palette = paletteButton("palette");
  const brand = h(
    "a",
    { class: "brand", id: "brand", href: "#/", "aria-label": t("app.title") },
    h("span", { class: "logo", "aria-hidden": "true" }, "W", h("b", {}, "T")),
    h("span", { class: "brand-name" }, t("app.title")),
  );
  replace(
    document.getElementById("topbar"),
    brand,
    h("span", { class: "offline-note", role: "status" }, t("app.offline")),
    themeButton(),
    palette,
  );
}

// Light or dark: the system's setting until the player picks one here (theme.js).
function themeButton() {
  const button = h(
    "button",
    {
      class: "icon-btn theme-btn",
      id: "theme",
      type: "button",
      "aria-pressed": String(theme() === "dark"),
      title: t("app.theme"),
      "aria-label": t("app.theme"),
    },
    h("span", { class: "theme-icon", "aria-hidden": "true" }),
  );
  button.addEventListener("click", () => {
    const dark = toggleTheme() === "dark";
    button.setAttribute("aria-pressed", String(dark));
    toast(t(dark ? "app.theme.on" : "app.theme.off"));
  });
  return button;
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
  unmountCurrent();
  await route();
  const el = focused && document.getElementById(focused);
  if (el) el.focus();
}

// Names are shortened to the room they have (components/names.js): fitted again when it changes.
let refit = 0;
function refitNames() {
  cancelAnimationFrame(refit);
  refit = requestAnimationFrame(() => fitNames(document));
}

// Runs `task` until it works, the page marked offline meanwhile (backing off to 5 s).
async function untilOnline(task) {
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await task();
      document.body.classList.remove("offline");
      return result;
    } catch (err) {
      document.body.classList.add("offline");
      await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 500 * 2 ** attempt)));
    }
  }
}

// The player behind the stored token, or a new one: once, for the screens that need one.
let connecting = null;
function player() {
  if (store.me) return Promise.resolve(store.me);
  if (!connecting) {
    connecting = untilOnline(() => untilCreated(() => api.connect())).then((me) => {
      store.me = me;
      return me;
    });
  }
  return connecting;
}

const CREATE_RETRY_S = 10; // when a refused creation names no Retry-After

// A new player refused with 429 (the server's budgets for new players, per address or in all):
// not a lost connection. The page says why and when it tries again, counts down, and tries again
// by itself at that time, as often as it takes.
async function untilCreated(task) {
  for (;;) {
    try {
      return await task();
    } catch (err) {
      if (!(err && err.creation && err.status === 429)) throw err;
      document.body.classList.remove("offline");
      await limited(err.retryAfter ?? CREATE_RETRY_S, (err.details && err.details.scope) || null);
    }
  }
}

// Why, from the refusal's scope (the address, its network, everyone: too_many_new_players);
// any other 429 of the creation gets the general words.
const WHY = { address: "create.why.address", network: "create.why.network", global: "create.why.global" };

function limited(seconds, scope) {
  const until = Date.now() + Math.max(1, seconds) * 1000;
  const text = h("p", { id: "create-wait", role: "timer" });
  replace(
    main,
    h(
      "section",
      { class: "card center limited-card", id: "create-limited", role: "status" },
      h("h1", { id: "create-title" }, t("create.title")),
      h("p", { class: "limited-why", id: "create-why" }, t(WHY[scope] || "create.why")),
      text,
    ),
  );
  return new Promise((resolve) => {
    const tick = () => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      const shown = t("create.wait", { n: Math.max(1, left) });
      if (text.textContent !== shown) text.textContent = shown;
      if (left > 0) return;
      clearInterval(timer);
      resolve();
    };
    const timer = setInterval(tick, 250);
    tick();
  });
}

async function boot() {
  setColourBlind(colourBlind());
  registerWorker();
  await untilOnline(async () => {
    if (!loaded()) {
      await useLocale(preferredLocale());
      chrome();
    }
    await loadLanguages();
  });
  const { route: first, params, unknown } = here();
  // A shared link opened by someone without a token shows without making them a player.
  if (!first.public || api.token()) {
    await player();
    const where = store.me.where || store.me;
    if (first.name === "join") {
      // An invite link always wins: the join screen sorts out where we are.
    } else if (where.tournament_id) {
      history.replaceState(null, "", `#/${tournamentPath(where.tournament_id)}`);
    } else if (where.lobby_id) {
      history.replaceState(null, "", "#/lobby");
    } else if (unknown || (first.name === "group" && !where.group_id) || (first.name === "lobby")) {
      history.replaceState(null, "", "#/");
    } else if (first.name === "t" && !params.id) {
      history.replaceState(null, "", "#/");
    }
  }
  api.onWhere(follow);
  window.addEventListener("resize", refitNames);
  window.addEventListener("hashchange", route);
  window.addEventListener(LOCALE_EVENT, relabel);
  route();
}

boot();
