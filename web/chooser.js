// The move chooser: the board (board.js) on which a person makes a move,
// shared by the game screen (game.js) and the learning boards (picker.js).
// It knows no rules: it is fed a state with its `legal_moves` and turns
// clicks, taps, hovers, the wheel, the keyboard (kbd.js) and the turn
// button into a move handed to the screen. A move that is not among the
// legal ones is handed over too, so that the screen's server says why.
//
//   import { Chooser, turnControls, ownKey } from "./chooser.js";
//   const chooser = new Chooser(geom, {
//     enabled: () => …,          // whether a move may be made now (default: always)
//     onPlay: (move) => …,       // a move chosen ("E@C5/2", "G5-G9/4"), legal or a try
//     onIdle: (cell, piece) => …, // optional: a cell chosen that makes no move: none may be
//                                 // made now, nothing of the mover's is there, or `piece`,
//                                 // the mover's, cannot move
//     onTouch: (cell) => …,      // optional: every cell chosen, before the rest
//     onChange: (what) => …,     // redraw: "kind", "piece", "cancel" (the selection),
//                                // "turn" (its rotation), "target" (a tapped target), "hover"
//     canPick: (kind) => …,      // optional: whether a kind of the reserve may be picked
//     keepTarget: false,         // true: a tapped target waits through a new pick and a try
//   }, { flipped: false });     // the board's options (board.js)
//   chooser.board                // the Board (its element chooser.board.el)
//   chooser.confirm.el           // the touch confirmation's bar (touch.js), for the screen to place
//   chooser.setState(state)      // the position moves are chosen on; drops the selection
//   chooser.pickKind("E"), chooser.submit("E@C5/2"), chooser.key(e) (in a keydown listener)
//   chooser.destroy()            // in the screen's destroy()
//
// Making a move: pick a kind from the reserve (or press its letter) or
// choose one of the mover's pieces with a ring; turn it with the Turn
// button, R / Shift+R, ] / [ or the mouse wheel; choose the target cell.
// On a touch screen the first tap on a legal cell only shows it, with a
// Play button (touch.js). The keyboard walks the board with the arrows
// (kbd.js), Enter chooses. The screen draws: the board's position with
// `movable()` and `lifted()`, the overlay `overlay()`, the confirmation
// `renderConfirm()`, the selection in words `voice.selection(…)`.

import { h } from "./dom.js";
import { Board, pieceIcon } from "./board.js";
import { indexMoves, moveAt, selectionOverlay, topPieceAt, cellChoice, turnSelection } from "./moves.js";
import { TapConfirm } from "./touch.js";
import { attachKeyboard, pieceKeys } from "./kbd.js";
import { GameVoice } from "./announce.js";

/** Whether a keydown is the page's: not typed into a field, and without Ctrl, Alt or Meta. */
export function ownKey(e) {
  const tg = e.target;
  if (e.defaultPrevented) return false; // taken already (e.g. the arrows of a tab list, tabs.js)
  if (tg && (tg.tagName === "INPUT" || tg.tagName === "TEXTAREA" || tg.tagName === "SELECT")) return false;
  return !(e.ctrlKey || e.metaKey || e.altKey);
}

export class Chooser {
  constructor(geom, hooks, boardOpts = {}) {
    this.geom = geom;
    this.hooks = hooks;
    this.state = null;
    this.legal = indexMoves({ legal_moves: [] });
    this.sel = null; // {type: "add", kind, rot} | {type: "move", piece, rot}
    this.hover = null;
    this.board = new Board(geom, {
      onCell: (c) => this.clickCell(c),
      onHover: (c) => this.hoverCell(c),
      onWheel: (dy) => this.sel != null && (this.rotate(dy > 0 ? 1 : -1), true),
      onPointer: (type) => this.confirm.pointer(type),
    }, boardOpts);
    // Keyboard play, and the selection said in words (kbd.js, announce.js).
    this.kbd = attachKeyboard(this.board, { onActivate: (c) => this.clickCell(c), onCursor: (c) => this.hoverCell(c) });
    this.voice = new GameVoice(this.kbd);
    this.confirm = new TapConfirm({ onConfirm: () => this.confirmMove(), onCancel: () => this.cancel() });
  }

  destroy() {
    this.board.resize?.disconnect();
    this.kbd.detach();
  }

  /** The position moves are chosen on (with `legal_moves`); the selection is dropped. */
  setState(state) {
    this.state = state;
    this.legal = indexMoves(state);
    this.sel = null;
    this.confirm.clear();
  }

  /** The side to move. */
  get side() {
    return this.state ? this.state.to_move : null;
  }

  enabled() {
    return !!this.state && (!this.hooks.enabled || this.hooks.enabled());
  }

  changed(what) {
    this.hooks.onChange?.(what);
  }

  isLegal(move) {
    return !!move && !!this.state && (this.state.legal_moves || []).includes(move);
  }

  // ------------------------------------------------------------ choosing

