// How the AI-game test picks its moves: first make sure the game shows a
// rotation, a flat jump onto a piece and a bridge (playing them as soon as
// they are legal, and otherwise adding a piece that makes them possible),
// then let the server's analysis pick strong moves so that the game ends
// soon.
import { classify, enablingAdds, parseMove } from './rules.mjs';

export function newProgress() {
  return { rotation: null, jump: null, bridge: null, myMoves: 0 };
}

// a jump: onto a piece elsewhere, landing flat at level 1 or more (a turn in place does not count)
const isJump = (r) => r.level > 0 && !r.bridge && r.from !== r.to;
const isBridge = (r) => r.bridge;

export async function chooseMove(api, geo, state, progress, { analyseMs = 150, planUntil = 14 } = {}) {
  const legal = state.legal_moves;
  const classified = legal.filter((m) => m.includes('-')).map((m) => classify(geo, state, m));
  if (!progress.bridge) {
    const b = classified.find((c) => c.bridge);
    if (b) return { move: b.text, why: 'bridge' };
  }
  if (!progress.jump) {
    const j = classified.find(isJump);
    if (j) return { move: j.text, why: 'jump' };
  }
  const haveMine = state.pieces.some((p) => p.side === state.to_move);
  if (haveMine && progress.myMoves < planUntil && (!progress.bridge || !progress.jump)) {
    const want = !progress.bridge ? isBridge : isJump;
    let adds = enablingAdds(geo, state, want, 20);
    if (!progress.rotation) adds = adds.filter((a) => a.rotation !== 0).concat(adds.filter((a) => a.rotation === 0));
    if (adds.length) return { move: adds[0].move, why: `prepare ${!progress.bridge ? 'bridge' : 'jump'}` };
  }
  let a = null;
  try {
    a = await api.analyse({ position: state.position, movetime: analyseMs });
  } catch (e) {
    // e.g. 503 busy: any legal move will do
  }
  let best = a && a.best && legal.includes(a.best) ? a.best : legal[0];
  if (!progress.rotation && parseMove(best).type !== 'pass' && parseMove(best).rotation === 0) {
    const mv = parseMove(best);
    const alt = legal.find((m) => m !== best && m.startsWith(mv.type === 'add' ? `${mv.kind}@${mv.to}/` : `${mv.from}-${mv.to}/`));
    if (alt) best = alt;
  }
  return { move: best, why: 'analysis' };
}

/**
 * Records what `move` did, from `after`: the state right after it (e.g.
 * `GET /api/games/{id}?ply=N`, so that no reply has changed it since).
 */
export function noteMove(progress, move, after, me) {
  const mv = parseMove(move);
  progress.myMoves++;
  if (mv.type === 'pass') return null;
  if (mv.rotation !== 0 && !progress.rotation) progress.rotation = move;
  if (mv.type !== 'move') return null;
  const piece = after.pieces.filter((x) => x.punct === mv.to && x.side === me).sort((a, b) => b.level - a.level)[0];
  if (piece && piece.level > 0 && !piece.bridge && mv.from !== mv.to && !progress.jump) progress.jump = move;
  if (piece && piece.bridge && !progress.bridge) progress.bridge = move;
  return piece || null;
}
