// The page's languages as the tests see them: the catalogues the server
// serves (/static/i18n/<lang>.json), t() as the page's i18n.js computes
// it, and two checks on what a screen shows — no catalogue key in place of
// its text, and (in a language other than English) no English catalogue
// text that the language has its own text for (an untranslated string
// hard-coded in the page, or a text taken from the wrong catalogue).

export const LANGS = ['en', 'de', 'ja', 'sk'];

/** Every language's catalogue, as served: {en: {key: text}, de: …}. */
export async function loadCatalogues(url) {
  const out = {};
  for (const l of LANGS) {
    const res = await fetch(`${url}/static/i18n/${l}.json`, { signal: AbortSignal.timeout(15000) });
    if (!res.ok) throw new Error(`catalogue ${l}: HTTP ${res.status}`);
    out[l] = await res.json();
  }
  return out;
}

/** The text of `key` in `lang` (English as the fallback), as i18n.js t() makes it. */
export function tr(cats, lang, key, params = {}) {
  let text = key in cats[lang] ? cats[lang][key] : cats.en[key];
  if (text == null) throw new Error(`no text for ${key} in ${lang} or English`);
  if (typeof text === 'object') {
    const form = new Intl.PluralRules(lang).select(Number(params.count ?? 0));
    text = text[form] ?? text.other ?? Object.values(text)[0];
  }
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A text with {placeholders} as a RegExp source matching any filling (anchored by the caller). */
export function patternOf(text) {
  return text.split(/\{\w+\}/).map(escape).join('[^]+?');
}

/**
 * Whether `shown` is `key`'s text in `lang`, whatever its placeholders
 * hold (any plural form); with `prefix`, whether it starts with that text.
 */
export function isText(cats, lang, key, shown, { prefix = false } = {}) {
  const v = key in cats[lang] ? cats[lang][key] : cats.en[key];
  if (v == null) throw new Error(`no text for ${key} in ${lang} or English`);
  const forms = typeof v === 'object' ? Object.values(v) : [v];
  return forms.some((f) => new RegExp(`^${patternOf(f)}${prefix ? '' : '$'}`).test(shown.trim()));
}

const forms = (v) => (typeof v === 'object' && v ? Object.values(v) : [v]);
/** A text's letters outside its placeholders. */
const literal = (s) => s.replace(/\{\w+\}/g, ' ');

/**
 * The English texts that must not show in `lang`: each English form whose
 * key has another text in `lang`, with a word of three letters or more
 * outside its placeholders (names, notation and numbers are no words),
 * and that is not also one of `lang`'s own texts (a word both languages
 * share). Answers [{key, text, re}].
 */
export function englishOnly(cats, lang) {
  if (lang === 'en') return [];
  const own = new Set(Object.values(cats[lang]).flatMap(forms).map((s) => literal(s).trim()));
  const out = [];
  for (const [key, v] of Object.entries(cats.en)) {
    if (JSON.stringify(v) === JSON.stringify(cats[lang][key])) continue;
    for (const text of forms(v)) {
      const words = literal(text).match(/[A-Za-z]{3,}/g) || [];
      if (!words.some((w) => w !== 'PÜNCT' && w !== 'NCT')) continue;
      if (own.has(literal(text).trim())) continue;
      out.push({ key, text, re: new RegExp(`^${patternOf(text)}$`) });
    }
  }
  return out;
}

/**
 * What the screen says, as a reader meets it: every text node of an
 * element that is rendered (screen-reader-only text included, `hidden`
 * and display: none left out) and the aria-label, title, placeholder and
 * alt of rendered elements. Each {text, where, lang}: `lang` is the
 * element's language (its own or an ancestor's lang attribute), so that
 * text marked as another language's (the language select's names) is
 * told apart.
 */
export function shownTexts(page) {
  return page.evaluate(() => {
    const out = [];
    const rendered = (el) => {
      if (el.closest('option')) el = el.closest('select') || el;
      return el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : !!el.getClientRects().length;
    };
    const where = (el) => {
      const parts = [];
      for (let e = el; e && e !== document.body && parts.length < 3; e = e.parentElement) {
        parts.unshift(e.dataset?.testid ? `[${e.dataset.testid}]` : e.tagName.toLowerCase());
      }
      return parts.join(' > ');
    };
    const langOf = (el) => el.closest('[lang]')?.lang || '';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.replace(/\s+/g, ' ').trim();
      if (!text || !n.parentElement || ['SCRIPT', 'STYLE'].includes(n.parentElement.tagName)) continue;
      if (rendered(n.parentElement)) out.push({ text, where: where(n.parentElement), lang: langOf(n.parentElement) });
    }
    for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (!rendered(el)) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
        const v = el.getAttribute(a);
        if (v && v.trim()) out.push({ text: v.replace(/\s+/g, ' ').trim(), where: `${where(el)} @${a}`, lang: langOf(el) });
      }
    }
    out.push({ text: document.title, where: 'document.title', lang: document.documentElement.lang });
    return out;
  });
}

