// The page's languages: every word the page shows comes from a message
// catalogue (i18n/<lang>.json, one per language) through t().
//
// A catalogue maps a key ("game.your_turn") to a text with {name}
// placeholders, or, for texts that depend on a number, to an object of
// plural forms chosen by Intl.PluralRules from params.count
// ({"one": "{count} piece", "other": "{count} pieces"}; Slovak adds "few",
// Japanese has only "other"). A key missing from a catalogue falls back to
// English, then to the key itself, so a gap shows and never breaks a screen.
//
// The language is the one chosen on the page (kept in this browser), else
// the first of the browser's languages we have, else English.

export const LANGS = ["en", "de", "ja", "sk"];
const STORE = "punct:lang";

let lang = "en";
let catalogue = {};
let fallback = {};

function stored() {
  try {
    return localStorage.getItem(STORE);
  } catch {
    return null;
  }
}

/** The language to show: ?lang=…, the one chosen here, the browser's, English. */
export function preferredLang() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGS.includes(asked)) return asked;
  const kept = stored();
  if (LANGS.includes(kept)) return kept;
  for (const l of navigator.languages || [navigator.language || ""]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

async function fetchCatalogue(l) {
  const res = await fetch(new URL(`i18n/${l}.json`, import.meta.url));
  if (!res.ok) throw new Error(`catalogue ${l}: HTTP ${res.status}`);
  return res.json();
}

/** Loads the catalogue of `l` (and English beside it); call before drawing any screen. */
export async function loadLang(l = preferredLang()) {
  lang = LANGS.includes(l) ? l : "en";
  fallback = await fetchCatalogue("en");
  catalogue = lang === "en" ? fallback : await fetchCatalogue(lang).catch(() => fallback);
  document.documentElement.lang = lang;
  return lang;
}

/** The language shown now. */
export function currentLang() {
  return lang;
}

/** Keeps `l` as this browser's language and shows the page in it. */
export function chooseLang(l) {
  if (!LANGS.includes(l)) return;
  try {
    localStorage.setItem(STORE, l);
  } catch {
    /* storage disabled: the choice lasts for this page only */
  }
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  location.replace(url.href);
}

/** Whether `key` is in the catalogue (or English). */
export function has(key) {
  return key in catalogue || key in fallback;
}

/** The text of `key` in the current language, with `params` filled in. */
export function t(key, params = {}) {
  let text = key in catalogue ? catalogue[key] : fallback[key];
  if (text == null) {
    console.warn(`i18n: no text for ${key}`);
    return key;
  }
  if (typeof text === "object") {
    const n = Number(params.count ?? 0);
    const form = new Intl.PluralRules(lang).select(n);
    text = text[form] ?? text.other ?? Object.values(text)[0];
  }
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** A number in the current language's way of writing it. */
export function num(n, options) {
  return new Intl.NumberFormat(lang, options).format(n);
}

/** A wait of `seconds` in this language: whole minutes from one minute on, else seconds. */
export function waitText(seconds) {
  const s = Math.max(1, Math.ceil(Number(seconds) || 0));
  return s >= 60
    ? num(Math.ceil(s / 60), { style: "unit", unit: "minute", unitDisplay: "long" })
    : num(s, { style: "unit", unit: "second", unitDisplay: "long" });
}

/**
 * A moment as a date (and time) in the current language's way of writing
 * it: `when` in ms since 1970 (or an ISO text); `options` as
 * Intl.DateTimeFormat's (default: the date, medium length).
 */
export function dateText(when, options = { dateStyle: "medium" }) {
  const d = new Date(typeof when === "string" && !/^\d+$/.test(when) ? when : Number(when));
  if (Number.isNaN(d.getTime())) return "";
  try {
    return new Intl.DateTimeFormat(lang, options).format(d);
  } catch {
    return d.toLocaleString();
  }
}

/**
 * Items as a list in the current language ("a, b and c", "a、b、c";
 * type "disjunction" for alternatives: "a, b or c").
 */
export function listOf(items, type = "conjunction") {
  return new Intl.ListFormat(lang, { type }).format(items.map(String));
}

/**
 * What an API error (api.js ApiError: code, message, params, reason) says
 * in the current language: for an illegal move the rule it breaks
 * (illegal.<reason>; another code with a reason, such as a record's
 * illegal move, puts that into error.<code>.illegal as {why}), else its
 * code's text (error.<code>), else the server's own English message. A
 * text that names a side has a form per side (<key>.white, <key>.black),
 * chosen by params.side; one that names a refused character (params.char,
 * its code point: a refused name's) has its own form, <key>.char.
 */
export function errorText(err) {
  if (!err) return "";
  const params = { ...(err.params || {}) };
  // A cooldown's time left, in words (playban).
  if (params.seconds != null) params.time = waitText(params.seconds);
  const text = (key, p) => {
    const sided = `${key}.${p.side}`;
    if (p.side && has(sided)) return t(sided, p);
    if (p.char && has(`${key}.char`)) return t(`${key}.char`, p);
    return has(key) ? t(key, p) : null;
  };
  const why = err.reason ? text(`illegal.${err.reason}`, params) : null;
  if (why != null) {
    if (err.code !== "illegal_move" && has(`error.${err.code}.illegal`)) {
      return t(`error.${err.code}.illegal`, { ...params, why });
    }
    return why;
  }
  return (err.code ? text(`error.${err.code}`, params) : null) ?? (err.message || String(err));
}
