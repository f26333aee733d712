// The move picker: a board on which a person makes one move by hand, for
// screens outside a game (the tutorial, the puzzles). The choosing is the
// game's (chooser.js); this is its frame for those screens: the reserve
// strip, the controls and a typed move. It knows no rules: what may be
// played comes from the state's `legal_moves`, and a move that is not
// among them is still handed over, so the screen's server can say why it
// is illegal.
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
// Making a move is as in a game (chooser.js). A kind the reserve has none
// of left is not picked here.

import { h, show } from "./dom.js";
import { t } from "./i18n.js";
import { HEX, hexPoints, pieceIcon, svg } from "./board.js";
import { bestDrawing } from "./moves.js";
import { countedCells, lastPieceWarning } from "./central.js";
import { KINDS } from "./kbd.js";
import { Chooser, turnControls } from "./chooser.js";

export class Picker {
  constructor(geom, { onMove, onBlocked = () => {} }) {
    this.geom = geom;
    this.state = null;
    this.interactive = false;
    this.marks = [];
    this.best = null;

    this.chooser = new Chooser(geom, {
      enabled: () => this.interactive,
      canPick: (kind) => (this.state.reserves[this.side] || {})[kind] > 0,
      onPlay: (move) => onMove(move),
      onIdle: (cell, piece) => piece && onBlocked(piece),
      onChange: (what) => this.changed(what),
    });
    this.board = this.chooser.board;

    this.kindButtons = KINDS.map((kind) => h("button", {
      type: "button", class: "kind", "data-kind": kind, onclick: () => this.chooser.pickKind(kind),
    }));
    this.reserveEl = h("div", { class: "picker-reserve", role: "group", "aria-label": t("tutorial.picker.reserve") },
      this.kindButtons);

    this.turn = turnControls(this.chooser, {
      label: `⟳ ${t("tutorial.picker.rotate")}`, title: t("tutorial.picker.rotate_title"), caption: t("tutorial.picker.rotation"),
    });
    this.info = h("p", { class: "picker-info", "data-testid": "picker-info" });
    this.warning = h("p", { class: "warning", "data-testid": "last-piece-warning", role: "status" });
    show(this.warning, false);
    this.controlsEl = h("div", { class: "picker-controls" },
      h("div", { class: "controls" }, this.turn.button, this.turn.box),
      this.info, this.warning, this.chooser.confirm.el);

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

    // The reserve and rotation keys, while a move may be made.
    this.onKey = (e) => this.interactive && this.chooser.key(e);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    this.chooser.destroy();
  }

  /** Shows `state`; see the module's comment for `opts`. */
  setState(state, { interactive = true, marks = [], best = null, side = null, counted = null } = {}) {
    this.state = state;
    this.player = side;
    this.counted = counted;
    this.chooser.setState(state);
    this.interactive = interactive && state.status !== "over" && !!state.to_move;
    this.marks = marks;
    this.best = best;
    this.render();
  }

  /** Whether a move may be made now (a selection is kept meanwhile). */
  setInteractive(on) {
    this.interactive = !!on && !!this.state && this.state.status !== "over";
    this.render();
  }

  /** The side to move (whose moves the picker makes). */
  get side() {
    return this.chooser.side;
  }

  /** The side whose reserve the strip shows. */
  get reserveSide() {
    return this.player || this.side || "white";
  }

  submitTyped() {
    const text = this.typed.value.trim();
    if (!text || !this.interactive) return;
    this.typed.value = "";
    this.chooser.submit(text);
  }

  // ------------------------------------------------------------ drawing

  /** What the chooser changed (chooser.js onChange). */
  changed(what) {
    if (what === "hover") this.renderOverlay();
    else if (what === "target") this.renderSelection();
    else if (what === "turn") {
      this.renderSelection();
      this.renderReserve();
    } else this.render();
  }

  render() {
    if (!this.state) return;
    const s = this.state;
    this.board.setPosition(s, {
      movable: this.chooser.movable(),
      lifted: this.chooser.lifted(),
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
    const sel = this.chooser.sel;
    this.reserveEl.dataset.side = side;
    this.kindButtons.forEach((b, i) => {
      const kind = KINDS[i];
      const n = reserve[kind] || 0;
      const selected = !!(sel && sel.type === "add" && sel.kind === kind);
      b.setAttribute("data-testid", `reserve-${side}-${kind}`);
      b.replaceChildren(pieceIcon(this.geom, kind, selected ? sel.rot : 0, side), h("span", { class: "count" }, String(n)));
      b.disabled = !mine || !this.chooser.legal.adds.has(kind);
      b.classList.toggle("selected", selected);
      b.classList.toggle("empty", n === 0);
      b.setAttribute("aria-pressed", String(selected));
      b.setAttribute("aria-label", t("tutorial.picker.kind", { kind, count: n }));
    });
  }

  renderSelection() {
    const ch = this.chooser;
    const sel = ch.sel;
    const kind = ch.selectedKind();
    this.turn.render();
    this.info.textContent = !this.interactive ? ""
      : !sel ? t("tutorial.picker.pick")
        : sel.type === "add" ? t("tutorial.picker.adding", { kind })
          : t("tutorial.picker.moving", { kind, cell: sel.piece.punct });
    show(this.info, !!this.info.textContent);
    // Adding one's last piece ends the game: say what decides it then.
    const warn = this.interactive && sel && sel.type === "add" ? lastPieceWarning(this.state, this.side) : "";
    this.warning.textContent = warn;
    show(this.warning, !!warn);
    ch.renderConfirm();
    this.renderOverlay();
    if (this.interactive) ch.voice.selection(sel, ch.legal, this.state.position);
  }

  renderOverlay() {
    if (!this.state) return;
    const o = this.interactive ? this.chooser.overlay() : { hover: this.chooser.hover };
    if (this.best) o.best = bestDrawing(this.state, this.best);
    this.board.setOverlay(o);
  }
}
