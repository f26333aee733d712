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

/** Turns selection `sel` (as for moveAt) by `delta` steps, within its kind's rotations (geom: board.js Geometry). */
export function turnSelection(sel, geom, delta) {
  const n = geom.rotations(sel.type === "add" ? sel.kind : sel.piece.kind);
  sel.rot = (sel.rot + delta + n) % n;
}

/** The piece whose dot is on top of `cell` in `state`, if any. */
export function topPieceAt(state, cell) {
  const stack = state.stacks[cell];
  if (!stack || !stack.length) return null;
  const level = stack.at(-1).level;
  return state.pieces.find((p) => p.level === level && p.cells.includes(cell)) || null;
}

/**
 * What choosing `cell` does, with selection `sel` (as for moveAt), the
 * state's `legal` (indexMoves), the piece on top of `cell` (`top`) and the
 * side to move: {act: "play"} (a legal target, or the selected piece's
 * own place with a new rotation: a turn in place), {act: "select", piece}
 * (another of the mover's pieces that can move), {act: "cancel"} (the
 * selected piece itself), {act: "try", move} (an illegal target: the
 * server says why not); with no selection {act: "blocked", piece} (one of
 * the mover's pieces that cannot move) or {act: "none"}.
 */
export function cellChoice(sel, cell, legal, top, side) {
  const own = top && top.side === side ? top : null;
  const ownMovable = own && own.movable ? own : null;
  if (sel && sel.type === "add") {
    if (legal.adds.get(sel.kind)?.get(sel.rot)?.has(cell)) return { act: "play" };
    if (ownMovable) return { act: "select", piece: ownMovable };
    return { act: "try", move: `${sel.kind}@${cell}/${sel.rot}` };
  }
  if (sel && sel.type === "move") {
    const from = sel.piece.punct;
    if (cell === from) return { act: sel.rot !== sel.piece.rotation ? "play" : "cancel" };
    if (legal.moves.get(from)?.has(cell)) return { act: "play" };
    if (ownMovable && ownMovable !== sel.piece) return { act: "select", piece: ownMovable };
    if (sel.piece.cells.includes(cell)) return { act: "cancel" };
    return { act: "try", move: `${from}-${cell}/${sel.rot}` };
  }
  if (ownMovable) return { act: "select", piece: ownMovable };
  return own ? { act: "blocked", piece: own } : { act: "none" };
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
