// The site's header on every screen: the name (home), Play, Rules, Learn
// and Puzzles, and the language switcher.

import { h } from "./dom.js";
import { LANGS, currentLang, chooseLang, t } from "./i18n.js";

// Each language is offered in its own name (the same in every catalogue),
// so a reader finds theirs whatever the page shows now.
const AUTONYMS = { en: "English", de: "Deutsch", ja: "日本語", sk: "Slovenčina" };

/** The language select (a labelled <select>; choosing reloads the page in it). */
export function langSwitcher() {
  const select = h("select", { "data-testid": "lang", "aria-label": t("nav.language") },
    ...LANGS.map((l) => h("option", { value: l, lang: l }, AUTONYMS[l])));
  select.value = currentLang();
  select.addEventListener("change", () => chooseLang(select.value));
  return select;
}

/**
 * The header: `here` is the screen's own link ("play", "rules", "learn",
 * "puzzles") marked as the current page. Links change the screen without
 * a reload (app.js, data-nav).
 */
export function siteNav(here = null) {
  const link = (id, href) =>
    h("a", { href, "data-nav": "", "data-testid": `nav-${id}`, "aria-current": id === here ? "page" : null },
      t(`nav.${id}`));
  return h("header", { class: "site-nav" },
    h("a", { href: "/", "data-nav": "", class: "site-name" }, "PÜNCT"),
    h("nav", { "aria-label": t("nav.label") },
      link("play", "/"), link("rules", "/rules"), link("learn", "/learn"), link("puzzles", "/puzzles")),
    langSwitcher());
}
