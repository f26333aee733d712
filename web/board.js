// The board as SVG: cells, sides, labels, and the pieces drawn in an
// oblique view: every piece is a slab one level thick standing on what is
// under it, so a stack's height reads as height. Layers, bottom up: the
// board, marks on the ground (last move, lines, hover, chain, counted
// centre), the pieces, marks above the pieces (counted dots, legal
// targets, origin, hover outline), height badges (never covered by a
// mark), the ghost and best move, and on top the
// transparent cells that take every click. No rules here: what is legal
// always comes from the game's state. Keyboard play (kbd.js) adds a
// cursor on top (setCursor) and the words for the board (its label) come
// from t() (i18n.js).

import { t } from "./i18n.js";
import { edgeName } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";
export const HEX = 20; // a cell's circumradius in SVG units
const COL_STEP = 1.5 * HEX; // flat-topped hexes: columns 1.5 radii apart
const ROW_STEP = Math.sqrt(3) * HEX; // and rows one hex height apart
export const DOT = 0.45 * HEX; // a dot's radius
export const LIFT = 8; // a piece's thickness: each level draws a piece this much higher
const BAR = 0.36 * HEX; // the width of the bar joining two dots
const EDGE = 1.1; // outline width of a piece
const BADGE_R = 6.5; // a height badge's radius (grown on small screens, see drawBadges)
// Where a badge may sit round its dot, as unit steps on the screen: the
// upper right first, then the directions nearest to it.
const offUpperRight = (a) => Math.min(Math.abs(a - Math.PI / 4), 2 * Math.PI - Math.abs(a - Math.PI / 4));
const BADGE_SPOTS = Array.from({ length: 24 }, (_, i) => (i * Math.PI) / 12)
  .sort((a, b) => offUpperRight(a) - offUpperRight(b))
  .map((a) => [Math.cos(a), -Math.sin(a)]);
// Okabe–Ito's vermillion, blue and bluish green, darkened to one
// lightness: told apart with any colour vision, at least 3:1 against the
// page in light and dark mode, and white names on them at 4.5:1.
export const PAIR_COLOURS = ["#c24f00", "#0072b2", "#00805d"];
// Each pair of sides also has its own pattern, so colour is not the only cue.
export const PAIR_DASH = [null, "16 7", "3 7"];

export function svg(tag, attrs = {}, parent = null) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, v);
  if (parent) parent.append(el);
  return el;
}

/**
 * Centre of cell (col, row) on the ground; fractional values give points
 * in between. Rows go up the screen and each column is half a row higher
 * than the one on its left, so the six neighbour steps [0,±1] [±1,±1]
 * [±1,0] land on the six hex neighbours.
 */
export function centre(col, row) {
  return [col * COL_STEP, -(row - col / 2) * ROW_STEP];
}

export function hexPoints([x, y], r) {
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

/** Which pairs of dots (indices) are joined by a bar: the neighbours. */
function barsOf(dots) {
  const bars = [];
  for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) if (adjacent(dots[i], dots[j])) bars.push([i, j]);
  return bars;
}

