// "Your turn in N games" in the header (signed in): the account's ongoing
// games where it is their move (`GET /api/account/turns`), asked when the
// header is drawn and again every half minute while it is shown (and when
// the tab comes back into view, or a notification of a game comes over
// the account's socket, notes.js), opening a list of those games. Nothing
// is shown while it is nobody's turn but the opponents'.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { playerGameLine } from "./lists.js";
import { session } from "./session.js";
import { listen } from "./notes.js";

const EVERY_MS = 30000;

/** The badge for signed-in `user` ({name}): an element that keeps itself up to date until detached. */
export function turnsBadge(user) {
  // The words, and on a narrow header a short form ("1 to play") shown in
  // their place: the words stay the menu's name for screen readers.
  const count = h("span", { class: "turns-count" });
  const short = h("span", { class: "turns-short", "aria-hidden": "true" });
  const list = h("ul", { class: "game-list turns-list", "data-testid": "turns-list" });
  const menu = h("details", { class: "account-menu turns-menu", "data-testid": "turns", hidden: true },
    h("summary", { "data-testid": "turns-summary" }, count, short),
    h("div", { class: "menu-panel" }, list));
  let timer = null;
  let busy = false;

  // The first ask comes as the header is drawn, before it is placed; every
  // later one only while it is in the page and the account still signed in
  // (a header replaced or signed out asks nothing more).
  async function refresh(first = false) {
    if ((!first && !menu.isConnected) || session.user?.name !== user.name) return stop();
    if (busy || document.hidden) return undefined;
    busy = true;
    try {
      const answer = await api.turns();
      const n = answer.count || 0;
      menu.hidden = n === 0;
      menu.dataset.count = String(n);
      count.textContent = t("nav.turns", { count: n });
      short.textContent = t("nav.turns_short", { count: n });
      list.replaceChildren(...(answer.games || []).map((g) => playerGameLine(g, user.name)));
    } catch (e) {
      // The session ended elsewhere: the header says so. Otherwise (the
      // server away) the badge waits for the next try.
      if (e.code === "not_signed_in") {
        stop();
        session.set(null);
      }
    } finally {
      busy = false;
    }
    return undefined;
  }

  function stop() {
    clearInterval(timer);
    unlisten();
    document.removeEventListener("visibilitychange", onVisible);
  }
  function onVisible() {
    if (!document.hidden) refresh();
  }

  timer = setInterval(() => refresh(), EVERY_MS);
  // A move in a correspondence game (or a game's end) is news at once.
  const unlisten = listen((n, note) => {
    if (note && note.kind !== "challenge") refresh();
  });
  document.addEventListener("visibilitychange", onVisible);
  refresh(true);
  return menu;
}
