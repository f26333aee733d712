// The central count as the page shows it: which central cells count for a
// side (their top dot is that side's, from the state's stacks and the
// board's `central` cells) and the warning before a side's last piece.

import { t } from "./i18n.js";

/** The central cells whose top dot is `side`'s. */
export function countedCells(state, geom, side) {
  const cells = [];
  for (const c of geom.cells) {
    if (!c.central) continue;
    const top = (state.stacks[c.name] || []).at(-1);
    if (top && top.side === side) cells.push(c.name);
  }
  return cells;
}

/** The pieces `side` has left in reserve. */
export function reserveLeft(state, side) {
  return Object.values(state.reserves[side] || {}).reduce((n, k) => n + k, 0);
}

/**
 * What adding `side`'s last piece decides, in words (docs/API.md
 * `result`: "central count" in the standard game, "no connection" in the
 * basic one); "" unless `side` has one piece left.
 */
export function lastPieceWarning(state, side) {
  if (reserveLeft(state, side) !== 1) return "";
  if (state.variant === "basic") {
    return t("game.last_piece.basic");
  }
  const c = state.central || { white: 0, black: 0 };
  return t("game.last_piece.standard", { white: c.white, black: c.black });
}
