// The game screen's frame: a top bar (home, status line, tools), the
// board in the space it has, each side's bar (reserve, central count,
// clock) above and below the controls, and a column of panels. Wide
// screens put the board on the left at the full height of the window and
// the bars, controls and panels beside it; narrow ones stack them: the
// opponent's bar, the board, one's own bar, the controls, then the panels
// (style.css places the parts by these classes). Also the board's flip,
// remembered in this browser.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { svg } from "./board.js";

const FLIP_KEY = "punct:flip";

/**
 * p: {home (the site's header, nav.js), status, tools: [elements], toast, board (svg), boardExtras:
 * [elements over the board], barTop, barBottom (slots), controls: [rows],
 * side: [panels]}
 */
export function gameLayout(p) {
  const wrap = h("div", { class: "board-wrap" }, p.board);
  return h("div", { class: "game", "data-testid": "game" },
    h("header", { class: "topbar" }, p.home, p.status, h("div", { class: "tools" }, p.tools)),
    p.toast,
    h("div", { class: "game-layout" },
      h("section", { class: "board-area", "data-testid": "board-area" }, wrap, zoomToggle(wrap), p.boardExtras),
      p.barTop,
      p.barBottom,
      h("div", { class: "controls-box", "data-testid": "controls" }, p.controls),
      h("aside", { class: "side-column" }, p.side)));
}

/**
 * On a small screen (style.css shows it there only) a button that draws
 * the board twice as large in its own scrolling box, the centre in view:
 * a phone's cells are about 20 px, too small for stacks' heights.
 */
function zoomToggle(wrap) {
  const glass = (zoomed) => {
    const icon = svg("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", class: "zoom-icon" });
    svg("circle", { cx: 10, cy: 10, r: 6.5 }, icon);
    for (const d of ["M15 15l6 6", "M7 10h6", zoomed ? null : "M10 7v6"]) if (d) svg("path", { d }, icon);
    return icon;
  };
  const button = h("button", { type: "button", class: "zoom-toggle", "data-testid": "zoom-board", "aria-pressed": "false" });
  const show = (zoomed) => {
    wrap.classList.toggle("zoomed", zoomed);
    button.setAttribute("aria-pressed", String(zoomed));
    const label = t(zoomed ? "game.zoom_out" : "game.zoom_in");
    button.setAttribute("aria-label", label);
    button.title = label;
    button.replaceChildren(glass(zoomed));
    if (zoomed) {
      wrap.scrollLeft = (wrap.scrollWidth - wrap.clientWidth) / 2;
      wrap.scrollTop = (wrap.scrollHeight - wrap.clientHeight) / 2;
    }
  };
  button.addEventListener("click", () => show(!wrap.classList.contains("zoomed")));
  show(false);
  return button;
}

/**
 * The rows under a move chooser's board (game and analysis board alike):
 * the turn control with the selection and pass, the touch confirmation,
 * a warning line, and the typed move.
 */
export function moveControls({ turn, selInfo, passBtn, confirm, warning, moveInput }) {
  return [
    h("div", { class: "controls" }, turn.button, turn.box, selInfo, passBtn),
    confirm, warning,
    h("div", { class: "controls" }, moveInput)];
}

/** Whether the board was last flipped in this browser. */
export function storedFlip() {
  try {
    return localStorage.getItem(FLIP_KEY) === "1";
  } catch {
    return false;
  }
}

export function storeFlip(flipped) {
  try {
    localStorage.setItem(FLIP_KEY, flipped ? "1" : "0");
  } catch {
    /* storage disabled: this page remembers */
  }
}