// A text node may carry a symbol around its words ("← Previous", "⟳ Turn", "✓ Solved").
const core = (s) => s.replace(/^[^\p{L}\p{N}]+/u, '').replace(/[\s←→⟳✓·]+$/u, '').trim();

/** English texts on the screen in `lang` (see englishOnly): [{text, key, where}]. */
export async function englishLeftovers(page, cats, lang, texts = null) {
  const english = englishOnly(cats, lang);
  if (!english.length) return [];
  const found = [];
  for (const { text, where, lang: marked } of texts || await shownTexts(page)) {
    if (marked && marked !== lang) continue; // marked as another language's text
    for (const s of new Set([text, core(text)])) {
      const hit = english.find((e) => e.re.test(s));
      if (hit) {
        found.push({ text, key: hit.key, where });
        break;
      }
    }
  }
  return found;
}

/** Catalogue keys shown instead of their texts (a text missing from every catalogue). */
export async function rawKeys(page, cats, texts = null) {
  const keys = new Set(Object.keys(cats.en));
  const prefixes = [...new Set([...keys].map((k) => k.split('.')[0]))].join('|');
  const re = new RegExp(`\\b(?:${prefixes})\\.[A-Za-z_]+(?:\\.[A-Za-z_]+)*`, 'g');
  const out = [];
  for (const { text, where } of texts || await shownTexts(page)) {
    for (const m of text.match(re) || []) out.push(`${m} (${where})`);
  }
  return out;
}

const WORD = /[A-Za-z\u00C0-\u024F]{4,}/g;
/** The words (four letters or more, Latin script) of a catalogue's texts, placeholders left out. */
function vocabulary(cat) {
  const out = new Set();
  for (const v of Object.values(cat)) for (const f of forms(v)) for (const w of literal(f).match(WORD) || []) out.add(w.toLowerCase());
  return out;
}

/**
 * English words on the screen in `lang` that none of `lang`'s texts uses:
 * the trace of a text that is in no catalogue (hard-coded in the page, or
 * the server's English message shown as it is). A word counts when the
 * English catalogue uses it (in Japanese: any word in Latin letters), so
 * names and notation do not. Answers [{word, text, where}].
 */
export async function foreignWords(page, cats, lang, texts = null) {
  if (lang === 'en') return [];
  const own = vocabulary(cats[lang]);
  const english = vocabulary(cats.en);
  const found = [];
  for (const { text, where, lang: marked } of texts || await shownTexts(page)) {
    if (marked && marked !== lang) continue; // marked as another language's text
    for (const w of text.match(WORD) || []) {
      const lw = w.toLowerCase();
      if (own.has(lw) || (lang !== 'ja' && !english.has(lw))) continue;
      found.push({ word: w, text, where });
      break;
    }
  }
  return found;
}
