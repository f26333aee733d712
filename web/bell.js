// The header's bell (signed in): the account's unread notifications
// counted on it as they come (notes.js), opening a list of them (unread
// first, newest first) where a click opens the game or the lobby's
// challenge and marks it read, and "mark all read".

import { api } from "./api.js";
import { svg } from "./board.js";
import { h } from "./dom.js";
import { t, errorText } from "./i18n.js";
import { countText, listen, setUnread } from "./notes.js";

/** Where a notification leads: the game, or the lobby (start screen) for a challenge. */
const hrefOf = (n) => (n.kind === "challenge" ? "/" : `/game/${encodeURIComponent(n.game)}`);

function bellIcon() {
  const icon = svg("svg", { class: "nav-icon bell-icon", viewBox: "0 0 16 16", "aria-hidden": "true", focusable: "false" });
  svg("path", { d: "M4 11V7a4 4 0 0 1 8 0v4l1.5 1.5h-11z" }, icon);
  svg("path", { d: "M6.5 14a1.5 1.5 0 0 0 3 0" }, icon);
  return icon;
}

/** The bell: an element that keeps its count up to date until detached. */
export function bell() {
  const count = h("span", { class: "bell-count", "data-testid": "bell-count", "aria-hidden": "true" });
  const label = h("span", { class: "sr-only" });
  const list = h("ul", { class: "bell-list", "data-testid": "bell-list" });
  const status = h("p", { class: "menu-status", role: "status" });
  const markAll = h("button", { type: "button", class: "small-button", "data-testid": "bell-read-all" }, t("notes.read_all"));
  const menu = h("details", { class: "account-menu bell-menu", "data-testid": "bell" },
    h("summary", { "data-testid": "bell-summary" }, bellIcon(), count, label),
    h("div", { class: "menu-panel" }, h("h2", { class: "bell-title" }, t("notes.title")), list, markAll, status));

  function show(n) {
    menu.dataset.count = String(n ?? 0);
    count.textContent = n ? countText(n) : "";
    count.hidden = !n;
    label.textContent = t("notes.label", { count: n ?? 0 });
    markAll.disabled = !n;
  }

  function line(n) {
    const link = h("a", { href: hrefOf(n), "data-nav": "", "data-testid": "bell-item", "data-kind": n.kind },
      t(`notes.${n.kind}`, { name: n.other || "?" }));
    if (!n.read) {
      link.classList.add("unread");
      link.addEventListener("click", () => {
        // Marked read on the way: the count falls here and on the account's other pages.
        api.readNotifications([n.id]).then((a) => setUnread(a.unread), () => {});
      });
    }
    return h("li", {}, link);
  }

  async function load() {
    status.textContent = "";
    try {
      const answer = await api.notifications();
      setUnread(answer.unread);
      const lines = (answer.notifications || []).map(line);
      list.replaceChildren(...(lines.length ? lines : [h("li", { class: "bell-empty" }, t("notes.empty"))]));
    } catch (e) {
      status.textContent = errorText(e);
    }
  }

  markAll.addEventListener("click", async () => {
    markAll.disabled = true;
    try {
      setUnread((await api.readNotifications(null)).unread);
      for (const a of list.querySelectorAll("a.unread")) a.classList.remove("unread");
    } catch (e) {
      status.textContent = errorText(e);
    }
  });
  menu.addEventListener("toggle", () => {
    if (menu.open) load();
  });

  show(0);
  const stop = listen((n, note) => {
    if (!menu.isConnected && menu.dataset.placed) return stop();
    show(n);
    // A new one while the list is open: shown at once.
    if (note && menu.open) load();
    return undefined;
  });
  requestAnimationFrame(() => {
    menu.dataset.placed = "1";
  });
  return menu;
}
