// What the whole client shares: the player, the languages, the settings, and a poller.

import * as api from "./api.js";

const LANGUAGE_KEY = "wt.language";
const PALETTE_KEY = "wt.palette";

export const store = {
  me: null, // the /v1/me profile
  languages: [], // GET /v1/languages
  byCode: new Map(),
  turnSeconds: 30,
};

export async function loadLanguages() {
  const { data } = await api.get("/v1/languages");
  store.languages = data.languages;
  store.byCode = new Map(data.languages.map((lang) => [lang.code, lang]));
}

export function language(code) {
  return store.byCode.get(code) || store.languages[0];
}

export function chosenLanguage() {
  const saved = localStorage.getItem(LANGUAGE_KEY);
  if (saved && store.byCode.has(saved)) return saved;
  const device = (navigator.language || "en").slice(0, 2).toLowerCase();
  return store.byCode.has(device) ? device : "en";
}

export function chooseLanguage(code) {
  localStorage.setItem(LANGUAGE_KEY, code);
}

export async function refreshMe() {
  store.me = (await api.get("/v1/me")).data;
  return store.me;
}

export function colourBlind() {
  return localStorage.getItem(PALETTE_KEY) === "cb";
}

export function setColourBlind(on) {
  localStorage.setItem(PALETTE_KEY, on ? "cb" : "standard");
  document.documentElement.classList.toggle("cb", on);
}

// Runs `task` again and again; `task` returns the delay in ms before its next run. Network and
// server errors back off (honouring Retry-After) instead of stopping the loop.
export class Poller {
  constructor(task, { onError } = {}) {
    this.task = task;
    this.onError = onError;
    this.timer = null;
    this.running = false;
    this.busy = false;
    this.failures = 0;
  }

  start(delay = 0) {
    this.running = true;
    this.kick(delay);
    return this;
  }

  stop() {
    this.running = false;
    clearTimeout(this.timer);
  }

  // Run now (e.g. after our own action), unless a run is already in flight.
  kick(delay = 0) {
    if (!this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), delay);
  }

  async run() {
    if (!this.running || this.busy) return;
    this.busy = true;
    let delay;
    try {
      delay = await this.task();
      this.failures = 0;
      document.body.classList.remove("offline");
    } catch (err) {
      this.failures += 1;
      if (err && err.status === 0) document.body.classList.add("offline");
      if (this.onError) this.onError(err);
      const backoff = Math.min(8000, 500 * 2 ** Math.min(this.failures, 4));
      delay = err && err.retryAfter ? err.retryAfter * 1000 : backoff;
    } finally {
      this.busy = false;
    }
    if (this.running && delay !== null && delay !== undefined) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.run(), Math.max(50, delay));
    }
  }
}
