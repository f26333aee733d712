// Playing on a board (board.js) with the keyboard. The board is one tab
// stop; on it a cursor walks over the cells with the arrow keys, and Enter
// or Space does what a click on the cursor's cell does. Each step says
// what is on the cell (announce.js), so the board reads without sight.
//
// Usage, on any screen that draws a Board:
//
//   import { attachKeyboard, pieceKeys } from "./kbd.js";
//   const kbd = attachKeyboard(board, {
//     onActivate: (cell) => clickCell(cell), // Enter / Space: what a click does
//     onCursor: (cell) => hoverCell(cell),   // the cursor moved (or the board got focus): like hovering
//     describe: (cell) => "…",               // optional: the words for the cell (default: announce.js cellWords)
//   }, { start: "I9" });                     // optional: the cell the cursor starts on
//   kbd.cell                                 // the cursor's cell; kbd.moveTo("C5") moves it
//   kbd.focused(), kbd.words()               // the board has the focus; the words for the cursor's cell
//   kbd.detach()                             // in the screen's destroy()
//
//   // and in the screen's own keydown listener (document): the reserve and rotation keys
//   if (pieceKeys(e, { pick: (kind) => …, rotate: (delta) => …, selected: () => !!sel })) return;
//
// Keys on the board: ↑ ↓ along the column, ← → along the row (the row
// number stays), Shift+← Shift+→ along the diagonal (with ↑ ↓ these are
// the six neighbours), Home the centre I9, Enter / Space act. Every
// other key (Escape, R, the kind letters, Tab) goes on to the screen.
// With the board turned round (flipped) the arrows follow the screen.
//
// pieceKeys: T C E L M R (or 1–6) pick a kind from the reserve, R /
// Shift+R or ] / [ turn the piece (R picks the R kind only while nothing
// is selected).

import { t } from "./i18n.js";
import { announceCursor, cellWords } from "./announce.js";

export const KINDS = ["T", "C", "E", "L", "M", "R"];
const CENTRE = "I9";

// [col, row] steps, the first that stays on the board is taken.
const STEPS = {
  ArrowUp: [[0, 1]],
  ArrowDown: [[0, -1]],
  ArrowRight: [[1, 0], [1, 1]],
  ArrowLeft: [[-1, 0], [-1, -1]],
};
const SHIFT_STEPS = { ...STEPS, ArrowRight: [[1, 1], [1, 0]], ArrowLeft: [[-1, -1], [-1, 0]] };

/**
 * The keys and what they do, for the key panel and help: ids whose texts
 * are t("a11y.keys.<id>_keys") (the keys, named as on the reader's
 * keyboard) and t("a11y.keys.<id>") (what they do).
 */
export const KEY_HELP = ["tab", "updown", "leftright", "diagonal", "home", "activate", "kinds", "rotate", "escape", "replay"];

/**
 * Makes `board` playable by keyboard. handlers: onActivate(cell),
 * onCursor(cell), describe(cell) (optional). opts.start: the first cell.
 */
export function attachKeyboard(board, handlers, { start = null } = {}) {
  const el = board.el;
  const geom = board.geom;
  const kbd = {
    cell: start && geom.cell(start) ? start : CENTRE,
    moveTo(cell, speak = true) {
      if (!geom.cell(cell)) return;
      kbd.cell = cell;
      board.setCursor(cell);
      handlers.onCursor?.(cell);
      if (speak) say(cell);
    },
    /** Whether the board has the keyboard's focus. */
    focused() {
      return document.activeElement === el;
    },
    /** The words for the cursor's cell now. */
    words() {
      return describe(kbd.cell);
    },
    detach() {
      el.removeEventListener("keydown", onKey);
      el.removeEventListener("focus", onFocus);
      el.removeEventListener("mousedown", onMouse);
      el.removeEventListener("pointerdown", onPointer);
      el.removeAttribute("tabindex");
      el.classList.remove("kbd");
      board.setCursor(null);
      board.setKeyboardHint(null);
    },
  };
  const describe = handlers.describe || ((cell) => cellWords(board.state, geom, cell, {
    over: board.over, movable: board.opts && board.opts.movable,
  }));
  const say = (cell) => announceCursor(describe(cell));

  const step = (key, shift) => {
    const [col, row] = geom.pos(kbd.cell);
    const sign = board.flipped ? -1 : 1;
    for (const [dc, dr] of (shift ? SHIFT_STEPS : STEPS)[key]) {
      const next = geom.at(col + sign * dc, row + sign * dr);
      if (next) return next.name;
    }
    return null;
  };

  const onKey = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key in STEPS) {
      // The arrows are the board's while it has the focus (the screen's replay keys wait).
      e.preventDefault();
      e.stopPropagation();
      el.classList.add("kbd");
      const next = step(e.key, e.shiftKey);
      if (next) kbd.moveTo(next);
      else announceCursor(t("a11y.cursor.edge", { cell: kbd.cell }));
    } else if (e.key === "Home") {
      e.preventDefault();
      el.classList.add("kbd");
      kbd.moveTo(CENTRE);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      el.classList.add("kbd");
      handlers.onActivate?.(kbd.cell);
    }
  };
  // Focus from the keyboard shows the cursor and says where it is.
  const onFocus = () => {
    board.setCursor(kbd.cell);
    handlers.onCursor?.(kbd.cell);
    say(kbd.cell);
  };
  // A mouse or finger does not give the board the focus (the arrows keep
  // stepping the replay for it); the focus leaves where it was, as a click
  // on a picture would make it.
  const onMouse = (e) => {
    if (document.activeElement === el) return;
    e.preventDefault();
    if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
  };
  const onPointer = () => el.classList.remove("kbd");

  el.setAttribute("tabindex", "0");
  board.setKeyboardHint(t("a11y.board.hint"));
  el.addEventListener("keydown", onKey);
  el.addEventListener("focus", onFocus);
  el.addEventListener("mousedown", onMouse);
  el.addEventListener("pointerdown", onPointer);
  board.setCursor(kbd.cell);
  return kbd;
}

/**
 * The reserve and rotation keys for a screen's keydown listener: answers
 * true when `e` was one of them (and handled). pick(kind), rotate(delta),
 * selected(): whether a piece is selected now.
 */
export function pieceKeys(e, { pick, rotate, selected }) {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  if (key === "]" || key === "[") {
    if (!selected()) return false;
    rotate(key === "]" ? 1 : -1);
    e.preventDefault();
    return true;
  }
  // R turns a selected piece (the screen's own key); picks the R kind otherwise.
  if (key === "R" && (selected() || e.shiftKey)) return false;
  let kind = KINDS.includes(key) ? key : null;
  if (!kind && /^[1-6]$/.test(key)) kind = KINDS[Number(key) - 1];
  if (!kind) return false;
  pick(kind);
  e.preventDefault();
  return true;
}
