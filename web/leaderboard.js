// The leaderboard (`/leaderboard[/{category}]`): a tab per rating
// category (links, so each table has its address) and the category's
// table: rank, player (a link to the profile, bots marked), rating and
// the number of rated games.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t, num, errorText } from "./i18n.js";
import { siteNav, profileHref } from "./nav.js";
import { CATEGORIES, categoryName, ratingText } from "./ratings.js";

/** The category shown at `/leaderboard`. */
const DEFAULT = "blitz";

export function leaderboardScreen(root, navigate, asked = null) {
  let closed = false;
  const ctrl = new AbortController();
  const category = CATEGORIES.includes(asked) ? asked : DEFAULT;
  const tabs = h("nav", { class: "tabs", "aria-label": t("leaderboard.categories"), "data-testid": "leaderboard-tabs" },
    CATEGORIES.map((c) => h("a", {
      href: `/leaderboard/${c}`, "data-nav": "", class: "tab", "data-testid": `leaderboard-tab-${c}`,
      "aria-current": c === category ? "page" : null,
    }, categoryName(c))));
  const body = h("div", { class: "leaderboard-body", "data-testid": "leaderboard-body", "aria-busy": "true" },
    h("p", { class: "small" }, t("leaderboard.loading")));
  const page = h("div", { class: "leaderboard-page", "data-testid": "leaderboard", "data-category": category, "data-status": "loading" },
    h("h1", {}, t("leaderboard.title")),
    h("p", { class: "small" }, t("leaderboard.about")),
    tabs,
    h("section", { class: "panel", "aria-labelledby": "leaderboard-table-title" },
      h("h2", { id: "leaderboard-table-title" }, t("leaderboard.table_title", { category: categoryName(category) })),
      body));
  root.replaceChildren(siteNav("leaderboard"), page);
  if (asked && asked !== category) {
    body.replaceChildren(h("p", { class: "message", role: "alert" }, t("leaderboard.no_category", { category: asked })));
  }

  async function load() {
    let answer;
    try {
      answer = await api.leaderboard(category, ctrl.signal);
    } catch (e) {
      if (closed || e.name === "AbortError") return;
      page.dataset.status = "failed";
      body.removeAttribute("aria-busy");
      body.replaceChildren(h("p", { class: "message", role: "alert" }, errorText(e)));
      return;
    }
    if (closed) return;
    const players = answer.players || [];
    body.removeAttribute("aria-busy");
    page.dataset.status = players.length ? "ready" : "empty";
    if (!players.length) {
      body.replaceChildren(h("p", { class: "empty-state", "data-testid": "leaderboard-empty" }, t("leaderboard.empty", { category: categoryName(category) })));
      return;
    }
    body.replaceChildren(h("div", { class: "table-scroll" },
      h("table", { class: "data-table leaderboard-table", "data-testid": "leaderboard-table", "aria-labelledby": "leaderboard-table-title" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col", class: "num" }, t("leaderboard.rank")),
          h("th", { scope: "col" }, t("leaderboard.player")),
          h("th", { scope: "col", class: "num" }, t("leaderboard.rating")),
          h("th", { scope: "col", class: "num" }, t("leaderboard.games")))),
        h("tbody", {}, players.map((p, i) => h("tr", { "data-player": p.name },
          h("td", { class: "num" }, num(i + 1)),
          h("th", { scope: "row" },
            h("a", { href: profileHref(p.name), "data-nav": "" }, p.name),
            p.bot ? [" ", h("span", { class: "badge bot" }, t("profile.bot"))] : null),
          h("td", { class: "num" }, ratingText(p.rating, p.provisional)),
          h("td", { class: "num" }, num(p.games ?? 0))))))));
  }
  if (!asked || asked === category) load();

  return {
    destroy() {
      closed = true;
      ctrl.abort();
    },
  };
}
