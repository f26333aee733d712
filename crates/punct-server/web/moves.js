// Moves as the page handles them: the state's legal moves indexed for the
// board, the move a selection makes on a cell, and what the board draws
// for the selection (targets, lines, ghost) and for the engine's best move.
// No rules here: what is legal comes from the state's `legal_moves`.

import { Board } from "./board.js";

export const ADD = /^([TCELMR])@([A-Q]\d+)\/(\d)$/;
export const MOVE = /^([A-Q]\d+)-([A-Q]\d+)\/(\d)$/;

/** The legal moves of a state, indexed for the board's highlights. */
export function indexMoves(state) {
  const adds = new Map(); // kind → rotation → Set(cell)
  const moves = new Map(); // from → to → Set(rotation)
  let pass = false;
  for (const m of state.legal_moves || []) {
    let x;
    if ((x = ADD.exec(m))) {
      const [, kind, cell, rot] = x;
      if (!adds.has(kind)) adds.set(kind, new Map());
      const byRot = adds.get(kind);
      if (!byRot.has(+rot)) byRot.set(+rot, new Set());
      byRot.get(+rot).add(cell);
    } else if ((x = MOVE.exec(m))) {
      const [, from, to, rot] = x;
      if (!moves.has(from)) moves.set(from, new Map());
      const byTo = moves.get(from);
      if (!byTo.has(to)) byTo.set(to, new Set());
      byTo.get(to).add(+rot);
    } else if (m === "pass") {
      pass = true;
    }
  }
  return { adds, moves, pass };
}

/**
 * The move that selection `sel` ({type: "add", kind, rot} or {type:
 * "move", piece, rot}) makes on `cell` (null: none, e.g. the piece's own
 * place and rotation).
 */
export function moveAt(sel, cell) {
  if (!sel || !cell) return null;
  if (sel.type === "add") return `${sel.kind}@${cell}/${sel.rot}`;
  const from = sel.piece.punct;
  if (cell === from && sel.rot === sel.piece.rotation) return null;
  return `${from}-${cell}/${sel.rot}`;
}

/**
 * What the board draws for a selection (Board.setOverlay): the legal
 * targets, for a move its origin and lines, and the ghost at `at` (the
 * cell pointed at or tapped). legal: indexMoves() of the state; side: the
 * side to move.
 */
export function selectionOverlay(sel, legal, at, side) {
  const o = { hover: at, mode: sel ? sel.type : undefined };
  if (sel && sel.type === "add") {
    o.legal = legal.adds.get(sel.kind)?.get(sel.rot) || new Set();
    if (at) o.ghost = { kind: sel.kind, rotation: sel.rot, at, side, legal: o.legal.has(at) };
  } else if (sel && sel.type === "move") {
    const from = sel.piece.punct;
    const targets = legal.moves.get(from) || new Map();
    o.legal = new Set(targets.keys());
    o.origin = from;
    o.lines = from;
    o.lifted = sel.piece;
    const to = at || from;
    if (!(to === from && sel.rot === sel.piece.rotation)) {
      o.ghost = {
        kind: sel.piece.kind, rotation: sel.rot, at: to, side, lifted: sel.piece,
        legal: !!(targets.get(to) && targets.get(to).has(sel.rot)),
      };
    }
  }
  return o;
}

/** How to draw the engine's best move in `view`: a ghost piece and, for a move, an arrow. */
export function bestDrawing(view, best) {
  const stm = view.position.split(":")[1] === "w" ? "white" : "black";
  let x;
  if ((x = ADD.exec(best))) {
    return { kind: x[1], rotation: +x[3], at: x[2], side: stm };
  }
  if ((x = MOVE.exec(best))) {
    const piece = Board.topPieceWithPunct(view, x[1]);
    if (!piece) return null;
    return { from: x[1], to: x[2], kind: piece.kind, rotation: +x[3], at: x[2], side: stm, lifted: piece };
  }
  return null;
}
