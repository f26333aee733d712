// The move picker: a board on which a person makes one move by hand, for
// screens outside a game (the tutorial, the puzzles). It knows no rules:
// what may be played comes from the state's `legal_moves`, and a move that
// is not among them is still handed over, so the screen's server can say
// why it is illegal.
//
//   import { Picker } from "./picker.js";
//   const picker = new Picker(geom, {
//     onMove: (notation) => …,   // a move was made ("E@C5/2", "G5-G9/4"), legal or not
//     onBlocked: (piece) => …,   // optional: one of the mover's pieces that cannot move was chosen
//   });
//   root.append(picker.board.el, picker.reserveEl, picker.controlsEl, picker.typedEl);
//   picker.setState(state, { interactive: true, marks: ["C4"], best: null, side: "white" });
//   picker.destroy();            // in the screen's destroy()
//
// Parts, each placed by the screen: `board` (board.js Board, its element
// `board.el`), `reserveEl` (the reserve of the side to move: pick a kind),
// `controlsEl` (turn button, the rotation, what to do now, the touch
// confirmation), `typedEl` (a move typed in notation, the fallback).
//
// setState(state, opts): state is any position's state with `pieces`,
// `stacks`, `reserves`, `to_move` and `legal_moves` (a game's, or
// state::position_state's on the server). opts.interactive: whether a move
// may be made now; opts.marks: cells outlined as the goal's; opts.best: a
// move drawn as a suggestion (ghost and arrow); opts.side: whose reserve
// the strip shows (default: the side to move; a screen where one side is
// the player's keeps showing it after the move); opts.counted: a side
// whose counted dots in the central hexagon are highlighted. The
// selection is dropped.
//
// Making a move, as in a game: pick a kind from the reserve (or press its
// letter) or choose one of the mover's pieces with a ring; turn it with
// the Turn button, R / Shift+R, ] / [ or the mouse wheel; choose the
// target cell. A ghost shows the piece where it would lie. On a touch
// screen the first tap on a legal cell only shows it, with a Play button.
// The keyboard walks the board with the arrows (kbd.js), Enter chooses.

import { h, show } from "./dom.js";
import { t } from "./i18n.js";
import { Board, HEX, hexPoints, pieceIcon, svg } from "./board.js";
import { indexMoves, moveAt, selectionOverlay, bestDrawing, topPieceAt, cellChoice, turnSelection } from "./moves.js";
import { TapConfirm } from "./touch.js";
import { countedCells, lastPieceWarning } from "./central.js";
import { attachKeyboard, pieceKeys } from "./kbd.js";
import { GameVoice } from "./announce.js";

export const KINDS = ["T", "C", "E", "L", "M", "R"];

export class Picker {
  constructor(geom, { onMove, onBlocked = () => {} }) {
    this.geom = geom;
    this.onMove = onMove;
    this.onBlocked = onBlocked;
    this.state = null;
    this.legal = indexMoves({ legal_moves: [] });
    this.interactive = false;
    this.marks = [];
    this.best = null;
    this.sel = null; // {type: "add", kind, rot} | {type: "move", piece, rot}
    this.hover = null;

    this.board = new Board(geom, {
      onCell: (c) => this.clickCell(c),
      onHover: (c) => this.hoverCell(c),
      onWheel: (dy) => this.sel != null && (this.rotate(dy > 0 ? 1 : -1), true),
      onPointer: (type) => this.confirm.pointer(type),
    });
    this.keyboard = attachKeyboard(this.board, {
      onActivate: (c) => this.clickCell(c),
      onCursor: (c) => this.hoverCell(c),
    });
    // The selection said in words, as on the game screen (announce.js).
    this.voice = new GameVoice(this.keyboard);

    this.kindButtons = KINDS.map((kind) => h("button", {
      type: "button", class: "kind", "data-kind": kind, onclick: () => this.pickKind(kind),
    }));
    this.reserveEl = h("div", { class: "picker-reserve", role: "group", "aria-label": t("tutorial.picker.reserve") },
      this.kindButtons);

    this.rotation = h("span", { class: "rotation", "data-testid": "rotation" }, "–");
    this.rotationIcon = h("span", { class: "rotation-icon" });
    this.rotateBtn = h("button", {
      type: "button", "data-testid": "rotate", title: t("tutorial.picker.rotate_title"),
      onclick: () => this.rotate(1),
    }, `⟳ ${t("tutorial.picker.rotate")}`);
    this.info = h("p", { class: "picker-info", "data-testid": "picker-info" });
    this.warning = h("p", { class: "warning", "data-testid": "last-piece-warning", role: "status" });
    show(this.warning, false);
    this.confirm = new TapConfirm({
      onConfirm: () => this.confirmMove(),
      onCancel: () => this.cancel(),
    });
    this.controlsEl = h("div", { class: "picker-controls" },
      h("div", { class: "controls" }, this.rotateBtn,
        h("span", { class: "rotation-box" }, t("tutorial.picker.rotation"), " ", this.rotation, this.rotationIcon)),
      this.info, this.warning, this.confirm.el);

    this.typed = h("input", {
      type: "text", "data-testid": "move-input", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
      placeholder: t("tutorial.picker.typed_placeholder"), "aria-label": t("tutorial.picker.typed_label"),
      onkeydown: (e) => {
        if (e.key === "Enter") this.submitTyped();
      },
    });
    this.typedBtn = h("button", { type: "button", "data-testid": "move-input-play", onclick: () => this.submitTyped() },
      t("tutorial.picker.typed_button"));
    this.typedEl = h("div", { class: "controls picker-typed" },
      h("label", { class: "small" }, t("tutorial.picker.typed_label"), " ", this.typed), this.typedBtn);

    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    this.keyboard?.detach();
    this.board.resize?.disconnect();
  }

