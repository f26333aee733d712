// The page's entry point: loads the language's catalogue (i18n.js) and who
// is signed in (session.js), picks the screen from the address (`/` →
// start, `/game/{id}` → game, `/rules`, `/learn[/{lesson}]`,
// `/puzzles[/{id}]`, `/analysis`, `/editor`, `/signin`, `/signup`,
// `/account`, `/@/{name}`, `/leaderboard[/{category}]`) and navigates without reloading.
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
import { signInScreen } from "./signin.js";
import { accountScreen } from "./account.js";
import { profileScreen } from "./profile.js";
import { leaderboardScreen } from "./leaderboard.js";
import { analysisScreen } from "./analysisboard.js";
import { editorScreen } from "./editor.js";
import { notFoundScreen } from "./notfound.js";
import { gameMemory } from "./dom.js";
import { session } from "./session.js";
import { loadLang, t } from "./i18n.js";
import { countInTitle } from "./tabcount.js";
import { installable } from "./pwa.js";
import { staticSite } from "./api.js";

await Promise.all([loadLang(), session.load()]);
countInTitle();
installable();

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
  let game = location.pathname.match(/^\/game\/([A-Za-z0-9-]+)\/?$/);
  if (staticSite) {
    // A static copy of the site has a file for /game/ only: there a
    // game's address is /game/?id=… (so a reload finds it).
    const id = /^\/game\/?$/.test(location.pathname) && new URLSearchParams(location.search).get("id");
    if (game) history.replaceState(null, "", `/game/?id=${game[1]}`);
    else if (id && /^[A-Za-z0-9-]+$/.test(id)) game = [null, id];
  }
  if (game) {
    const id = game[1];
    const fragment = new URLSearchParams(location.hash.slice(1));
    const token = fragment.get("token") || new URLSearchParams(location.search).get("token");
    const invite = fragment.get("invite");
    if (token && !staticSite) {
      gameMemory.add(id, token);
      history.replaceState(null, "", `/game/${id}`);
    }
    routed = location.href;
    document.title = pageTitle(t("title.game", { id }));
    screen = gameScreen(root, id, { invite }, navigate);
    return;
  }
  const path = location.pathname.replace(/\/+$/, "") || "/";
  // A static host adds the slash of the directory it found the page in.
  if (staticSite && path !== location.pathname) history.replaceState(null, "", path + location.search + location.hash);
  routed = location.href;
  const lesson = path.match(/^\/learn\/([A-Za-z0-9_-]+)$/);
  const puzzle = path.match(/^\/puzzles\/([A-Za-z0-9_-]+)$/);
  const profile = path.match(/^\/@\/([^/]+)$/);
  const board = path.match(/^\/leaderboard\/([a-z]+)$/);
  if (path === "/rules") {
    document.title = pageTitle(t("title.rules"));
    screen = rulesScreen(root, navigate);
  } else if (path === "/learn" || lesson) {
    document.title = pageTitle(t("title.learn"));
    screen = tutorialScreen(root, navigate, lesson ? lesson[1] : null);
  } else if (path === "/puzzles" || puzzle) {
    document.title = pageTitle(t("title.puzzles"));
    screen = puzzlesScreen(root, navigate, puzzle ? puzzle[1] : null);
  } else if (path === "/analysis") {
    document.title = pageTitle(t("title.analysis"));
    screen = analysisScreen(root, navigate);
  } else if (path === "/editor") {
    document.title = pageTitle(t("title.editor"));
    screen = editorScreen(root, navigate);
  } else if (path === "/signin" || path === "/signup") {
    const signup = path === "/signup";
    document.title = pageTitle(t(signup ? "title.signup" : "title.signin"));
    screen = signInScreen(root, navigate, { signup, next: localNext() });
  } else if (path === "/account") {
    document.title = pageTitle(t("title.account"));
    screen = accountScreen(root, navigate);
  } else if (profile) {
    let name = profile[1];
    try {
      name = decodeURIComponent(name);
    } catch {
      /* not an encoded name: asked for as it is (and not found) */
    }
    document.title = pageTitle(t("title.profile", { name }));
    screen = profileScreen(root, navigate, name);
  } else if (path === "/leaderboard" || board) {
    document.title = pageTitle(t("title.leaderboard"));
    screen = leaderboardScreen(root, navigate, board ? board[1] : null);
  } else if (path === "/") {
    document.title = "PÜNCT";
    screen = startScreen(root, navigate);
  } else {
    document.title = pageTitle(t("notfound.title"));
    screen = notFoundScreen(root);
  }
}

/** A screen's title after the site's name, joined as the language joins them ("PÜNCT · Rules"). */
function pageTitle(text) {
  return `PÜNCT${t("title.separator")}${text}`;
}

/** Where to go after signing in: `?next=` when it is an address of this site, else null. */
function localNext() {
  const next = new URLSearchParams(location.search).get("next");
  return next && /^\/(?![/\\])/.test(next) ? next : null;
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
