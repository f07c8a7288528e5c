// The light and dark themes: the system's setting by default (theme-early.js applies it before
// the first paint and follows it), and a switch that remembers the player's choice across
// reloads. A choice equal to the system's setting is forgotten, so the app follows the system
// again from then on.

const KEY = "wt.theme";
const EVENT = "wt:theme"; // theme-early.js applies the theme again on it

function system() {
  return window.matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
}

// The theme on screen: "light" or "dark".
export function theme() {
  return document.documentElement.dataset.theme === "light" ? "light" : "dark";
}

export function setTheme(next) {
  try {
    if (next === system()) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, next);
  } catch {
    // private mode: the choice lasts for this page only
    document.documentElement.dataset.theme = next;
  }
  window.dispatchEvent(new Event(EVENT));
  if (theme() !== next) document.documentElement.dataset.theme = next;
  return next;
}

export function toggleTheme() {
  return setTheme(theme() === "dark" ? "light" : "dark");
}