  /** Shows `state`; see the module's comment for `opts`. */
  setState(state, { interactive = true, marks = [], best = null, side = null, counted = null } = {}) {
    this.state = state;
    this.player = side;
    this.counted = counted;
    this.legal = indexMoves(state);
    this.interactive = interactive && state.status !== "over" && !!state.to_move;
    this.marks = marks;
    this.best = best;
    this.sel = null;
    this.confirm.clear();
    this.render();
  }

  /** Whether a move may be made now (a selection is kept meanwhile). */
  setInteractive(on) {
    this.interactive = !!on && !!this.state && this.state.status !== "over";
    this.render();
  }

  /** The side to move (whose moves the picker makes). */
  get side() {
    return this.state ? this.state.to_move : null;
  }

  /** The side whose reserve the strip shows. */
  get reserveSide() {
    return this.player || this.side || "white";
  }

  // ------------------------------------------------------------ choosing

  pickKind(kind) {
    if (!this.interactive) return;
    if (this.sel && this.sel.type === "add" && this.sel.kind === kind) this.sel = null;
    else if ((this.state.reserves[this.side] || {})[kind] > 0) this.sel = { type: "add", kind, rot: 0 };
    this.confirm.clear();
    this.render();
  }

  selectPiece(piece) {
    this.sel = { type: "move", piece, rot: piece.rotation };
    this.confirm.clear();
    this.render();
  }

  rotate(delta) {
    if (!this.sel) return;
    turnSelection(this.sel, this.geom, delta);
    this.renderSelection();
    this.renderReserve();
  }

  cancel() {
    this.sel = null;
    this.confirm.clear();
    this.render();
  }

  clickCell(cell) {
    if (!this.interactive) return;
    const c = cellChoice(this.sel, cell, this.legal, topPieceAt(this.state, cell), this.side);
    if (c.act === "play") this.play(cell);
    else if (c.act === "select") this.selectPiece(c.piece);
    else if (c.act === "cancel") this.cancel();
    else if (c.act === "try") this.submit(c.move); // the screen says why not
    else if (c.act === "blocked") this.onBlocked(c.piece);
  }

  hoverCell(cell) {
    if (cell === this.hover) return;
    this.hover = cell;
    this.renderOverlay();
  }

  /** A legal target chosen: played at once, or by touch first shown to confirm. */
  play(cell) {
    if (this.confirm.ready(cell)) this.submit(moveAt(this.sel, cell));
    else this.renderSelection();
  }

  confirmMove() {
    const move = moveAt(this.sel, this.confirm.cell);
    this.confirm.clear();
    if (move) this.submit(move);
    else this.renderSelection();
  }

  /** Hands `move` to the screen; the selection stays (for another try) until the next setState. */
  submit(move) {
    if (!move) return;
    this.confirm.clear();
    this.renderSelection();
    this.onMove(move);
  }

