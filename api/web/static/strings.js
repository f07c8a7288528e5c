// The interface's text in the 13 languages of D17, chosen apart from the word language.
//
// One catalogue a language in i18n/<code>.json, with English as the fallback for any key a
// catalogue lacks. A value is either a string with {placeholders}, or a plural message: an
// object from Intl.PluralRules categories ("one", "few", "many", "other", …) and optional exact
// forms ("=1") to strings, chosen by the number in {n}. Keys ending in ".ordinal" choose by the
// ordinal rules ("1st", "2nd", …), every other plural message by the cardinal ones. Numbers are
// formatted with Intl in the interface language.

export const LOCALES = Object.freeze({
  en: "English",
  id: "Bahasa Indonesia",
  de: "Deutsch",
  es: "Español",
  fr: "Français",
  it: "Italiano",
  nl: "Nederlands",
  uz: "Oʻzbekcha",
  pl: "Polski",
  pt: "Português",
  kk: "Қазақша",
  ru: "Русский",
  uk: "Українська",
});
export const FALLBACK = "en";
export const LOCALE_EVENT = "wt:locale";
const STORAGE_KEY = "wt.ui";

const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

let current = FALLBACK;
let catalogue = {}; // the current language's messages
let english = {}; // the fallback's
const formatters = new Map();

// The language to speak: a saved choice, else the first of the browser's preferred languages
// that is one of ours (by primary subtag: "uk-UA" → "uk"), else English.
export function pickLocale(saved, preferred = []) {
  if (saved && own(LOCALES, saved)) return saved;
  for (const tag of preferred) {
    const primary = String(tag || "").toLowerCase().split(/[-_]/)[0];
    if (own(LOCALES, primary)) return primary;
  }
  return FALLBACK;
}

export function savedLocale() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function preferredLocale() {
  const preferred = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  return pickLocale(savedLocale(), preferred);
}

export function locale() {
  return current;
}

async function fetchCatalogue(code) {
  const response = await fetch(`/static/i18n/${code}.json`);
  if (!response.ok) throw new Error(`i18n/${code}.json: HTTP ${response.status}`);
  return response.json();
}

// Loads the language's catalogue (and English, once), then makes it the interface's language:
// <html lang> and the page title follow. A catalogue that fails to load leaves English.
export async function useLocale(code) {
  if (!own(LOCALES, code)) code = FALLBACK;
  if (!Object.keys(english).length) english = await fetchCatalogue(FALLBACK);
  let messages = english;
  if (code !== FALLBACK) {
    try {
      messages = await fetchCatalogue(code);
    } catch (err) {
      console.warn(err);
      code = FALLBACK;
    }
  }
  catalogue = messages;
  current = code;
  formatters.clear();
  document.documentElement.lang = code;
  document.title = t("app.title");
  return code;
}

// The player's choice: remembered across reloads, applied now, and announced to the screens.
export async function chooseLocale(code) {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // private mode: the choice lasts for this page only
  }
  const used = await useLocale(code);
  window.dispatchEvent(new CustomEvent(LOCALE_EVENT, { detail: used }));
  return used;
}

export function loaded() {
  return Object.keys(english).length > 0;
}

function lookup(key) {
  if (own(catalogue, key)) return [catalogue[key], current];
  if (own(english, key)) return [english[key], FALLBACK];
  return [undefined, FALLBACK];
}

export function has(key) {
  return lookup(key)[0] !== undefined;
}

function cached(kind, code, options, make) {
  const id = `${kind}|${code}|${JSON.stringify(options)}`;
  if (!formatters.has(id)) formatters.set(id, make());
  return formatters.get(id);
}

function plural(code, type) {
  return cached("plural", code, type, () => new Intl.PluralRules(code, { type }));
}

// The form of a plural message for n, in the rules of the language the message came from.
function choose(forms, key, n, code) {
  const exact = forms[`=${n}`];
  if (exact !== undefined) return exact;
  const category = typeof n === "number" ? plural(code, key.endsWith(".ordinal") ? "ordinal" : "cardinal").select(n) : "other";
  return forms[category] ?? forms.other ?? "";
}

export function t(key, vars = {}) {
  const [value, code] = lookup(key);
  return value === undefined ? key : format(value, key, vars, code);
}

// One message's text: its plural form for {n} (in the plural rules of `code`, the language the
// message is written in), the placeholders filled, numbers formatted in the interface language.
// An unknown placeholder stays as it is, so a missing value shows rather than hides.
export function format(value, key, vars = {}, code = current) {
  const text = typeof value === "object" && value !== null ? choose(value, key, vars.n, code) : value;
  return String(text).replace(/\{(\w+)\}/g, (whole, name) =>
    own(vars, name) ? (typeof vars[name] === "number" ? formatNumber(vars[name]) : String(vars[name])) : whole,
  );
}

// A place as a short ordinal: "3rd", "3.", "3-е", "3e"… (D1's places).
export function place(n) {
  return t("place.ordinal", { n });
}

// Numbers in the interface language; "min2" groups only from five digits, so a rating of 1000
// stays "1000" while 12 345 still reads well.
export function formatNumber(n, options = {}) {
  const merged = { useGrouping: "min2", ...options };
  return cached("number", current, merged, () => new Intl.NumberFormat(current, merged)).format(n);
}

export function formatRange(from, to, options = {}) {
  const merged = { useGrouping: "min2", ...options };
  const format = cached("number", current, merged, () => new Intl.NumberFormat(current, merged));
  if (typeof format.formatRange === "function") return format.formatRange(from, to);
  return `${format.format(from)}–${format.format(to)}`;
}

// A signed change such as a rating's: "+25", "−4", "±0" (a true minus sign).
export function formatSigned(n) {
  if (n === null || n === undefined) return "—";
  const size = formatNumber(Math.abs(n));
  return n > 0 ? `+${size}` : n < 0 ? `−${size}` : `±${size}`;
}

// A date (and time) in the interface language. Chromium's Intl lacks the month names of some of
// our languages (Uzbek, Kazakh) and writes "2026 M12 1" for them: those get the numeric form
// their countries write, "01.12.2026, 10:31", rather than English or a broken date.
export function formatDate(ms, options = { dateStyle: "medium", timeStyle: "short" }) {
  const date = new Date(ms);
  const format = cached("date", current, options, () => new Intl.DateTimeFormat(current, options));
  const parts = format.formatToParts(date);
  if (!parts.some((part) => part.type === "month" && /^M\d/.test(part.value))) return format.format(date);
  const two = (n) => String(n).padStart(2, "0");
  const day = `${two(date.getDate())}.${two(date.getMonth() + 1)}.${date.getFullYear()}`;
  return options.timeStyle ? `${day}, ${two(date.getHours())}:${two(date.getMinutes())}` : day;
}

// A day alone: "1 Dec 2026", "01.12.2026".
export function formatDay(ms) {
  return formatDate(ms, { dateStyle: "medium" });
}

export function formatList(items, options = { type: "conjunction" }) {
  return cached("list", current, options, () => new Intl.ListFormat(current, options)).format(items.map(String));
}