  /** A kind of the mover's reserve picked (again: put back). */
  pickKind(kind) {
    if (!this.enabled()) return;
    if (this.sel && this.sel.type === "add" && this.sel.kind === kind) this.sel = null;
    else if (!this.hooks.canPick || this.hooks.canPick(kind)) this.sel = { type: "add", kind, rot: 0 };
    if (!this.hooks.keepTarget) this.confirm.clear();
    this.changed("kind");
  }

  selectPiece(piece) {
    this.sel = { type: "move", piece, rot: piece.rotation };
    if (!this.hooks.keepTarget) this.confirm.clear();
    this.changed("piece");
  }

  rotate(delta) {
    if (!this.sel) return;
    turnSelection(this.sel, this.geom, delta);
    this.changed("turn");
  }

  cancel() {
    this.sel = null;
    this.confirm.clear();
    this.changed("cancel");
  }

  /** Drops the selection without a word (the screen redraws). */
  deselect() {
    this.sel = null;
  }

  clickCell(cell) {
    this.hooks.onTouch?.(cell);
    if (!this.enabled()) {
      this.hooks.onIdle?.(cell, null);
      return;
    }
    const c = cellChoice(this.sel, cell, this.legal, topPieceAt(this.state, cell), this.side);
    if (c.act === "play") this.playAt(cell);
    else if (c.act === "select") this.selectPiece(c.piece);
    else if (c.act === "cancel") this.cancel();
    else if (c.act === "try") this.submit(c.move); // the screen's server says why not
    else this.hooks.onIdle?.(cell, c.act === "blocked" ? c.piece : null);
  }

  hoverCell(cell) {
    if (cell === this.hover) return;
    this.hover = cell;
    this.changed("hover");
  }

  /** A legal target chosen: played at once, or by touch first shown to confirm (touch.js). */
  playAt(cell) {
    if (this.confirm.ready(cell)) this.submit(moveAt(this.sel, cell));
    else this.changed("target");
  }

  confirmMove() {
    const move = moveAt(this.sel, this.confirm.cell);
    this.confirm.clear();
    if (this.isLegal(move)) this.submit(move);
    else this.changed("target");
  }

  /** Hands `move` to the screen; the selection stays until the next state (or deselect()). */
  submit(move) {
    if (!move) return;
    if (!this.hooks.keepTarget) {
      this.confirm.clear();
      this.changed("target");
    }
    this.hooks.onPlay(move);
  }

  /**
   * The reserve and rotation keys, for the screen's keydown listener:
   * T C E L M R / 1–6 pick a kind, ] [ R Shift+R turn the selection,
   * Escape drops it. Answers whether `e` was one of them (and handled).
   */
  key(e) {
    if (!ownKey(e) || !this.state) return false;
    if (pieceKeys(e, { pick: (k) => this.pickKind(k), rotate: (d) => this.rotate(d), selected: () => !!this.sel })) return true;
    if ((e.key === "r" || e.key === "R") && this.sel) {
      this.rotate(e.shiftKey ? -1 : 1);
      e.preventDefault();
      return true;
    }
    if (e.key === "Escape" && this.sel) {
      this.cancel();
      return true;
    }
    return false;
  }

  // ------------------------------------------------------------ what to draw

  /** The selected piece's kind (null: none). */
  selectedKind() {
    const sel = this.sel;
    return sel ? (sel.type === "add" ? sel.kind : sel.piece.kind) : null;
  }

  /** The mover's pieces that may move now, ringed on the board until one is picked (null: none). */
  movable() {
    if (!this.enabled() || this.sel) return null;
    return new Set(this.state.pieces.filter((p) => p.movable && p.side === this.side));
  }

  /** The piece lifted to be moved (null: none). */
  lifted() {
    return this.sel && this.sel.type === "move" ? this.sel.piece : null;
  }

  /** The board's overlay (Board.setOverlay): targets, lines and the ghost; a tapped target keeps the ghost in place. */
  overlay() {
    return selectionOverlay(this.sel, this.legal, this.confirm.cell || this.hover, this.side);
  }

  /** The touch confirmation's bar, for the move waiting there. */
  renderConfirm() {
    const move = moveAt(this.sel, this.confirm.cell);
    this.confirm.render(move, this.isLegal(move));
  }
}

/**
 * The turn button (`label`, `title`) and the rotation readout (`caption`,
 * the rotation, the piece so turned) of `chooser`'s selection, for a
 * screen to place: `button`, `box`; render(flipped) shows the selection.
 */
export function turnControls(chooser, { label, title, caption }) {
  const rotation = h("span", { class: "rotation", "data-testid": "rotation" }, "–");
  const icon = h("span", { class: "rotation-icon" });
  const button = h("button", { type: "button", "data-testid": "rotate", title, onclick: () => chooser.rotate(1) }, label);
  const box = h("span", { class: "rotation-box" }, caption, " ", rotation, icon);
  return {
    button,
    box,
    render(flipped = false) {
      const sel = chooser.sel;
      rotation.textContent = sel ? String(sel.rot) : "–";
      icon.replaceChildren(sel ? pieceIcon(chooser.geom, chooser.selectedKind(), sel.rot, chooser.side, flipped) : "");
      button.disabled = !sel;
    },
  };
}
