// The page's entry point: loads the language's catalogue (i18n.js), picks
// the screen from the address (`/` → start, `/game/{id}` → game, `/rules`,
// `/learn[/{lesson}]`, `/puzzles[/{id}]`) and navigates without reloading.
//
// A seat's link carries its token in the fragment (`/game/{id}#token=…`;
// older links `?token=…`), an invite its code (`#invite=…`). The token is
// moved into this browser's storage (gameMemory) and out of the address at
// once, so it stays out of the history, bookmarks and screenshots; the
// invite is claimed by the game screen, which then clears the address.

import { startScreen } from "./start.js";
import { gameScreen } from "./game.js";
import { rulesScreen } from "./rules.js";
import { tutorialScreen } from "./tutorial.js";
import { puzzlesScreen } from "./puzzles.js";
import { gameMemory } from "./dom.js";
import { loadLang, t } from "./i18n.js";

await loadLang();

const root = document.getElementById("app");
let screen = null;
let routed = null; // the address last routed (to route each change once)

function navigate(url) {
  history.pushState(null, "", url);
  route();
}

function route() {
  if (location.href === routed) return;
  if (screen) screen.destroy();
  window.scrollTo(0, 0);
  const game = location.pathname.match(/^\/game\/([A-Za-z0-9]+)\/?$/);
  if (game) {
    const id = game[1];
    const fragment = new URLSearchParams(location.hash.slice(1));
    const token = fragment.get("token") || new URLSearchParams(location.search).get("token");
    const invite = fragment.get("invite");
    if (token) {
      gameMemory.add(id, token);
      history.replaceState(null, "", `/game/${id}`);
    }
    routed = location.href;
    document.title = `PÜNCT · ${t("title.game", { id })}`;
    screen = gameScreen(root, id, { invite }, navigate);
    return;
  }
  routed = location.href;
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const lesson = path.match(/^\/learn\/([A-Za-z0-9_-]+)$/);
  const puzzle = path.match(/^\/puzzles\/([A-Za-z0-9_-]+)$/);
  if (path === "/rules") {
    document.title = `PÜNCT · ${t("title.rules")}`;
    screen = rulesScreen(root, navigate);
  } else if (path === "/learn" || lesson) {
    document.title = `PÜNCT · ${t("title.learn")}`;
    screen = tutorialScreen(root, navigate, lesson ? lesson[1] : null);
  } else if (path === "/puzzles" || puzzle) {
    document.title = `PÜNCT · ${t("title.puzzles")}`;
    screen = puzzlesScreen(root, navigate, puzzle ? puzzle[1] : null);
  } else {
    document.title = "PÜNCT";
    screen = startScreen(root, navigate);
  }
}

// Links marked data-nav change the screen without reloading the page.
document.addEventListener("click", (e) => {
  const a = e.target.closest && e.target.closest("a[data-nav]");
  if (!a || e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.getAttribute("href"));
});
// A link pasted into this tab may differ only in its fragment: no reload.
window.addEventListener("popstate", route);
window.addEventListener("hashchange", route);
route();
