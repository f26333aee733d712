// The board in words, for those who cannot see it: two live regions that a
// screen reader speaks (one logs every move as it happens, one says what
// is under the keyboard cursor and what is selected), the words for a
// cell's stack and for a move, and the position as a whole described on
// demand (a disclosure: to move, reserves, central count, every occupied
// cell from the top down). Every text comes from t() (keys a11y.*); cell
// names, move notation, kind letters and numbers are not translated.
//
// Usage: announce(text) and announceCursor(text) from anywhere; the game
// screen keeps a GameVoice (moves, selection) and a PositionText.

import { h, edgeName } from "./dom.js";
import { t, listOf } from "./i18n.js";
import { headline, reasonText } from "./endgame.js";

const ADD = /^([TCELMR])@([A-Q]\d+)\/(\d)$/;
const MOVE = /^([A-Q]\d+)-([A-Q]\d+)\/(\d)$/;
const KINDS = ["T", "C", "E", "L", "M", "R"];
const LOG_KEEP = 30; // entries the move log keeps

let log = null;
let status = null;

/** The two live regions: made once, outside the screens (so they survive a change of screen). */
function regions() {
  if (!log || !log.isConnected) {
    log = h("div", { class: "sr-only", role: "log", "aria-live": "polite", "data-testid": "announcer", "aria-label": t("a11y.log_label") });
    status = h("div", { class: "sr-only", role: "status", "data-testid": "cursor-info" });
    document.body.append(log, status);
  }
}

/** Speaks `text` in the log (moves, the end of the game): each one a new entry, never cut off by the next. */
export function announce(text) {
  if (!text) return;
  regions();
  log.append(h("p", {}, text));
  while (log.childElementCount > LOG_KEEP) log.firstElementChild.remove();
}

/** Says `text` in the status region (the cursor's cell, the selection): each replaces the last. */
export function announceCursor(text) {
  regions();
  status.textContent = text || "";
}

/** The piece whose dot is at `level` on `cell`. */
function pieceAt(state, cell, level) {
  return state.pieces.find((p) => p.level === level && p.cells.includes(cell)) || null;
}

/** One dot of a stack in words: "level 1: White E, its PÜNCT, bridge". */
export function dotWords(state, cell, dot) {
  const piece = pieceAt(state, cell, dot.level);
  const bridge = piece && piece.bridge ? "_bridge" : "";
  const role = dot.punct ? "punct" : "minor";
  return t(`a11y.dot.${dot.side}.${role}${bridge}`, {
    level: dot.level, kind: dot.kind, punct: piece ? piece.punct : "?",
  });
}

/** A stack's dots and gaps, top first, each in words. */
export function stackWords(state, cell) {
  const dots = (state.stacks && state.stacks[cell]) || [];
  if (!dots.length) return [];
  const byLevel = new Map(dots.map((d) => [d.level, d]));
  const out = [];
  for (let level = dots.at(-1).level; level >= 0; level--) {
    const d = byLevel.get(level);
    out.push(d ? dotWords(state, cell, d) : t("a11y.dot.gap", { level }));
  }
  return out;
}

/** Where a cell lies: "I9, central hexagon", "A4, column A", or just "C5". */
export function placeWords(geom, cell) {
  const c = geom.cell(cell);
  if (!c) return cell;
  if (c.central) return t("a11y.cell.central", { cell });
  if (c.edges && c.edges.length) return t("a11y.cell.edge", { cell, edge: listOf(c.edges.map((e) => edgeName(e))) });
  return cell;
}

/**
 * A cell in words for the cursor: where it is, its stack (top first), and
 * what the board's marks say there (over: Board.over, movable: the
 * pieces that may move now).
 */
export function cellWords(state, geom, cell, { over = {}, movable = null } = {}) {
  const where = placeWords(geom, cell);
  const dots = (state && state.stacks && state.stacks[cell]) || [];
  const parts = [];
  if (!dots.length) {
    parts.push(t("a11y.cell.empty", { where }));
  } else {
    const height = dots.at(-1).level + 1;
    parts.push(t("a11y.cell.stack", { where, height, dots: stackWords(state, cell).join("; ") }));
    const top = pieceAt(state, cell, height - 1);
    if (movable && top && movable.has(top)) parts.push(t("a11y.cell.movable"));
  }
  if (over.mode === "add" || over.mode === "move") {
    const ghostHere = over.ghost && over.ghost.at === cell;
    if (ghostHere && over.ghost.legal) parts.push(t("a11y.cell.legal"));
    else if (over.legal && over.legal.has(cell)) parts.push(t(over.mode === "add" ? "a11y.cell.legal" : "a11y.cell.other_rotation"));
    else if (over.origin === cell) parts.push(t("a11y.cell.origin"));
    else parts.push(t("a11y.cell.illegal"));
  }
  return parts.join(" ");
}

