// The board as SVG: cells, sides, labels, pieces with their levels and
// bridges, and the overlays of the game screen (legal targets, ghost piece,
// lines through a PÜNCT, the engine's best move). No rules here: what is
// legal always comes from the game's state.

const NS = "http://www.w3.org/2000/svg";
export const HEX = 20; // a cell's circumradius in SVG units
const COL_STEP = 1.5 * HEX; // flat-topped hexes: columns 1.5 radii apart
const ROW_STEP = Math.sqrt(3) * HEX; // and rows one hex height apart
const DOT = 0.5 * HEX; // a dot's radius
const LIFT = 3; // how far up each level draws a piece (so stacks look stacked)
const PAIR_COLOURS = ["#c0392b", "#2e6fb7", "#2f8f4e"];

export function svg(tag, attrs = {}, parent = null) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, v);
  if (parent) parent.append(el);
  return el;
}

/**
 * Centre of cell (col, row); fractional values give points in between.
 * Rows go up the screen and each column is half a row higher than the one
 * on its left, so the six neighbour steps [0,±1] [±1,±1] [±1,0] land on
 * the six hex neighbours.
 */
export function centre(col, row) {
  return [col * COL_STEP, -(row - col / 2) * ROW_STEP];
}

function hexPoints([x, y], r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    pts.push(`${(x + r * Math.cos(a)).toFixed(2)},${(y + r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

/** Whether two [col,row] positions are neighbours (the six steps of docs/API.md). */
function adjacent([c1, r1], [c2, r2]) {
  const dc = c2 - c1;
  const dr = r2 - r1;
  return Math.abs(dc) <= 1 && Math.abs(dr) <= 1 && (dc || dr) && dc * dr >= 0;
}

/** The board of GET /api/board, indexed for drawing. */
export class Geometry {
  constructor(info) {
    this.cells = info.cells;
    this.kinds = info.kinds;
    this.pairs = info.pairs;
    this.byName = new Map(info.cells.map((c) => [c.name, c]));
    this.byPos = new Map(info.cells.map((c) => [`${c.col},${c.row}`, c]));
  }
  cell(name) {
    return this.byName.get(name);
  }
  at(col, row) {
    return this.byPos.get(`${col},${row}`);
  }
  pos(name) {
    const c = this.cell(name);
    return [c.col, c.row];
  }
  rotations(kind) {
    return this.kinds[kind].rotations.length;
  }
  /** The dots of a piece as [col,row] (PÜNCT first), on the board or not. */
  footprint(kind, rotation, punct) {
    const [col, row] = this.pos(punct);
    return this.kinds[kind].rotations[rotation].map(([dc, dr]) => [col + dc, row + dr]);
  }
  /** The three lines through `name` (column, diagonal, row) as [end, end]. */
  lines(name) {
    const [col, row] = this.pos(name);
    return [[0, 1], [1, 1], [1, 0]].map(([dc, dr]) => {
      const walk = (sign) => {
        let c = col;
        let r = row;
        while (this.at(c + sign * dc, r + sign * dr)) {
          c += sign * dc;
          r += sign * dr;
        }
        return [c, r];
      };
      return [walk(-1), walk(1)];
    });
  }
}

/**
 * Draws one piece into `parent`: its three dots joined by bars, the PÜNCT
 * ringed, lifted and shadowed by its level; dots in `bridged` (indices)
 * hang over a lower cell and get dashed supports.
 */
export function drawPiece(parent, { dots, side, level = 0, bridged = [], cls = "", attrs = {}, shadow = true }) {
  const g = svg("g", { class: `piece ${side} ${cls}`.trim(), ...attrs }, parent);
  const lift = Math.min(level, 10) * LIFT;
  const ground = dots.map(([c, r]) => centre(c, r));
  const p = ground.map(([x, y]) => [x, y - lift]);
  const bars = [];
  for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) if (adjacent(dots[i], dots[j])) bars.push([i, j]);
  const line = (i, j, klass, parentEl, dx = 0, dy = 0) =>
    svg("line", { class: klass, x1: p[i][0] + dx, y1: p[i][1] + dy, x2: p[j][0] + dx, y2: p[j][1] + dy }, parentEl);
  if (shadow) {
    // Higher pieces cast a larger, darker shadow.
    const off = 1.5 + 1.5 * level;
    const s = svg("g", { class: "shadow", opacity: Math.min(0.2 + 0.08 * level, 0.6).toFixed(2) }, g);
    for (const [i, j] of bars) line(i, j, "shadow-bar", s, off, off);
    for (const [x, y] of p) svg("circle", { cx: x + off, cy: y + off, r: DOT }, s);
  }
  for (const i of bridged) {
    svg("line", { class: "support", x1: ground[i][0], y1: ground[i][1], x2: p[i][0], y2: p[i][1] }, g);
    svg("circle", { class: "support", cx: ground[i][0], cy: ground[i][1], r: DOT * 0.55 }, g);
  }
  for (const [i, j] of bars) line(i, j, "bar-edge", g);
  for (const [i, j] of bars) line(i, j, "bar", g);
  p.forEach(([x, y], i) =>
    svg("circle", { class: bridged.includes(i) ? "dot bridged" : "dot", cx: x, cy: y, r: DOT }, g),
  );
  svg("circle", { class: "punct-mark", cx: p[0][0], cy: p[0][1], r: DOT * 0.45 }, g);
  return g;
}

/** A small SVG of a piece kind at a rotation (reserve buttons, rotation display). */
export function pieceIcon(geom, kind, rotation, side) {
  const dots = geom.kinds[kind].rotations[rotation];
  const pts = dots.map(([c, r]) => centre(c, r));
  const xs = pts.map((q) => q[0]);
  const ys = pts.map((q) => q[1]);
  const pad = DOT + 2;
  const x0 = Math.min(...xs) - pad;
  const y0 = Math.min(...ys) - pad;
  const w = Math.max(...xs) - x0 + pad;
  const hgt = Math.max(...ys) - y0 + pad;
  // A square view box, so every kind is drawn at the same scale.
  const size = Math.max(w, hgt, 3 * ROW_STEP);
  const el = svg("svg", {
    class: "piece-icon",
    viewBox: `${(x0 - (size - w) / 2).toFixed(1)} ${(y0 - (size - hgt) / 2).toFixed(1)} ${size.toFixed(1)} ${size.toFixed(1)}`,
    "aria-hidden": "true",
  });
  drawPiece(el, { dots, side, shadow: false });
  return el;
}

export class Board {
  /** handlers: onCell(name), onHover(name | null), onWheel(deltaY) → true if used */
  constructor(geom, handlers) {
    this.geom = geom;
    const pts = geom.cells.map((c) => centre(c.col, c.row));
    const pad = 2.4 * HEX;
    const x0 = Math.min(...pts.map((q) => q[0])) - pad;
    const y0 = Math.min(...pts.map((q) => q[1])) - pad;
    const w = Math.max(...pts.map((q) => q[0])) - x0 + pad;
    const hgt = Math.max(...pts.map((q) => q[1])) - y0 + pad;
    this.el = svg("svg", {
      class: "board",
      "data-testid": "board",
      viewBox: `${x0.toFixed(1)} ${y0.toFixed(1)} ${w.toFixed(1)} ${hgt.toFixed(1)}`,
      role: "img",
      "aria-label": "PÜNCT board",
    });
    const defs = svg("defs", {}, this.el);
    const marker = svg("marker", {
      id: "punct-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse",
    }, defs);
    svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow-head" }, marker);
    const layer = (name) => svg("g", { class: name }, this.el);
    this.base = layer("base");
    this.marks = layer("marks"); // under the pieces: winning chain
    this.piecesLayer = layer("pieces");
    this.badges = layer("badges"); // stack heights
    this.outlines = layer("outlines"); // last move
    this.overlay = layer("overlay"); // selection, ghost, best move
    this.hitsLayer = layer("hits"); // transparent cells on top: every click lands here
    this.drawBase();
    this.hits = new Map();
    for (const c of geom.cells) {
      this.hits.set(c.name, svg("polygon", {
        class: "hit", "data-cell": c.name, points: hexPoints(centre(c.col, c.row), HEX),
      }, this.hitsLayer));
    }
    const cellOf = (e) => e.target.closest && e.target.closest("[data-cell]");
    this.hitsLayer.addEventListener("click", (e) => {
      const c = cellOf(e);
      if (c) handlers.onCell(c.dataset.cell);
    });
    // pointerover also fires when a finger touches down, so taps hover too.
    this.hitsLayer.addEventListener("pointerover", (e) => {
      const c = cellOf(e);
      if (c) handlers.onHover(c.dataset.cell);
    });
    this.el.addEventListener("pointerleave", () => handlers.onHover(null));
    this.el.addEventListener("wheel", (e) => {
      if (handlers.onWheel(e.deltaY)) e.preventDefault();
    }, { passive: false });
  }

  drawBase() {
    const { geom, base } = this;
    for (const c of geom.cells) {
      svg("polygon", {
        class: c.central ? "hex central" : "hex",
        points: hexPoints(centre(c.col, c.row), HEX * 0.96),
      }, base);
    }
    // Each pair of opposite sides gets a stripe of one colour outside its cells.
    const [bx, by] = centre(8, 9); // I9, the centre
    geom.pairs.forEach((pair, i) => {
      for (const edge of pair) {
        const cells = geom.cells.filter((c) => c.edges.includes(edge))
          .sort((a, b) => a.col - b.col || a.row - b.row);
        const [ax, ay] = centre(cells[0].col, cells[0].row);
        const [zx, zy] = centre(cells.at(-1).col, cells.at(-1).row);
        const len = Math.hypot(zx - ax, zy - ay);
        const [ux, uy] = [(zx - ax) / len, (zy - ay) / len];
        let [nx, ny] = [-uy, ux];
        if (nx * (ax - bx) + ny * (ay - by) < 0) [nx, ny] = [-nx, -ny]; // point outwards
        const off = HEX + 4;
        const ext = ROW_STEP * 0.4;
        const stripe = svg("line", {
          class: "side-stripe", "data-edge": edge, stroke: PAIR_COLOURS[i % 3],
          x1: ax + nx * off - ux * ext, y1: ay + ny * off - uy * ext,
          x2: zx + nx * off + ux * ext, y2: zy + ny * off + uy * ext,
        }, base);
        svg("title", {}, stripe).textContent = `${edge}: connect it to ${pair.find((e) => e !== edge)}`;
      }
    });
    // Coordinates: column letters under each column, row numbers at the
    // left end of each row (one end each: the slanted sides would crowd).
    const label = (text, [x, y]) => {
      svg("text", { class: "coord", x: x.toFixed(1), y: y.toFixed(1) }, base).textContent = text;
    };
    const colLow = new Map();
    const rowLow = new Map();
    for (const c of geom.cells) {
      colLow.set(c.col, Math.min(colLow.get(c.col) ?? Infinity, c.row));
      rowLow.set(c.row, Math.min(rowLow.get(c.row) ?? Infinity, c.col));
    }
    for (const [col, row] of colLow) label(String.fromCharCode(65 + col), centre(col, row - 1.3));
    for (const [row, col] of rowLow) label(String(row), centre(col - 1.35, row));
  }

  /** The cells of the top piece whose PÜNCT is on `cell` (for the last move). */
  static topPieceWithPunct(state, cell) {
    let found = null;
    for (const p of state.pieces) if (p.punct === cell && (!found || p.level > found.level)) found = p;
    return found;
  }

  /**
   * Draws the pieces of `state`. opts: dimSide (own immobile pieces are
   * dimmed on one's turn), lifted (the piece being moved).
   */
  setPosition(state, { dimSide = null, lifted = null } = {}) {
    const { geom } = this;
    for (const l of [this.marks, this.piecesLayer, this.badges, this.outlines]) l.replaceChildren();
    const stacks = state.stacks || {};
    for (const p of state.pieces) {
      // A dot with nothing right under it (level − 1) hangs as a bridge.
      const bridged = [];
      if (p.level > 0) {
        p.cells.forEach((cell, i) => {
          if (!(stacks[cell] || []).some((d) => d.level === p.level - 1)) bridged.push(i);
        });
      }
      const cls = [
        dimSide && p.side === dimSide && !p.movable ? "immobile" : "",
        p.movable ? "movable" : "",
        lifted === p ? "lifted" : "",
      ].join(" ");
      drawPiece(this.piecesLayer, {
        dots: p.cells.map((c) => geom.pos(c)),
        side: p.side,
        level: p.level,
        bridged,
        cls,
        attrs: {
          "data-piece-cell": p.punct, "data-side": p.side, "data-kind": p.kind,
          "data-level": p.level, "data-rotation": p.rotation,
        },
      });
    }
    // The height of every stack above the board, as a number by its top dot.
    for (const [cell, dots] of Object.entries(stacks)) {
      const top = dots.at(-1);
      if (!top || top.level < 1) continue;
      const [col, row] = geom.pos(cell);
      const [x, y] = centre(col, row);
      const lift = Math.min(top.level, 10) * LIFT;
      const g = svg("g", { class: "height", "data-height-cell": cell }, this.badges);
      svg("circle", { cx: x + DOT * 0.85, cy: y - lift - DOT * 0.85, r: 6 }, g);
      svg("text", { x: x + DOT * 0.85, y: y - lift - DOT * 0.85 }, g).textContent = String(top.level + 1);
    }
    // The last move: the piece's cells outlined, a moved piece's origin dashed.
    const last = state.last_move || "";
    const add = last.match(/^([TCELMR])@([A-Q]\d+)\//);
    const move = last.match(/^([A-Q]\d+)-([A-Q]\d+)\//);
    const piece = add ? Board.topPieceWithPunct(state, add[2]) : move ? Board.topPieceWithPunct(state, move[2]) : null;
    if (piece) for (const c of piece.cells) this.outline(c, "last-move");
    if (move && move[1] !== move[2]) this.outline(move[1], "last-from");
    // The winning chain.
    const chain = (state.result && state.result.chain) || [];
    for (const c of chain) {
      svg("polygon", { class: "chain", points: hexPoints(centre(...geom.pos(c)), HEX * 0.96) }, this.marks);
      this.outline(c, "chain-outline");
    }
  }

  outline(cell, cls, layer = this.outlines) {
    if (!this.geom.cell(cell)) return;
    svg("polygon", { class: cls, points: hexPoints(centre(...this.geom.pos(cell)), HEX * 0.9) }, layer);
  }

  /**
   * The interactive layer. o: mode ("add" | "move" | undefined), legal (Set of cells, get class `legal`),
   * movable (Set of cells), origin (cell), lines (cell whose three lines
   * are drawn), ghost {dots, side, legal}, best {dots, side, from, to}.
   */
  setOverlay(o) {
    const { overlay, geom } = this;
    overlay.replaceChildren();
    // Adding has many targets: the stylesheet shows them more quietly then.
    this.el.classList.toggle("adding", o.mode === "add");
    this.el.classList.toggle("moving", o.mode === "move");
    for (const [name, hit] of this.hits) {
      hit.classList.toggle("legal", !!(o.legal && o.legal.has(name)));
      hit.classList.toggle("movable", !!(o.movable && o.movable.has(name)));
      hit.classList.toggle("hovered", o.hover === name);
    }
    if (o.lines) {
      for (const [a, b] of geom.lines(o.lines)) {
        const [x1, y1] = centre(...a);
        const [x2, y2] = centre(...b);
        svg("line", { class: "in-line", x1, y1, x2, y2 }, overlay);
      }
    }
    if (o.best) {
      const b = o.best;
      if (b.from && b.from !== b.to) {
        const [x1, y1] = centre(...geom.pos(b.from));
        const [x2, y2] = centre(...geom.pos(b.to));
        svg("line", { class: "best-arrow", x1, y1, x2, y2, "marker-end": "url(#punct-arrow)" }, overlay);
      }
      if (b.dots) drawPiece(overlay, { dots: b.dots, side: b.side, cls: "best", shadow: false, attrs: { "data-best": "" } });
    }
    if (o.origin) {
      const [x, y] = centre(...geom.pos(o.origin));
      svg("circle", { class: "origin-mark", cx: x, cy: y, r: DOT * 1.35, "data-origin": o.origin }, overlay);
    }
    if (o.ghost) {
      drawPiece(overlay, {
        dots: o.ghost.dots, side: o.ghost.side, shadow: false,
        cls: o.ghost.legal ? "ghost" : "ghost bad",
        attrs: { "data-ghost": "" },
      });
    }
  }
}
