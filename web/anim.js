// The last move, animated when it arrives: a moved piece slides from
// where it was (and from its old level), an added one drops onto its
// place. Nothing moves for people who ask for reduced motion.

import { Board, LIFT } from "./board.js";

const ADD = /^[TCELMR]@([A-Q]\d+)\//;
const MOVE = /^([A-Q]\d+)-([A-Q]\d+)\//;

function reduced() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Animates `state`'s last move on `board` (already drawn), when `prev` is the position just before it. */
export function animateLastMove(board, prev, state) {
  if (!prev || !state.last_move || state.ply !== prev.ply + 1 || reduced()) return;
  const last = state.last_move;
  let x;
  if ((x = ADD.exec(last))) {
    const piece = Board.topPieceWithPunct(state, x[1]);
    const el = piece && board.pieceEl(piece.punct, piece.level);
    el?.animate?.([{ transform: "translate(0px, -36px)", opacity: 0 }, { transform: "translate(0px, 0px)", opacity: 1 }],
      { duration: 280, easing: "cubic-bezier(.3,.7,.4,1)" });
  } else if ((x = MOVE.exec(last))) {
    const [, from, to] = x;
    const before = Board.topPieceWithPunct(prev, from);
    const after = Board.topPieceWithPunct(state, to);
    const el = after && board.pieceEl(after.punct, after.level);
    if (!before || !el || !el.animate) return;
    const [fx, fy] = board.cellPt(from);
    const [tx, ty] = board.cellPt(to);
    const dx = fx - tx;
    const dy = fy - before.level * LIFT - (ty - after.level * LIFT);
    // Lifted a little on the way, so that it passes over other pieces.
    el.animate([
      { transform: `translate(${dx}px, ${dy}px)` },
      { transform: `translate(${dx / 2}px, ${dy / 2 - 14}px)`, offset: 0.5 },
      { transform: "translate(0px, 0px)" },
    ], { duration: from === to ? 220 : 380, easing: "ease-in-out" });
  }
}