const xy = ([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`;

/**
 * Draws one piece into `parent`. ground: the three cells' centres on the
 * board (PÜNCT first); bars: the pairs joined. The piece is a slab from
 * `level` to `level + 1`, lifted LIFT per level: its side face shows its
 * thickness, its top face its colour. Per dot (index): `gaps[i]` levels of
 * empty space under it (a bridge: the surface below is drawn with a shadow
 * and the empty column dashed), `covered[i]` something lies on it.
 * `halo`: the piece may move (a ring round its top face).
 */
export function drawPiece(parent, {
  ground, bars, side, level = 0, lift = LIFT, cls = "", attrs = {},
  gaps = [], covered = [], halo = false, shadow = true, names = [],
}) {
  const g = svg("g", { class: `piece ${side} ${cls}`.trim(), ...attrs }, parent);
  const bottom = ground.map(([x, y]) => [x, y - level * lift]);
  const top = ground.map(([x, y]) => [x, y - (level + 1) * lift]);
  // Under a bridge: the shadow on the surface below and the empty column.
  gaps.forEach((n, i) => {
    if (!n) return;
    const [x, y] = bottom[i];
    const sy = y + n * lift;
    svg("circle", { class: "gap-shadow", cx: x + 1, cy: sy + 1, r: DOT * 0.95 }, g);
    for (const dx of [-DOT, DOT]) svg("line", { class: "gap-line", x1: x + dx, y1: sy, x2: x + dx, y2: y }, g);
  });
  if (shadow) {
    const s = svg("g", { class: "drop" }, g);
    for (const [i, j] of bars) svg("line", { x1: bottom[i][0] + 1.5, y1: bottom[i][1] + 1.5, x2: bottom[j][0] + 1.5, y2: bottom[j][1] + 1.5, "stroke-width": BAR + 2 }, s);
    bottom.forEach(([x, y], i) => { if (!gaps[i]) svg("circle", { cx: x + 1.5, cy: y + 1.5, r: DOT + 0.5 }, s); });
  }
  // The side face: every dot and bar swept from the bottom to the top.
  if (lift > 0) {
    for (const [klass, grow] of [["side-edge", 2 * EDGE], ["side", 0]]) {
      const body = svg("g", { class: klass }, g);
      for (const [i, j] of bars) {
        svg("polygon", { points: [bottom[i], bottom[j], top[j], top[i]].map(xy).join(" "), "stroke-width": BAR + grow }, body);
      }
      bottom.forEach(([x, y], i) => {
        svg("line", { x1: x, y1: y, x2: top[i][0], y2: top[i][1], "stroke-width": 2 * DOT + grow }, body);
      });
    }
  }
  // The top face.
  if (halo) {
    const ring = svg("g", { class: "halo" }, g);
    for (const [i, j] of bars) svg("line", { x1: top[i][0], y1: top[i][1], x2: top[j][0], y2: top[j][1], "stroke-width": BAR + 5 }, ring);
    for (const [x, y] of top) svg("circle", { cx: x, cy: y, r: DOT + 2.4 }, ring);
  }
  for (const [i, j] of bars) svg("line", { class: "bar-edge", x1: top[i][0], y1: top[i][1], x2: top[j][0], y2: top[j][1], "stroke-width": BAR + 2 * EDGE }, g);
  for (const [i, j] of bars) svg("line", { class: "bar", x1: top[i][0], y1: top[i][1], x2: top[j][0], y2: top[j][1], "stroke-width": BAR }, g);
  top.forEach(([x, y], i) => {
    svg("circle", { class: covered[i] ? "dot covered" : "dot", cx: x, cy: y, r: DOT, "stroke-width": EDGE, "data-dot": names[i] }, g);
  });
  svg("circle", { class: "punct-mark", cx: top[0][0], cy: top[0][1], r: DOT * 0.45 }, g);
  return g;
}

/** A height badge: the number in a disc, `scale` times its normal size. */
export function drawBadge(parent, [x, y], height, { gap = false, scale = 1, attrs = {} } = {}) {
  const g = svg("g", {
    class: gap ? "height gap" : "height", transform: `translate(${x.toFixed(2)} ${y.toFixed(2)}) scale(${scale.toFixed(3)})`, ...attrs,
  }, parent);
  svg("circle", { cx: 0, cy: 0, r: BADGE_R }, g);
  svg("text", { x: 0, y: 0.4 }, g).textContent = String(height);
  return g;
}

/** A legal target: a ring on the surface where the piece would land. */
export function drawTarget(parent, [x, y], quiet = false) {
  const g = svg("g", { class: quiet ? "target quiet" : "target" }, parent);
  svg("circle", { cx: x, cy: y, r: quiet ? 3.2 : 5.5 }, g);
  return g;
}

/** A small SVG of a piece kind at a rotation (reserve buttons, rotation display). */
export function pieceIcon(geom, kind, rotation, side, flipped = false) {
  const dots = geom.kinds[kind].rotations[rotation];
  const f = flipped ? -1 : 1;
  const pts = dots.map(([c, r]) => centre(c, r).map((v) => v * f));
  const xs = pts.map((q) => q[0]);
  const ys = pts.map((q) => q[1]);
  const lift = 3;
  const pad = DOT + 2;
  const x0 = Math.min(...xs) - pad;
  const y0 = Math.min(...ys) - pad - lift;
  const w = Math.max(...xs) - x0 + pad;
  const hgt = Math.max(...ys) - y0 + pad;
  // A square view box, so every kind is drawn at the same scale.
  const size = Math.max(w, hgt, 3 * ROW_STEP);
  const el = svg("svg", {
    class: "piece-icon",
    viewBox: `${(x0 - (size - w) / 2).toFixed(1)} ${(y0 - (size - hgt) / 2).toFixed(1)} ${size.toFixed(1)} ${size.toFixed(1)}`,
    "aria-hidden": "true",
  });
  drawPiece(el, { ground: pts, bars: barsOf(dots), side, lift, shadow: false });
  return el;
}

/** About how wide `text` is at font size 1 (wide scripts count about twice). */
function textWidth(text) {
  let w = 0;
  for (const ch of text) w += ch.codePointAt(0) >= 0x2e80 ? 1 : 0.6;
  return w;
}

/** Keeps an angle (degrees) so that text along it reads left to right. */
function upright(deg) {
  let a = ((deg % 360) + 360) % 360;
  if (a > 90 && a <= 270) a -= 180;
  return a > 180 ? a - 360 : a;
}

export class Board {
  /**
   * handlers: onCell(name), onHover(name | null), onWheel(deltaY) → true
   * if used, onPointer(pointerType) (every pointerdown on the board).
   */
  constructor(geom, handlers, { flipped = false } = {}) {
    this.geom = geom;
    this.flipped = flipped;
    this.pxPerUnit = 1;
    this.state = null;
    this.opts = {};
    this.over = {};
    this.el = svg("svg", {
      class: "board",
      "data-testid": "board",
      role: "img",
      "aria-label": t("a11y.board.name"),
    });
    this.fixedLabel = null; // setLabel(): a label of the screen's instead of the summary
    this.hint = null; // setKeyboardHint(): how to play it by keyboard (kbd.js)
    this.cursor = null; // the keyboard cursor's cell (kbd.js)
    const defs = svg("defs", {}, this.el);
    const marker = svg("marker", {
      id: "punct-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse",
    }, defs);
    svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow-head" }, marker);
    const layer = (name) => svg("g", { class: name }, this.el);
    this.base = layer("base");
    this.ground = layer("ground"); // winning chain, last move, counted centre
    this.groundOverlay = layer("ground-overlay"); // hover, the three lines
    this.piecesLayer = layer("pieces");
    this.posMarks = layer("pos-marks"); // counted dots' rings
    this.marks = layer("marks"); // legal targets, origin, hover outline
    this.badges = layer("badges"); // stack heights, above every piece and mark
    this.overlay = layer("overlay"); // ghost, best move
    this.hitsLayer = layer("hits"); // transparent cells on top: every click lands here
    this.cursorLayer = layer("cursor-layer"); // the keyboard cursor (kbd.js), above all
    this.hits = new Map();
    for (const c of geom.cells) {
      this.hits.set(c.name, svg("polygon", { class: "hit", "data-cell": c.name }, this.hitsLayer));
    }
    this.drawBase();
    const cellOf = (e) => {
      const c = e.target.closest && e.target.closest("[data-cell]");
      return c ? this.route(e, c.dataset.cell) : null;
    };
    this.hitsLayer.addEventListener("click", (e) => {
      const c = cellOf(e);
      if (c) handlers.onCell(c);
    });
    // pointerover also fires when a finger touches down, so taps hover too;
    // pointermove follows the pointer onto a tall stack drawn over a cell.
    for (const type of ["pointerover", "pointermove"]) {
      this.hitsLayer.addEventListener(type, (e) => {
        const c = cellOf(e);
        if (c) handlers.onHover(c);
      });
    }
    this.el.addEventListener("pointerdown", (e) => handlers.onPointer?.(e.pointerType));
    this.el.addEventListener("pointerleave", () => handlers.onHover(null));
    this.el.addEventListener("wheel", (e) => {
      if (handlers.onWheel(e.deltaY)) e.preventDefault();
    }, { passive: false });
    // Badges keep a readable size in pixels when the board is drawn small.
    if (typeof ResizeObserver === "function") {
      this.resize = new ResizeObserver(() => this.measure());
      this.resize.observe(this.el);
    }
  }

  /** The point of (col, row) on the screen's board (turned round when flipped). */
  pt(col, row) {
    const [x, y] = centre(col, row);
    return this.flipped ? [-x, -y] : [x, y];
  }

  cellPt(name) {
    return this.pt(...this.geom.pos(name));
  }

  /**
   * The cell a pointer event on `cell`'s hex means: a tall stack drawn in
   * front reaches up over the cells behind it, and a point on its column
   * means that stack (what the person sees there).
   */
  route(e, cell) {
    const stacks = this.state && this.state.stacks;
    if (!stacks || !this.el.getScreenCTM) return cell;
    const ctm = this.el.getScreenCTM();
    if (!ctm) return cell;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    let best = cell;
    let bestY = -Infinity;
    for (const [name, dots] of Object.entries(stacks)) {
      const h = dots.length ? dots.at(-1).level + 1 : 0;
      if (h < 2 || name === cell) continue;
      const [x, y] = this.cellPt(name);
      if (Math.abs(p.x - x) > DOT || p.y > y || p.y < y - h * LIFT - DOT) continue;
      // In front of the cell pointed at (drawn over it): the frontmost wins.
      if (y > this.cellPt(cell)[1] && y > bestY) {
        best = name;
        bestY = y;
      }
    }
    return best;
  }

  measure() {
    const r = this.el.getBoundingClientRect();
    if (!r.width || !this.vb) return;
    const ppu = Math.min(r.width / this.vb[2], r.height / this.vb[3]);
    if (Math.abs(ppu - this.pxPerUnit) < 0.02) return;
    this.pxPerUnit = ppu;
    this.drawBadges();
  }

  /** Turns the board round (half a turn) and redraws it. */
  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.drawBase();
    if (this.state) this.setPosition(this.state, this.opts);
    this.setOverlay(this.over);
  }

  /** The cells, the coloured sides with their names, the coordinates; sets the view box round them. */
  drawBase() {
    const { geom, base } = this;
    base.replaceChildren();
    const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    const grow = (x, y, rx = 0, ry = rx) => {
      box.x0 = Math.min(box.x0, x - rx);
      box.x1 = Math.max(box.x1, x + rx);
      box.y0 = Math.min(box.y0, y - ry);
      box.y1 = Math.max(box.y1, y + ry);
    };
    for (const c of geom.cells) {
      const p = this.pt(c.col, c.row);
      grow(...p, HEX);
      svg("polygon", {
        class: c.central ? "hex central" : "hex", "data-hex": c.name,
        points: hexPoints(p, HEX * 0.96),
      }, base);
      this.hits.get(c.name).setAttribute("points", hexPoints(p, HEX));
    }
    // Each pair of opposite sides: a stripe of one colour and pattern
    // outside its cells, named in the middle as the results name it.
    const [bx, by] = this.pt(8, 9); // I9, the centre
    const labels = svg("g", { class: "side-labels" });
    geom.pairs.forEach((pair, i) => {
      for (const edge of pair) {
        const cells = geom.cells.filter((c) => c.edges.includes(edge))
          .sort((a, b) => a.col - b.col || a.row - b.row);
        const [ax, ay] = this.pt(cells[0].col, cells[0].row);
        const [zx, zy] = this.pt(cells.at(-1).col, cells.at(-1).row);
        const len = Math.hypot(zx - ax, zy - ay);
        const [ux, uy] = [(zx - ax) / len, (zy - ay) / len];
        let [nx, ny] = [-uy, ux];
        if (nx * (ax - bx) + ny * (ay - by) < 0) [nx, ny] = [-nx, -ny]; // point outwards
        const off = HEX + 7;
        const ext = ROW_STEP * 0.4;
        const [x1, y1] = [ax + nx * off - ux * ext, ay + ny * off - uy * ext];
        const [x2, y2] = [zx + nx * off + ux * ext, zy + ny * off + uy * ext];
        grow(x1, y1, 4);
        grow(x2, y2, 4);
        const stripe = svg("line", {
          class: "side-stripe", "data-edge": edge, "data-pair": i, stroke: PAIR_COLOURS[i % 3],
          "stroke-dasharray": PAIR_DASH[i % 3], x1, y1, x2, y2,
        }, base);
        const other = pair.find((e) => e !== edge);
        const title = t("a11y.edge.title", { edge: edgeName(edge), other: edgeName(other) });
        svg("title", {}, stripe).textContent = title;
        // The name on a pill in the middle of the stripe, along it.
        const name = /^side /.test(edge) ? edge.slice(5) : edgeName(edge); // a side by its cells alone
        const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
        const angle = upright((Math.atan2(uy, ux) * 180) / Math.PI);
        const font = 9.5;
        const w = textWidth(name) * font + 9;
        const hgt = font + 4.5;
        const pill = svg("g", {
          class: "side-label", "data-edge": edge, "data-pair": i,
          transform: `translate(${mx.toFixed(2)} ${my.toFixed(2)}) rotate(${angle.toFixed(1)})`,
        }, labels);
        svg("rect", { x: -w / 2, y: -hgt / 2, width: w, height: hgt, rx: hgt / 2, fill: PAIR_COLOURS[i % 3] }, pill);
        svg("text", { x: 0, y: 0.3, "font-size": font }, pill).textContent = name;
        svg("title", {}, pill).textContent = title;
        const a = (angle * Math.PI) / 180;
        const ex = (Math.abs(Math.cos(a)) * w + Math.abs(Math.sin(a)) * hgt) / 2;
        const ey = (Math.abs(Math.sin(a)) * w + Math.abs(Math.cos(a)) * hgt) / 2;
        grow(mx, my, ex, ey);
      }
    });
    base.append(labels);
    // Coordinates: column letters under each column's end, row numbers at
    // the left end of each row (one end each: the slanted sides would crowd).
    const font = 12;
    const label = (text, [x, y]) => {
      svg("text", { class: "coord", x: x.toFixed(1), y: y.toFixed(1), "font-size": font }, base).textContent = text;
      grow(x, y, (text.length * font * 0.62) / 2, font * 0.6);
    };
    const colLow = new Map();
    const rowLow = new Map();
    for (const c of geom.cells) {
      colLow.set(c.col, Math.min(colLow.get(c.col) ?? Infinity, c.row));
      rowLow.set(c.row, Math.min(rowLow.get(c.row) ?? Infinity, c.col));
    }
    for (const [col, row] of colLow) label(String.fromCharCode(65 + col), this.pt(col, row - 1.45));
    for (const [row, col] of rowLow) label(String(row), this.pt(col - 1.4, row));
    // Room above for tall stacks near the far side.
    box.y0 -= 2 * LIFT;
    const pad = 3;
    this.vb = [box.x0 - pad, box.y0 - pad, box.x1 - box.x0 + 2 * pad, box.y1 - box.y0 + 2 * pad];
    this.el.setAttribute("viewBox", this.vb.map((v) => v.toFixed(1)).join(" "));
    this.aspect = this.vb[2] / this.vb[3];
    this.pxPerUnit = 0; // measured again
    this.measure();
  }

  /** The cells of the top piece whose PÜNCT is on `cell` (for the last move). */
  static topPieceWithPunct(state, cell) {
    let found = null;
    for (const p of state.pieces) if (p.punct === cell && (!found || p.level > found.level)) found = p;
    return found;
  }

  /** The height of `cell` (1 + its top dot's level), the dots of `lifted` (a piece) taken off. */
  surface(cell, lifted = null) {
    const dots = (this.state && this.state.stacks[cell]) || [];
    let h = 0;
    for (const d of dots) {
      const own = lifted && d.level === lifted.level && lifted.cells.includes(cell);
      if (!own) h = Math.max(h, d.level + 1);
    }
    return h;
  }

  /** The screen point of `cell`'s surface `h` levels up. */
  surfacePt(cell, h) {
    const [x, y] = this.cellPt(cell);
    return [x, y - h * LIFT];
  }

  /** The drawn group of the piece with its PÜNCT on `cell` at `level`. */
  pieceEl(cell, level) {
    return this.piecesLayer.querySelector(`[data-piece-cell="${cell}"][data-level="${level}"]`);
  }

  /**
   * Draws the pieces of `state`. opts: movable (Set of pieces that get a
   * halo: they may move now), lifted (the piece being moved, drawn faint),
   * counted {side, cells}: central cells whose top dot counts for side.
   */
  setPosition(state, opts = {}) {
    const { geom } = this;
    this.state = state;
    this.opts = opts;
    const { movable = null, lifted = null, counted = null } = opts;
    for (const l of [this.ground, this.piecesLayer, this.posMarks]) l.replaceChildren();
    const stacks = state.stacks || {};
    // Lower pieces first; at one level, the far ones first.
    const order = state.pieces.map((p) => ({ p, y: Math.max(...p.cells.map((c) => this.cellPt(c)[1])) }))
      .sort((a, b) => a.p.level - b.p.level || a.y - b.y);
    for (const { p } of order) {
      const dots = p.cells.map((c) => geom.pos(c));
      const gaps = [];
      const covered = [];
      p.cells.forEach((cell, i) => {
        const below = stacks[cell] || [];
        let surface = 0;
        for (const d of below) if (d.level < p.level) surface = Math.max(surface, d.level + 1);
        gaps[i] = p.level - surface;
        covered[i] = below.some((d) => d.level > p.level);
      });
      const cls = [lifted === p ? "lifted" : "", p.bridge ? "bridge" : ""].join(" ");
      drawPiece(this.piecesLayer, {
        ground: dots.map((d) => this.pt(...d)),
        bars: barsOf(dots),
        side: p.side,
        level: p.level,
        names: p.cells,
        gaps,
        covered,
        halo: !!(movable && movable.has(p)) && lifted !== p,
        cls,
        attrs: {
          "data-piece-cell": p.punct, "data-side": p.side, "data-kind": p.kind,
          "data-level": p.level, "data-rotation": p.rotation,
        },
      });
    }
    this.drawBadges();
    this.drawCursor();
    this.updateLabel();
    // The last move: the piece's cells outlined, a moved piece's origin dashed.
    const last = state.last_move || "";
    const add = last.match(/^([TCELMR])@([A-Q]\d+)\//);
    const move = last.match(/^([A-Q]\d+)-([A-Q]\d+)\//);
    const piece = add ? Board.topPieceWithPunct(state, add[2]) : move ? Board.topPieceWithPunct(state, move[2]) : null;
    if (piece) for (const c of piece.cells) this.outline(c, "last-move", this.ground, { "data-last-move": c });
    if (move && move[1] !== move[2]) this.outline(move[1], "last-from", this.ground, { "data-last-from": move[1] });
    // The winning chain.
    const chain = (state.result && state.result.chain) || [];
    for (const c of chain) {
      svg("polygon", { class: "chain", points: hexPoints(this.cellPt(c), HEX * 0.96) }, this.ground);
      this.outline(c, "chain-outline", this.ground);
    }
    // The central cells whose top dot counts, when asked.
    if (counted) {
      for (const c of counted.cells) {
        this.outline(c, `counted ${counted.side}`, this.ground, { "data-counted": c });
        const top = stacks[c].at(-1);
        const [x, y] = this.surfacePt(c, top.level + 1);
        svg("circle", { class: `counted-ring ${counted.side}`, cx: x, cy: y, r: DOT + 3 }, this.posMarks);
      }
    }
  }

  /**
   * The height of every stack above one level, above every piece: one
   * badge for the cells of one top piece that share a height (a dashed one
   * where there is a gap under a bridge). Each badge goes beside its top
   * dot where it covers no other dot and no other badge (in a crowded
   * centre the usual upper-right spot lies on a neighbour), else on the
   * dot itself at the dot's size.
   */
  drawBadges() {
    this.badges.replaceChildren();
    const state = this.state;
    if (!state) return;
    // At least 12 px across wherever the board is drawn small.
    const scale = this.pxPerUnit > 0 ? Math.max(1, 12 / (2 * BADGE_R * this.pxPerUnit)) : 1;
    const groups = new Map();
    for (const [cell, dots] of Object.entries(state.stacks || {})) {
      const top = dots.at(-1);
      if (!top || top.level < 1) continue;
      const levels = new Set(dots.map((d) => d.level));
      let gap = false;
      for (let l = 0; l < top.level; l++) if (!levels.has(l)) gap = true;
      const piece = state.pieces.find((p) => p.level === top.level && p.cells.includes(cell));
      const key = `${piece ? piece.punct : cell}/${top.level}/${gap}`;
      if (!groups.has(key)) groups.set(key, { cells: [], level: top.level, gap, punct: piece && piece.punct });
      groups.get(key).cells.push(cell);
    }
    const dots = [];
    for (const p of state.pieces) for (const c of p.cells) dots.push([c, ...this.surfacePt(c, p.level + 1)]);
    const placed = [];
    // Boxes, not discs: what a reader sees as touching.
    const apart = (ax, ay, ar, bx, by, br) => Math.abs(ax - bx) >= ar + br + 0.5 || Math.abs(ay - by) >= ar + br + 0.5;
    const clear = (x, y, r, own) => dots.every(([c, dx, dy]) => c === own || apart(x, y, r, dx, dy, DOT))
      && placed.every(([bx, by, br]) => apart(x, y, r, bx, by, br));
    const r = BADGE_R * scale;
    // The tallest stacks first: they stand over their neighbours.
    for (const g of [...groups.values()].sort((a, b) => b.level - a.level)) {
      // The PÜNCT's dot first when it is one of them, then the farthest.
      const cells = [...g.cells].sort((a, b) => (b === g.punct) - (a === g.punct) || this.cellPt(a)[1] - this.cellPt(b)[1]);
      let spot = null;
      for (const cell of cells) {
        const [x, y] = this.surfacePt(cell, g.level + 1);
        for (const reach of [DOT + 0.4 * r, DOT + r]) {
          spot = BADGE_SPOTS.map(([ux, uy]) => [x + ux * reach, y + uy * reach, r, cell]).find(([bx, by]) => clear(bx, by, r, cell));
          if (spot) break;
        }
        if (spot) break;
      }
      if (!spot) {
        const [x, y] = this.surfacePt(cells[0], g.level + 1);
        spot = [x, y, Math.min(r, DOT), cells[0]];
      }
      placed.push(spot);
      const [bx, by, br, at] = spot;
      drawBadge(this.badges, [bx, by], g.level + 1, {
        gap: g.gap, scale: br / BADGE_R, attrs: { "data-height-cell": at, "data-height-cells": g.cells.join(" ") },
      });
    }
  }

  /** The board's name for assistive technology: the screen's, or a summary of the position; the keyboard hint after it. */
  updateLabel() {
    const s = this.state;
    let label = this.fixedLabel;
    if (!label && s) {
      const n = { white: 0, black: 0 };
      for (const p of s.pieces || []) n[p.side] = (n[p.side] || 0) + 1;
      label = t("a11y.board.label", { white: n.white, black: n.black });
      if (s.status === "over") label += ` ${t("a11y.board.over")}`;
      else if (s.to_move === "white" || s.to_move === "black") label += ` ${t(`a11y.board.to_move.${s.to_move}`)}`;
    }
    label ||= t("a11y.board.name");
    this.el.setAttribute("aria-label", this.hint ? `${label} ${this.hint}` : label);
  }

  /** A fixed label instead of the position's summary (null: the summary again). */
  setLabel(text) {
    this.fixedLabel = text || null;
    this.updateLabel();
  }

  /** Made playable by keyboard (kbd.js): an application with a hint in its label; null: a picture again. */
  setKeyboardHint(hint) {
    this.hint = hint || null;
    if (this.hint) {
      this.el.setAttribute("role", "application");
      this.el.setAttribute("aria-roledescription", t("a11y.board.role"));
    } else {
      this.el.setAttribute("role", "img");
      this.el.removeAttribute("aria-roledescription");
    }
    this.updateLabel();
  }

  /** Puts the keyboard cursor on `cell` (null: none); shown while the board has the keyboard's focus. */
  setCursor(cell) {
    this.cursor = cell && this.geom.cell(cell) ? cell : null;
    if (this.cursor) this.el.dataset.cursor = this.cursor;
    else delete this.el.dataset.cursor;
    this.drawCursor();
  }

  /** The cursor: the cell's outline on the ground and on top of its stack, dark under light so it shows on anything. */
  drawCursor() {
    this.cursorLayer.replaceChildren();
    const cell = this.cursor;
    if (!cell) return;
    const g = svg("g", { class: "kbd-cursor", "data-kbd-cursor": cell }, this.cursorLayer);
    const ring = (pt) => {
      const points = hexPoints(pt, HEX * 0.92);
      svg("polygon", { class: "kbd-cursor-under", points }, g);
      svg("polygon", { class: "kbd-cursor-over", points }, g);
    };
    ring(this.cellPt(cell));
    const h = this.surface(cell);
    if (h > 0) ring(this.surfacePt(cell, h));
  }

  outline(cell, cls, layer, attrs = {}) {
    if (!this.geom.cell(cell)) return;
    svg("polygon", { class: cls, points: hexPoints(this.cellPt(cell), HEX * 0.9), ...attrs }, layer);
  }

  /**
   * The interactive layer. o: mode ("add" | "move" | undefined), legal
   * (Set of cells, get class `legal` and a target ring), lifted (the
   * piece being moved: the surfaces under it are read without it), origin (cell),
   * lines (cell whose three lines are drawn), hover (cell), ghost {kind,
   * rotation, at, side, legal, lifted}, best {from, to, kind, rotation, side}.
   */
  setOverlay(o) {
    this.over = o;
    const { overlay, marks, groundOverlay, geom } = this;
    for (const l of [overlay, marks, groundOverlay]) l.replaceChildren();
    // Adding has many targets: they are drawn more quietly then.
    const adding = o.mode === "add";
    this.el.classList.toggle("adding", adding);
    this.el.classList.toggle("moving", o.mode === "move");
    for (const [name, hit] of this.hits) {
      hit.classList.toggle("legal", !!(o.legal && o.legal.has(name)));
      hit.classList.toggle("hovered", o.hover === name);
    }
    if (o.hover && geom.cell(o.hover)) {
      svg("polygon", { class: "hover-fill", points: hexPoints(this.cellPt(o.hover), HEX * 0.96) }, groundOverlay);
      svg("polygon", { class: "hover-outline", points: hexPoints(this.cellPt(o.hover), HEX * 0.9), "data-hover": o.hover }, groundOverlay);
    }
    if (o.lines) {
      for (const [a, b] of geom.lines(o.lines)) {
        const [x1, y1] = this.pt(...a);
        const [x2, y2] = this.pt(...b);
        svg("line", { class: "in-line", x1, y1, x2, y2 }, groundOverlay);
      }
    }
    if (o.legal) {
      for (const cell of o.legal) {
        drawTarget(marks, this.surfacePt(cell, this.surface(cell, o.lifted)), adding).setAttribute("data-target", cell);
      }
    }
    // The hovered cell's outline again on top of its stack, where a tall one hides the ground.
    if (o.hover && geom.cell(o.hover) && this.surface(o.hover) > 0) {
      svg("polygon", { class: "hover-outline top", points: hexPoints(this.surfacePt(o.hover, this.surface(o.hover)), HEX * 0.9) }, marks);
    }
    if (o.origin) {
      const [x, y] = this.surfacePt(o.origin, o.lifted ? o.lifted.level + 1 : this.surface(o.origin));
      svg("circle", { class: "origin-mark", cx: x, cy: y, r: DOT * 1.4, "data-origin": o.origin }, marks);
    }
    if (o.best) {
      const b = o.best;
      if (b.from && b.from !== b.to) {
        const [x1, y1] = this.cellPt(b.from);
        const [x2, y2] = this.cellPt(b.to);
        svg("line", { class: "best-arrow", x1, y1, x2, y2, "marker-end": "url(#punct-arrow)" }, overlay);
      }
      this.floating(overlay, b, "best", { "data-best": "" });
    }
    if (o.ghost) {
      this.floating(overlay, o.ghost, o.ghost.legal ? "ghost" : "ghost bad", { "data-ghost": o.ghost.at });
    }
  }

  /**
   * A piece that is not on the board (ghost, best move) drawn where it
   * would lie: on the highest of its cells (any that are on the board).
   */
  floating(parent, { kind, rotation, at, side, lifted = null }, cls, attrs) {
    const dots = this.geom.footprint(kind, rotation, at);
    let level = 0;
    for (const [c, r] of dots) {
      const cell = this.geom.at(c, r);
      if (cell) level = Math.max(level, this.surface(cell.name, lifted));
    }
    return drawPiece(parent, {
      ground: dots.map((d) => this.pt(...d)), bars: barsOf(dots), side, level, cls, attrs, shadow: false,
    });
  }
}
