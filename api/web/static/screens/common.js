// Pieces several screens share.

import { h, toast } from "../dom.js";
import { colourBlind, setColourBlind } from "../state.js";
import { formatSigned, has, t } from "../strings.js";

// The message to show for an API error: our own text, in the player's language, for every code
// the API sends; the server's (English) message for a code we do not know.
export function errorText(err, vars = {}) {
  if (!err || typeof err.code !== "string") return t("error.generic"); // not the API's: a bug
  const key = `error.${err.code}`;
  if (has(key)) return t(key, vars);
  if (err.status === 0) return t("error.network");
  return err.message || t("error.generic");
}

// A colour-blind palette toggle: the top bar has one, the duel (where the top bar is hidden) another.
// Every toggle on the page shows the same state.
export function paletteButton(id, extraClass = "") {
  return h(
    "button",
    {
      class: `icon-btn palette-btn ${extraClass}`.trim(),
      id,
      type: "button",
      "aria-pressed": String(colourBlind()),
      title: t("app.palette"),
      "aria-label": t("app.palette"),
      onclick: () => {
        const on = !colourBlind();
        setColourBlind(on);
        for (const el of document.querySelectorAll(".palette-btn")) el.setAttribute("aria-pressed", String(on));
        toast(t(on ? "app.palette.on" : "app.palette.off"));
      },
    },
    h("span", { class: "swatch", "aria-hidden": "true" }, h("i"), h("i")),
  );
}

export function initials(name) {
  const words = String(name || "?")
    .replace(/[^\p{L}\p{N} ]/gu, " ")
    .trim()
    .split(/\s+|(?=\p{Lu})/u);
  const letters = words.filter(Boolean).slice(0, 2).map((w) => w[0]);
  return (letters.join("") || "?").toUpperCase();
}

// A stable hue per player, so a player keeps one colour on every screen.
export function hue(id) {
  let x = 0;
  for (const c of String(id)) x = (x * 31 + c.charCodeAt(0)) >>> 0;
  return x % 360;
}

export function avatar(player, extra = "") {
  return h(
    "span",
    { class: `avatar ${extra}`, style: { "--hue": hue(player.id) }, "aria-hidden": "true" },
    initials(player.nickname),
  );
}

export function hearts(lives, max = 3) {
  const out = [];
  for (let i = 0; i < max; i++) {
    out.push(h("span", { class: i < lives ? "heart full" : "heart empty", "aria-hidden": "true" }, "♥"));
  }
  return out;
}

// A tile's text as shown: upper case in the language's own rules, ß kept as capital ẞ.
export function tileText(tile, lang) {
  if (tile === "ß") return "ẞ";
  try {
    return tile.toLocaleUpperCase(lang);
  } catch {
    return tile.toUpperCase();
  }
}

export function signed(n) {
  return formatSigned(n);
}
