// Just enough PÜNCT geometry (from GET /api/board) for the tests to pick
// interesting moves: what a legal move lands on (level, bridge), and which
// addition would make a jump or a bridge possible on the next turn. The
// server stays the judge of legality: the tests only ever play moves from
// the state's `legal_moves`.

const DIRS = [[0, -1], [-1, -1], [-1, 0], [0, 1], [1, 1], [1, 0]];

export function parseMove(m) {
  let x = m.match(/^([TCELMR])@([A-Q]\d+)\/(\d)$/);
  if (x) return { type: 'add', kind: x[1], to: x[2], rotation: +x[3], text: m };
  x = m.match(/^([A-Q]\d+)-([A-Q]\d+)\/(\d)$/);
  if (x) return { type: 'move', from: x[1], to: x[2], rotation: +x[3], text: m };
  if (m === 'pass') return { type: 'pass', text: m };
  throw new Error(`not a move: ${m}`);
}

export class Geometry {
  constructor(board) {
    this.board = board;
    this.cells = new Map(); // name -> {col,row,central}
    this.byPos = new Map(); // "col,row" -> name
    for (const c of board.cells) {
      this.cells.set(c.name, c);
      this.byPos.set(`${c.col},${c.row}`, c.name);
    }
    this.kinds = board.kinds;
    this.names = board.cells.map((c) => c.name);
  }

  at(col, row) { return this.byPos.get(`${col},${row}`) ?? null; }

  rotations(kind) { return this.kinds[kind].rotations.length; }

  /** The three cells (PÜNCT first) of `kind` at rotation r with its PÜNCT on `cell`, or null when off the board. */
  shape(kind, r, cell) {
    const c = this.cells.get(cell);
    const out = [];
    for (const [dc, dr] of this.kinds[kind].rotations[r]) {
      const n = this.at(c.col + dc, c.row + dr);
      if (!n) return null;
      out.push(n);
    }
    return out;
  }

  adjacent(a, b) {
    const A = this.cells.get(a), B = this.cells.get(b);
    return DIRS.some(([dc, dr]) => A.col + dc === B.col && A.row + dr === B.row);
  }

  /** Index (0–2) of the dot adjacent to both others (the middle), or -1 for a triangle. */
  middleIndex(cells) {
    for (let i = 0; i < 3; i++) {
      const [j, k] = [0, 1, 2].filter((x) => x !== i);
      if (this.adjacent(cells[i], cells[j]) && this.adjacent(cells[i], cells[k]) && !this.adjacent(cells[j], cells[k])) return i;
    }
    return -1;
  }

  inLine(a, b) {
    const A = this.cells.get(a), B = this.cells.get(b);
    return A.col === B.col || A.row === B.row || A.col - A.row === B.col - B.row;
  }

  lineCells(from) { return this.names.filter((n) => this.inLine(from, n)); }

  distance(a, b) {
    const A = this.cells.get(a), B = this.cells.get(b);
    const dc = A.col - B.col, dr = A.row - B.row;
    return Math.max(Math.abs(dc), Math.abs(dr), Math.abs(dc - dr));
  }
}

/**
 * A position the planner can change: the dots of each cell bottom-up
 * ({side, level}) and the pieces ({side, kind, punct, rotation, level, cells}).
 */
export class Board {
  constructor(geo, state) {
    this.geo = geo;
    this.stacks = new Map();
    for (const [cell, dots] of Object.entries(state.stacks)) {
      this.stacks.set(cell, dots.map((d) => ({ side: d.side, level: d.level })));
    }
    this.pieces = state.pieces.map((p) => ({ side: p.side, kind: p.kind, punct: p.punct, rotation: p.rotation, level: p.level, cells: [...p.cells] }));
  }

  clone() {
    const b = Object.create(Board.prototype);
    b.geo = this.geo;
    b.stacks = new Map([...this.stacks].map(([k, v]) => [k, v.slice()]));
    b.pieces = this.pieces.map((p) => ({ ...p, cells: [...p.cells] }));
    return b;
  }

  top(cell) { const s = this.stacks.get(cell); return s && s.length ? s[s.length - 1] : null; }

  /** Height of `cell` and the side on top, with `lifted` (a piece) taken off. */
  heightAt(cell, lifted) {
    const s = this.stacks.get(cell) || [];
    let i = s.length - 1;
    while (i >= 0 && lifted && lifted.cells.includes(cell) && s[i].level === lifted.level) i--;
    return i < 0 ? { h: 0, side: null } : { h: s[i].level + 1, side: s[i].side };
  }

