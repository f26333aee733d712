// A player's profile (`/@/{name}`): the name (marked when the account is
// a bot or deleted), since when they are a member, their rating in each
// category ("?" while provisional) with its history as a chart
// (ratingchart.js; a category picked among theirs), the games won, lost
// and drawn by colour and variant, the games they play now, and all
// their games, filtered and paged, each line opening its game.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t, num, dateText, errorText } from "./i18n.js";
import { siteNav } from "./nav.js";
import { session } from "./session.js";
import { playerGameLine } from "./lists.js";
import { RatingChart } from "./ratingchart.js";
import { CATEGORIES, categoryName, ratingText } from "./ratings.js";

/** Games per page of the list. */
const PAGE = 20;

/** The list's filters: [name, values] ("" first: any). */
const FILTERS = [
  ["status", ["", "ongoing", "over"]],
  ["side", ["", "white", "black"]],
  ["rated", ["", "true", "false"]],
  ["variant", ["", "standard", "basic"]],
  ["result", ["", "won", "lost", "drawn"]],
];

const variantName = (v) => (v === "standard" || v === "basic" ? t(`profile.variant.${v}`) : v);

export function profileScreen(root, navigate, name) {
  let closed = false;
  const aborts = new Set();
  /** A request that is dropped when the screen closes (or `slot`'s next request starts). */
  const slots = new Map();
  const ask = (slot, fn) => {
    slots.get(slot)?.abort();
    const ctrl = new AbortController();
    slots.set(slot, ctrl);
    aborts.add(ctrl);
    return fn(ctrl.signal).finally(() => aborts.delete(ctrl));
  };
  const page = h("div", { class: "profile-page", "data-testid": "profile", "data-status": "loading" });
  const mine = session.user && session.user.name === name;
  root.replaceChildren(siteNav(mine ? "profile" : null), page);
  page.append(h("p", { class: "small" }, t("profile.loading")));
  const chart = new RatingChart();

  async function load() {
    let user;
    try {
      user = await ask("user", (signal) => api.user(name, signal));
    } catch (e) {
      if (closed || e.name === "AbortError") return;
      page.dataset.status = e.code === "no_user" ? "missing" : "failed";
      page.replaceChildren(h("section", { class: "panel" },
        h("h1", {}, name),
        h("p", { class: "message", role: "alert", "data-testid": "profile-error" }, errorText(e))));
      return;
    }
    if (closed) return;
    draw(user);
    page.dataset.status = "ready";
  }

  /** Challenge (the start screen's lobby, set to challenge them) and block or unblock. */
  function playerActions(user) {
    const note = h("p", { class: "small", "data-testid": "profile-blocked", role: "status" });
    const blockButton = h("button", { type: "button", class: "small-button", "data-testid": "profile-block" });
    const challenge = h("a", { class: "button", "data-testid": "profile-challenge", "data-nav": "",
      href: `/?challenge=${encodeURIComponent(user.name)}` }, t("profile.challenge"));
    let blocked = false;
    const drawBlock = () => {
      blockButton.textContent = blocked ? t("profile.unblock") : t("profile.block");
      blockButton.setAttribute("aria-pressed", blocked ? "true" : "false");
      note.textContent = blocked ? t("profile.blocked", { name: user.name }) : "";
      challenge.hidden = blocked;
    };
    blockButton.addEventListener("click", async () => {
      blockButton.disabled = true;
      try {
        const answer = await (blocked ? api.unblock(user.name) : api.block(user.name));
        blocked = answer.blocked;
      } catch (e) {
        note.textContent = errorText(e);
        return;
      } finally {
        blockButton.disabled = false;
      }
      drawBlock();
    });
    ask("blocks", (signal) => api.blocks(signal)).then((answer) => {
      blocked = (answer.blocks || []).some((b) => b.name === user.name);
      drawBlock();
    }).catch(() => drawBlock());
    drawBlock();
    return h("div", { class: "profile-actions" }, h("p", {}, challenge, " ", blockButton), note);
  }

  function draw(user) {
    const badges = [];
    if (user.bot) badges.push(h("span", { class: "badge bot", "data-testid": "profile-bot" }, t("profile.bot")));
    if (user.deleted) badges.push(h("span", { class: "badge deleted", "data-testid": "profile-deleted" }, t("profile.deleted")));
    const facts = [t("profile.since", { date: dateText(user.created) })];
    if (user.seen) facts.push(t("profile.seen", { date: dateText(user.seen) }));
    const head = h("section", { class: "panel profile-head" },
      h("h1", { "data-testid": "profile-name" }, h("span", { class: "profile-name" }, user.name), badges),
      h("p", { class: "small", "data-testid": "profile-facts" }, facts.join(" · ")),
      mine ? h("p", {}, h("a", { href: "/account", "data-nav": "" }, t("profile.your_account"))) : null,
      !mine && session.user && !user.deleted && !user.bot ? playerActions(user) : null);
    page.replaceChildren(head,
      h("div", { class: "profile-main" },
        h("div", { class: "profile-col" }, ratingsSection(user.ratings || []), gamesSection()),
        h("div", { class: "profile-col" }, playingSection(user.playing || []), statsSection(user.stats || []))));
  }

  function ratingsSection(ratings) {
    const known = [...ratings].sort((a, b) => CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category));
    const section = h("section", { class: "panel profile-ratings", "aria-labelledby": "ratings-title", "data-testid": "profile-ratings" },
      h("h2", { id: "ratings-title" }, t("profile.ratings.title")));
    if (!known.length) {
      section.append(h("p", { class: "small", "data-testid": "ratings-empty" }, t("profile.ratings.none")));
      return section;
    }
    const several = known.length > 1;
    const cards = known.map((r) => {
      const body = [
        h("span", { class: "rating-category" }, categoryName(r.category)),
        h("span", { class: "rating-value", "data-testid": `rating-${r.category}` }, ratingText(r.rating, r.provisional)),
        h("span", { class: "rating-games small" }, t("profile.ratings.games", { count: r.games ?? 0 })),
      ];
      const attrs = { class: "rating-card", "data-category": r.category };
      return several
        ? h("button", { ...attrs, type: "button", "aria-pressed": "false", onclick: () => pick(r.category) }, body)
        : h("div", attrs, body);
    });
    const group = h("div", { class: "rating-cards", role: several ? "group" : null, "aria-label": several ? t("profile.ratings.pick") : null }, cards);
    section.append(group);
    if (known.some((r) => r.provisional)) section.append(h("p", { class: "small" }, t("profile.ratings.provisional")));
    section.append(chart.el);
    const history = new Map();
    async function pick(category) {
      for (const c of cards) if (c.tagName === "BUTTON") c.setAttribute("aria-pressed", String(c.dataset.category === category));
      chart.svg.dataset.status = "loading";
      let points = history.get(category);
      if (!points) {
        try {
          ({ points } = await ask("history", (signal) => api.ratingHistory(name, category, signal)));
        } catch (e) {
          if (closed || e.name === "AbortError") return;
          chart.caption.textContent = errorText(e);
          chart.svg.dataset.status = "failed";
          return;
        }
        if (closed) return;
        history.set(category, points);
      }
      chart.show(category, points);
      chart.svg.dataset.status = "ready";
    }
    // The category played last first.
    const latest = [...known].sort((a, b) => (b.updated || 0) - (a.updated || 0))[0];
    pick(latest.category);
    return section;
  }

  function statsSection(stats) {
    const section = h("section", { class: "panel profile-stats", "aria-labelledby": "stats-title" },
      h("h2", { id: "stats-title" }, t("profile.stats.title")));
    if (!stats.length) {
      section.append(h("p", { class: "small" }, t("profile.stats.none")));
      return section;
    }
    // A group of rows per variant (its name above them), a row per colour.
    const variants = [...new Set(stats.map((r) => r.variant))]
      .sort((a, b) => (a === b ? 0 : a === "standard" ? -1 : b === "standard" ? 1 : a < b ? -1 : 1));
    const total = stats.reduce((s, r) => ({ won: s.won + (r.won || 0), lost: s.lost + (r.lost || 0), drawn: s.drawn + (r.drawn || 0) }),
      { won: 0, lost: 0, drawn: 0 });
    const cells = (r) => [h("td", {}, num(r.won || 0)), h("td", {}, num(r.lost || 0)), h("td", {}, num(r.drawn || 0))];
    section.append(h("div", { class: "table-scroll" },
      h("table", { class: "data-table stats-table", "data-testid": "profile-stats", "aria-labelledby": "stats-title" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, t("profile.stats.colour")),
          h("th", { scope: "col" }, t("profile.stats.won")),
          h("th", { scope: "col" }, t("profile.stats.lost")),
          h("th", { scope: "col" }, t("profile.stats.drawn")))),
        variants.map((v) => h("tbody", { "data-variant": v },
          h("tr", { class: "group" }, h("th", { scope: "colgroup", colspan: "4" }, variantName(v))),
          ["white", "black"].map((side) => stats.find((r) => r.variant === v && r.side === side)).filter(Boolean)
            .map((r) => h("tr", { "data-side": r.side },
              h("th", { scope: "row" }, h("span", { class: `swatch ${r.side}`, "aria-hidden": "true" }), t(`side.${r.side}`)),
              cells(r))))),
        h("tfoot", {}, h("tr", {},
          h("th", { scope: "row" }, t("profile.stats.total")),
          cells(total))))));
    return section;
  }

  function playingSection(playing) {
    return h("section", { class: "panel lists-panel", "aria-labelledby": "playing-title", "data-testid": "profile-playing" },
      h("h2", { id: "playing-title" }, t("profile.playing.title")),
      h("ul", { class: "game-list" }, playing.length
        ? playing.map((g) => playerGameLine(g, name))
        : h("li", { class: "small empty" }, t("profile.playing.none"))));
  }

  function gamesSection() {
    const chosen = Object.fromEntries(FILTERS.map(([k]) => [k, ""]));
    let offset = 0;
    const list = h("ul", { class: "game-list", "data-testid": "profile-games", "aria-busy": "true" });
    const range = h("p", { class: "small", "data-testid": "games-range", "aria-live": "polite" });
    const prev = h("button", { type: "button", "data-testid": "games-prev", disabled: true }, t("profile.games.prev"));
    const next = h("button", { type: "button", "data-testid": "games-next", disabled: true }, t("profile.games.next"));
    const selects = FILTERS.map(([key, values]) => {
      const select = h("select", { "data-testid": `filter-${key}` },
        values.map((v) => h("option", { value: v }, t(`profile.filter.${key}.${v || "all"}`))));
      select.addEventListener("change", () => {
        chosen[key] = select.value;
        offset = 0;
        loadGames();
      });
      return h("label", {}, t(`profile.filter.${key}`), select);
    });
    prev.addEventListener("click", () => {
      offset = Math.max(0, offset - PAGE);
      loadGames(prev);
    });
    next.addEventListener("click", () => {
      offset += PAGE;
      loadGames(next);
    });

    /** Loads the page at `offset`; `from`: the pager button clicked (keeps the focus on the pager). */
    async function loadGames(from = null) {
      list.setAttribute("aria-busy", "true");
      prev.disabled = next.disabled = true;
      let answer;
      try {
        answer = await ask("games", (signal) => api.userGames(name, { ...chosen, offset, limit: PAGE }, signal));
      } catch (e) {
        if (closed || e.name === "AbortError") return;
        list.replaceChildren(h("li", { class: "small empty" }, errorText(e)));
        list.removeAttribute("aria-busy");
        prev.disabled = offset === 0;
        return;
      }
      if (closed) return;
      const games = answer.games || [];
      const at = answer.offset ?? offset;
      offset = at;
      list.replaceChildren(...(games.length
        ? games.map((g) => playerGameLine(g, name))
        : [h("li", { class: "small empty", "data-testid": "games-empty" }, t("profile.games.none"))]));
      list.removeAttribute("aria-busy");
      list.dataset.offset = String(at);
      list.dataset.more = String(!!answer.more);
      range.textContent = games.length ? t("profile.games.range", { from: num(at + 1), to: num(at + games.length) }) : "";
      prev.disabled = at === 0;
      next.disabled = !answer.more;
      // A pager button that turned disabled would drop the focus: the other one takes it.
      if (from && from.disabled) (from === next ? prev : next).focus();
    }
    loadGames();
    return h("section", { class: "panel lists-panel profile-games", "aria-labelledby": "games-title" },
      h("h2", { id: "games-title" }, t("profile.games.title")),
      h("div", { class: "filters" }, selects),
      list,
      h("div", { class: "row pager" }, prev, range, next));
  }

  load();
  return {
    destroy() {
      closed = true;
      chart.destroy();
      for (const a of aborts) a.abort();
    },
  };
}