/** The side that made move `i` (0-based) of a game starting as `start` ("variant:w:…"). */
function moverOf(start, i) {
  const first = (start || "").split(":")[1] === "b" ? "black" : "white";
  return (i % 2 === 0) === (first === "white") ? "white" : "black";
}

/**
 * A move in words: "Black adds E on C5, turned to 2.", "White moves the
 * piece on G5 to G9, turned to 4. It lies at level 1." `after`: the state
 * right after it (for where the piece came to lie), or null.
 */
export function moveSentence(move, side, after = null) {
  if (move === "pass") return t(`a11y.said.pass.${side}`);
  let x;
  if ((x = ADD.exec(move))) return t(`a11y.said.add.${side}`, { kind: x[1], cell: x[2], rotation: +x[3] });
  if ((x = MOVE.exec(move))) {
    const [, from, to, rot] = x;
    let text = from === to
      ? t(`a11y.said.turn.${side}`, { cell: to, rotation: +rot })
      : t(`a11y.said.move.${side}`, { from, to, rotation: +rot });
    const dots = after && after.stacks && after.stacks[to];
    const top = dots && dots.length ? pieceAt(after, to, dots.at(-1).level) : null;
    if (top && top.punct === to && top.side === side) {
      if (top.bridge) text += ` ${t("a11y.said.bridge", { level: top.level })}`;
      else if (top.level > 0) text += ` ${t("a11y.said.level", { level: top.level })}`;
    }
    return text;
  }
  return move;
}

/** The selection's key (kind, piece, rotation), to speak each change once. */
function selKey(sel) {
  if (!sel) return "";
  return sel.type === "add" ? `add:${sel.kind}:${sel.rot}` : `move:${sel.piece.punct}:${sel.piece.level}:${sel.rot}`;
}

/** What the game screen says by itself: every move and the end of the game; the selection. */
export class GameVoice {
  /** kbd: the board's keyboard (kbd.js attachKeyboard), to add what the cursor's cell says to the selection's words. */
  constructor(kbd = null) {
    this.kbd = kbd;
    this.sel = "";
    this.version = null;
  }

  /** Says `text` and, while the board has the keyboard's focus, the cursor's cell after it (once the board is redrawn). */
  sayWithCursor(text) {
    const kbd = this.kbd;
    if (!kbd || !kbd.focused()) {
      announceCursor(text);
      return;
    }
    queueMicrotask(() => announceCursor(`${text} ${kbd.words()}`));
  }

  /** A new state (`prev`: the one before, null at first): its moves, a takeback, the end. `seats`: this screen's. */
  state(prev, next, seats = []) {
    if (!prev || !next) return;
    if (next.ply < prev.ply) {
      announce(t("a11y.said.takeback", { count: prev.ply - next.ply }));
    } else if (next.ply > prev.ply && next.moves) {
      // Several at once (back after a lost connection): the last few.
      for (let i = Math.max(prev.ply, next.ply - 4); i < next.ply; i++) {
        const move = next.moves[i];
        if (move) announce(moveSentence(move, moverOf(next.start, i), i === next.ply - 1 ? next : null));
      }
    }
    if (next.status === "over" && prev.status !== "over" && next.result) {
      announce(t("a11y.said.over", { headline: headline(next.result, seats), reason: reasonText(next.result) }));
    } else if (next.status === "ongoing" && next.ply !== prev.ply && next.to_move) {
      announce(t(`a11y.said.to_move.${next.to_move}`));
    }
  }

  /**
   * The selection (chooser.js `sel`) after a render: said when it changed.
   * legal: moves.js indexMoves(); version: the state's (a selection
   * dropped by a new state is not "cancelled").
   */
  selection(sel, legal, version) {
    const key = selKey(sel);
    const was = this.sel;
    const sameState = this.version === version;
    this.sel = key;
    this.version = version;
    if (key === was) return;
    if (!sel) {
      if (was && sameState) announceCursor(t("a11y.sel.none"));
      return;
    }
    if (sel.type === "add") {
      const count = legal && legal.adds.get(sel.kind)?.get(sel.rot)?.size || 0;
      this.sayWithCursor(t("a11y.sel.add", { kind: sel.kind, rotation: sel.rot, count }));
    } else {
      const from = sel.piece.punct;
      let count = 0;
      for (const rots of (legal && legal.moves.get(from)?.values()) || []) if (rots.has(sel.rot)) count++;
      this.sayWithCursor(t("a11y.sel.move", { kind: sel.piece.kind, cell: from, rotation: sel.rot, count }));
    }
  }
}

