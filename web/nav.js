// The site's header on every screen: the name (home), Play, Rules, Learn,
// Puzzles and Leaderboard, the language switcher, and the account: a
// "Sign in" link, or the signed-in user's name opening a small menu
// (profile, account, sign out), and beside it the notifications' bell
// (bell.js) and "your turn in N games" (turns.js). The account part follows session.js, so signing in or out
// anywhere changes it on the screen shown.

import { h } from "./dom.js";
import { svg } from "./board.js";
import { api, staticSite } from "./api.js";
import { session } from "./session.js";
import { LANGS, currentLang, chooseLang, t, errorText } from "./i18n.js";
import { turnsBadge } from "./turns.js";
import { bell } from "./bell.js";

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

/** The address of a player's profile. */
export const profileHref = (name) => `/@/${encodeURIComponent(name)}`;

/** Where "Sign in" comes back to: this screen, unless it is an account screen itself. */
function signInHref() {
  const here = location.pathname;
  if (here === "/" || /^\/(signin|signup)\/?$/.test(here)) return "/signin";
  return `/signin?next=${encodeURIComponent(here + location.search)}`;
}

// One open menu at a time: a click elsewhere or Escape closes it.
document.addEventListener("click", (e) => {
  for (const menu of document.querySelectorAll("details.account-menu[open]")) {
    if (!menu.contains(e.target)) menu.open = false;
  }
});
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape") return;
  const menu = e.target.closest && e.target.closest("details.account-menu[open]");
  if (!menu) return;
  menu.open = false;
  menu.querySelector("summary").focus();
});

/** The account part of the header for `user` (null: signed out). */
function accountPart(user, here) {
  if (!user) {
    // A person's outline stands for the words where space is short (the game's top bar on a phone).
    const icon = svg("svg", { class: "nav-icon", viewBox: "0 0 16 16", "aria-hidden": "true", focusable: "false" });
    svg("circle", { cx: 8, cy: 5, r: 3 }, icon);
    svg("path", { d: "M2.5 15c0-3.2 2.5-5.5 5.5-5.5s5.5 2.3 5.5 5.5" }, icon);
    return h("a", {
      href: signInHref(), "data-nav": "", class: "nav-signin", "data-testid": "nav-signin",
      "aria-current": here === "signin" ? "page" : null,
    }, icon, h("span", { class: "nav-signin-text" }, t("nav.signin")));
  }
  const status = h("p", { class: "menu-status", role: "status" });
  const signOut = h("button", { type: "button", "data-testid": "nav-signout" }, t("account.signout"));
  signOut.addEventListener("click", async () => {
    signOut.disabled = true;
    try {
      await api.signOut();
      session.set(null);
    } catch (e) {
      // A session that ended meanwhile (elsewhere, or expired): signed out all the same.
      if (e.code === "not_signed_in") {
        session.set(null);
        return;
      }
      status.textContent = errorText(e);
      signOut.disabled = false;
    }
  });
  return h("details", { class: "account-menu", "data-testid": "account-menu" },
    h("summary", { "data-testid": "nav-user", "data-user": user.name },
      h("span", { class: "sr-only" }, `${t("nav.account_menu")} `), h("span", { class: "nav-user-name" }, user.name)),
    h("div", { class: "menu-panel" },
      h("a", { href: profileHref(user.name), "data-nav": "", "data-testid": "nav-profile", "aria-current": here === "profile" ? "page" : null },
        t("nav.profile")),
      h("a", { href: "/account", "data-nav": "", "data-testid": "nav-account", "aria-current": here === "account" ? "page" : null },
        t("nav.account")),
      signOut, status));
}

/**
 * The header: `here` is the screen's own link ("play", "rules", "learn",
 * "puzzles", "leaderboard"; "signin", "account" and "profile" (one's own)
 * for the account part)
 * marked as the current page. Links change the screen without a reload
 * (app.js, data-nav).
 */
export function siteNav(here = null) {
  const link = (id, href) =>
    h("a", { href, "data-nav": "", "data-testid": `nav-${id}`, "aria-current": id === here ? "page" : null },
      t(`nav.${id}`));
  const parts = (user) => [user ? bell() : null, user ? turnsBadge(user) : null, accountPart(user, here)].filter(Boolean);
  const account = h("div", { class: "nav-account" }, ...parts(session.user));
  const header = h("header", { class: "site-nav" },
    h("a", { href: "/", "data-nav": "", class: "site-name" }, "PÜNCT"),
    h("nav", { "aria-label": t("nav.label") },
      link("play", "/"), link("rules", "/rules"), link("learn", "/learn"), link("puzzles", "/puzzles"),
      staticSite ? null : link("leaderboard", "/leaderboard")),
    langSwitcher(),
    // A static copy of the site has no accounts.
    staticSite ? null : account);
  session.onChange((user) => {
    if (!header.isConnected) return false; // this screen is gone
    const hadFocus = account.contains(document.activeElement);
    account.replaceChildren(...parts(user));
    if (hadFocus) account.querySelector("a, summary")?.focus();
    return true;
  });
  return header;
}
