// The page's entry point: picks the screen from the address (`/` → start,
// `/game/{id}?token=…` → game) and navigates without reloading.

import { startScreen } from "./start.js";
import { gameScreen } from "./game.js";

const root = document.getElementById("app");
let screen = null;

function navigate(url) {
  history.pushState(null, "", url);
  route();
}

function route() {
  if (screen) screen.destroy();
  window.scrollTo(0, 0);
  const game = location.pathname.match(/^\/game\/([A-Za-z0-9]+)\/?$/);
  if (game) {
    // The token stays in the address, so a reload keeps the seat.
    const token = new URLSearchParams(location.search).get("token");
    document.title = `PÜNCT · game ${game[1]}`;
    screen = gameScreen(root, game[1], token, navigate);
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
window.addEventListener("popstate", route);
route();