/** Cells sorted as on the board's labels: by column, then row. */
function byPlace(geom) {
  return (a, b) => {
    const [ca, cb] = [geom.cell(a), geom.cell(b)];
    return ca && cb ? ca.col - cb.col || ca.row - cb.row : a.localeCompare(b);
  };
}

/**
 * "Describe the position": a button that shows (and hides) the position
 * in words, kept up to date with the position shown while open.
 */
export class PositionText {
  constructor(geom) {
    this.geom = geom;
    this.state = null;
    this.key = null;
    this.body = h("div", { class: "position-text", id: "position-text", "data-testid": "position-text" });
    this.body.hidden = true;
    this.button = h("button", {
      type: "button", "data-testid": "describe-position", "aria-expanded": "false", "aria-controls": "position-text",
      onclick: () => this.toggle(),
    }, t("a11y.describe"));
    this.el = h("section", { class: "panel position-panel", "aria-label": t("a11y.describe_title") },
      h("div", { class: "row" }, h("h2", {}, t("a11y.describe_title")), this.button), this.body);
  }

  get isOpen() {
    return !this.body.hidden;
  }

  toggle(on = !this.isOpen) {
    this.body.hidden = !on;
    this.button.setAttribute("aria-expanded", String(on));
    this.button.textContent = t(on ? "a11y.describe_hide" : "a11y.describe");
    if (on) this.draw();
  }

  /** The position shown now (redrawn when open and changed). */
  update(state) {
    this.state = state;
    if (this.isOpen) this.draw();
  }

  draw() {
    const s = this.state;
    if (!s) return;
    const key = `${s.version}:${s.ply}:${s.position}`;
    if (key === this.key) return;
    this.key = key;
    this.body.replaceChildren(...describePosition(s, this.geom));
  }
}

/** The position of `state` in words: paragraphs and a table of the occupied cells. */
export function describePosition(state, geom) {
  const out = [];
  const para = (text, testid) => h("p", { "data-testid": testid }, text);
  if (state.status === "over") out.push(para(t("a11y.pos.over"), "pos-turn"));
  else if (state.to_move) out.push(para(t(`a11y.pos.to_move.${state.to_move}`, { count: state.ply }), "pos-turn"));
  if (state.last_move) out.push(para(t("a11y.pos.last_move", { move: state.last_move }), "pos-last"));
  for (const side of ["white", "black"]) {
    const r = (state.reserves && state.reserves[side]) || {};
    const count = KINDS.reduce((n, k) => n + (r[k] || 0), 0);
    const params = { count };
    for (const k of KINDS) params[k] = r[k] || 0;
    out.push(para(t(`a11y.pos.reserve.${side}`, params), `pos-reserve-${side}`));
  }
  const c = state.central || { white: 0, black: 0 };
  out.push(para(t("a11y.pos.central", { white: c.white, black: c.black }), "pos-central"));
  const cells = Object.keys(state.stacks || {}).filter((n) => state.stacks[n].length).sort(byPlace(geom));
  const pieces = { white: 0, black: 0 };
  for (const p of state.pieces || []) pieces[p.side]++;
  out.push(para(t("a11y.pos.pieces", { white: pieces.white, black: pieces.black }), "pos-pieces"));
  if (!cells.length) {
    out.push(para(t("a11y.pos.empty"), "pos-empty"));
    return out;
  }
  const rows = cells.map((cell) => {
    const dots = state.stacks[cell];
    return h("tr", { "data-cell": cell },
      h("th", { scope: "row" }, placeWords(geom, cell)),
      h("td", {}, String(dots.at(-1).level + 1)),
      h("td", {}, stackWords(state, cell).join("; ")));
  });
  out.push(h("table", { class: "position-table", "data-testid": "position-table" },
    h("caption", {}, t("a11y.pos.caption", { count: cells.length })),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, t("a11y.pos.col_cell")),
      h("th", { scope: "col" }, t("a11y.pos.col_height")),
      h("th", { scope: "col" }, t("a11y.pos.col_dots")))),
    h("tbody", {}, rows)));
  out.push(para(t("a11y.pos.rest_empty"), "pos-rest"));
  return out;
}
