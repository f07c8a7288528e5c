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
  const h_ = hue(player.id);
  return h(
    "span",
    { class: `avatar ${extra}`, style: { "--hue": h_, "--tone": `${tone(h_)}%` }, "aria-hidden": "true" },
    initials(player.nickname),
  );
}

// The lightness (in %) at which a player's colour takes white initials at 4.5:1 or more (WCAG
// AA): blues and reds stay bright, yellows and greens, bright by nature, get darker. It holds
// for the avatar's gradient (hue at 65 %, hue + 40° at 60 % and 12 points darker) and for the
// board's row markers (hue at 55 %).
const TONES = new Map();
const MAX_TONE = 55;
const MIN_CONTRAST = 4.6;

export function tone(hueDeg) {
  if (!TONES.has(hueDeg)) {
    let lightness = MAX_TONE;
    const ok = (l) =>
      whiteContrast(hueDeg, 65, l) >= MIN_CONTRAST &&
      whiteContrast(hueDeg + 40, 60, l - 12) >= MIN_CONTRAST &&
      whiteContrast(hueDeg, 55, l) >= MIN_CONTRAST;
    while (lightness > 20 && !ok(lightness)) lightness -= 1;
    TONES.set(hueDeg, lightness);
  }
  return TONES.get(hueDeg);
}

function whiteContrast(hueDeg, saturation, lightness) {
  const s = saturation / 100;
  const l = lightness / 100;
  const k = (n) => (n + hueDeg / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const channel = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  const linear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const lum = 0.2126 * linear(channel(0)) + 0.7152 * linear(channel(8)) + 0.0722 * linear(channel(4));
  return 1.05 / (lum + 0.05);
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