  submitTyped() {
    const text = this.typed.value.trim();
    if (!text || !this.interactive) return;
    this.typed.value = "";
    this.submit(text);
  }

  key(e) {
    const tg = e.target;
    if (tg && (tg.tagName === "INPUT" || tg.tagName === "TEXTAREA" || tg.tagName === "SELECT")) return;
    if (!this.interactive || e.ctrlKey || e.metaKey || e.altKey) return;
    if (pieceKeys(e, { pick: (kind) => this.pickKind(kind), rotate: (d) => this.rotate(d), selected: () => !!this.sel })) return;
    if ((e.key === "r" || e.key === "R") && this.sel) {
      this.rotate(e.shiftKey ? -1 : 1);
      e.preventDefault();
    } else if (e.key === "Escape" && this.sel) {
      this.cancel();
    }
  }

  // ------------------------------------------------------------ drawing

  render() {
    if (!this.state) return;
    const s = this.state;
    this.board.setPosition(s, {
      movable: this.interactive && !this.sel
        ? new Set(s.pieces.filter((p) => p.movable && p.side === this.side)) : null,
      lifted: this.sel && this.sel.type === "move" ? this.sel.piece : null,
      counted: this.counted ? { side: this.counted, cells: countedCells(s, this.geom, this.counted) } : null,
    });
    // The goal's cells, outlined on top of whatever lies there.
    for (const cell of this.marks) {
      const at = this.board.surfacePt(cell, this.board.surface(cell));
      svg("polygon", { class: "goal-mark", points: hexPoints(at, HEX * 0.92), "data-goal": cell }, this.board.posMarks);
    }
    this.renderReserve();
    this.renderSelection();
    this.typed.disabled = !this.interactive;
    this.typedBtn.disabled = !this.interactive;
  }

  renderReserve() {
    const s = this.state;
    const side = this.reserveSide;
    const reserve = (s.reserves && s.reserves[side]) || {};
    const mine = this.interactive && side === this.side;
    this.reserveEl.dataset.side = side;
    this.kindButtons.forEach((b, i) => {
      const kind = KINDS[i];
      const n = reserve[kind] || 0;
      const selected = !!(this.sel && this.sel.type === "add" && this.sel.kind === kind);
      b.setAttribute("data-testid", `reserve-${side}-${kind}`);
      b.replaceChildren(pieceIcon(this.geom, kind, selected ? this.sel.rot : 0, side), h("span", { class: "count" }, String(n)));
      b.disabled = !mine || !this.legal.adds.has(kind);
      b.classList.toggle("selected", selected);
      b.classList.toggle("empty", n === 0);
      b.setAttribute("aria-pressed", String(selected));
      b.setAttribute("aria-label", t("tutorial.picker.kind", { kind, count: n }));
    });
  }

  renderSelection() {
    const sel = this.sel;
    const kind = sel ? (sel.type === "add" ? sel.kind : sel.piece.kind) : null;
    this.rotation.textContent = sel ? String(sel.rot) : "–";
    this.rotationIcon.replaceChildren(sel ? pieceIcon(this.geom, kind, sel.rot, this.side) : "");
    this.rotateBtn.disabled = !sel;
    this.info.textContent = !this.interactive ? ""
      : !sel ? t("tutorial.picker.pick")
        : sel.type === "add" ? t("tutorial.picker.adding", { kind })
          : t("tutorial.picker.moving", { kind, cell: sel.piece.punct });
    show(this.info, !!this.info.textContent);
    // Adding one's last piece ends the game: say what decides it then.
    const warn = this.interactive && sel && sel.type === "add" ? lastPieceWarning(this.state, this.side) : "";
    this.warning.textContent = warn;
    show(this.warning, !!warn);
    const move = moveAt(sel, this.confirm.cell);
    this.confirm.render(move, !!move && (this.state.legal_moves || []).includes(move));
    this.renderOverlay();
    if (this.interactive) this.voice.selection(sel, this.legal, this.state.position);
  }

  renderOverlay() {
    if (!this.state) return;
    const o = this.interactive
      ? selectionOverlay(this.sel, this.legal, this.confirm.cell || this.hover, this.side)
      : { hover: this.hover };
    if (this.best) o.best = bestDrawing(this.state, this.best);
    this.board.setOverlay(o);
  }
}