  covered(p) {
    return p.cells.some((c) => (this.stacks.get(c) || []).some((d) => d.level > p.level));
  }

  /** The visible piece whose PÜNCT is on `cell`. */
  pieceAt(cell) {
    const t = this.top(cell);
    if (!t) return null;
    return this.pieces.find((p) => p.punct === cell && p.level === t.level) || null;
  }

  add(side, kind, cell, r) {
    const cells = this.geo.shape(kind, r, cell);
    for (const c of cells) {
      if (!this.stacks.has(c)) this.stacks.set(c, []);
      this.stacks.get(c).push({ side, level: 0 });
    }
    this.pieces.push({ side, kind, punct: cell, rotation: r, level: 0, cells });
  }

  /**
   * Where relocating `p` to (to, r) lands, by the rules (RULES.md §4), or
   * null when illegal: {level, bridge}.
   */
  relocation(p, to, r, me) {
    const geo = this.geo;
    if (to === p.punct && r === p.rotation) return null;
    if (!geo.inLine(p.punct, to)) return null;
    const cells = geo.shape(p.kind, r, to);
    if (!cells) return null;
    const hs = cells.map((c) => this.heightAt(c, p));
    const L = Math.max(...hs.map((x) => x.h));
    if (L === 0) return { level: 0, bridge: false, cells, from: p.punct, to };
    if (hs.every((x) => x.h === L)) return hs[0].side === me ? { level: L, bridge: false, cells, from: p.punct, to } : null;
    if (p.kind === 'T') return null;
    const m = geo.middleIndex(cells);
    if (m < 0) return null;
    const ends = [0, 1, 2].filter((i) => i !== m);
    if (!ends.every((i) => hs[i].h === L) || !(hs[m].h < L)) return null;
    if (!(hs[0].h >= 1 && hs[0].side === me)) return null;
    return { level: L, bridge: true, cells, from: p.punct, to };
  }

  /** Every relocation of `me`'s uncovered pieces satisfying `want(result)`. */
  relocations(me, want, onlyPieces, near) {
    const out = [];
    for (const p of onlyPieces || this.pieces) {
      if (p.side !== me || this.covered(p)) continue;
      for (const to of this.geo.lineCells(p.punct)) {
        if (near && !near.some((c) => this.geo.distance(c, to) <= 2)) continue;
        for (let r = 0; r < this.geo.rotations(p.kind); r++) {
          const res = this.relocation(p, to, r, me);
          if (res && want(res)) out.push(`${p.punct}-${to}/${r}`);
        }
      }
    }
    return out;
  }
}

/** What a legal move from `state` does: {type, level, bridge} (level/bridge for relocations). */
export function classify(geo, state, moveText) {
  const mv = parseMove(moveText);
  if (mv.type !== 'move') return { ...mv, level: 0, bridge: false };
  const b = new Board(geo, state);
  const p = b.pieceAt(mv.from);
  if (!p) return { ...mv, level: -1, bridge: false };
  const res = b.relocation(p, mv.to, mv.rotation, state.to_move);
  return { ...mv, level: res ? res.level : -1, bridge: res ? res.bridge : false };
}

/**
 * Additions from `state`'s legal moves after which `me` would have a
 * relocation satisfying `want` that it does not have now; best first
 * (the one opening the most such relocations).
 */
export function enablingAdds(geo, state, want, limit = 5) {
  const me = state.to_move;
  const scored = [];
  for (const m of state.legal_moves) {
    const mv = parseMove(m);
    if (mv.type !== 'add') continue;
    const b = new Board(geo, state);
    b.add(me, mv.kind, mv.to, mv.rotation);
    const newCells = new Set(b.pieces[b.pieces.length - 1].cells);
    const found = b.relocations(me, (res) => want(res) && res.cells.some((c) => newCells.has(c)), undefined, [...newCells]);
    const own = b.relocations(me, want, [b.pieces[b.pieces.length - 1]]);
    const n = found.length + own.length;
    if (n > 0) scored.push({ move: m, n, rotation: mv.rotation });
  }
  scored.sort((a, b) => b.n - a.n);
  return scored.slice(0, limit);
}
