// The key to the board's symbols: a "Key" button opening a small panel
// where each symbol is drawn by the board's own drawing code, so the key
// always looks like the board.

import { h } from "./dom.js";
import { svg, hexPoints, drawPiece, drawBadge, drawTarget, HEX, DOT, LIFT, PAIR_COLOURS, PAIR_DASH } from "./board.js";

/** A small drawing: `draw(g)` draws round (0, 0) in board units. */
function sample(draw, { w = 70, h: hgt = 40, y = 0 } = {}) {
  const el = svg("svg", { class: "sample", viewBox: `${-w / 2} ${-hgt / 2 + y} ${w} ${hgt}`, "aria-hidden": "true" });
  draw(el);
  return el;
}

const hex = (parent, x, y, cls = "hex") => svg("polygon", { class: cls, points: hexPoints([x, y], HEX * 0.96) }, parent);
const pair = (x) => [[x - 15, 8], [x + 15, -9]]; // two neighbouring dots
const bar = [[0, 1]];

export class Key {
  /** pairs: the board's pairs of opposite sides (GET /api/board). */
  constructor(pairs) {
    this.pairs = pairs;
    this.button = h("button", {
      type: "button", class: "tool", "data-testid": "show-key", "aria-expanded": "false",
      title: "What the symbols on the board mean", onclick: () => this.toggle(),
    }, "Key");
    this.panel = h("div", { class: "key-panel", "data-testid": "key", role: "dialog", "aria-label": "key to the board" });
    this.panel.hidden = true;
    this.onKey = (e) => {
      if (e.key === "Escape") this.toggle(false);
    };
    this.built = false;
  }

  toggle(on = this.panel.hidden) {
    if (on && !this.built) this.build();
    this.panel.hidden = !on;
    this.button.setAttribute("aria-expanded", String(on));
    this.button.classList.toggle("active", on);
    if (on) document.addEventListener("keydown", this.onKey);
    else document.removeEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  build() {
    this.built = true;
    const item = (pic, text) => h("li", {}, pic, h("div", { class: "key-text" }, text));
    const piece = (side, opts = {}) => (g) => drawPiece(g, { ground: pair(0), bars: bar, side, ...opts });
    const items = [
      item(sample(piece("white")), "White piece: three dots (two shown), the ringed one is its PÜNCT"),
      item(sample(piece("black")), "Black piece"),
      item(sample((g) => {
        drawPiece(g, { ground: [[-18, 10]], bars: [], side: "white", attrs: {} });
        drawPiece(g, { ground: [[-18, 10]], bars: [], side: "black", level: 1 });
        drawPiece(g, { ground: [[-18, 10]], bars: [], side: "white", level: 2 });
        drawBadge(g, [-18 + DOT * 0.85, 10 - 3 * LIFT - DOT * 0.85], 3);
        drawPiece(g, { ground: [[16, 10]], bars: [], side: "white" });
      }, { y: -4 }), "A stack: each level stands higher; the badge gives its height (3 here)"),
      item(sample((g) => {
        const ends = [[-26, 8], [26, 8]];
        for (const p of ends) drawPiece(g, { ground: [p], bars: [], side: "black" });
        drawPiece(g, { ground: [ends[0], [0, 8], ends[1]], bars: [[0, 1], [1, 2]], side: "white", level: 1, gaps: [0, 1, 0] });
        drawBadge(g, [DOT * 0.85, 8 - 2 * LIFT - DOT * 0.85], 2, { gap: true });
      }, { w: 80, y: -4 }), "Bridge: the middle hangs over a gap (dashed, with its shadow); a dashed badge marks a gap"),
      item(sample((g) => {
        drawPiece(g, { ground: [[-16, 8]], bars: [], side: "black" });
        drawPiece(g, { ground: [[-16, 8]], bars: [], side: "white", level: 1, covered: [true] });
        drawPiece(g, { ground: [[-16, 8]], bars: [], side: "black", level: 2 });
        drawPiece(g, { ground: [[16, 8]], bars: [], side: "white", covered: [true] });
      }, { y: -4 }), "Covered dots show only their edge under the dot above"),
      item(sample(piece("white", { halo: true })), "Ringed: this piece may move now (your turn)"),
      item(sample((g) => {
        hex(g, -17, 0);
        hex(g, 17, 0);
        svg("polygon", { class: "last-move", points: hexPoints([-17, 0], HEX * 0.9) }, g);
        svg("polygon", { class: "last-from", points: hexPoints([17, 0], HEX * 0.9) }, g);
      }, { w: 80 }), "Last move: its cells outlined, where it came from dashed"),
      item(sample((g) => {
        hex(g, -17, 0);
        hex(g, 17, 0);
        drawTarget(g, [-17, 0]);
        drawTarget(g, [17, 0], true);
      }, { w: 80 }), "Legal target (small while adding a piece): where the PÜNCT may go"),
      item(sample((g) => {
        hex(g, -17, 0);
        hex(g, 17, 0);
        drawPiece(g, { ground: pair(0), bars: bar, side: "white", cls: "ghost" });
      }, { w: 80 }), "Ghost: the piece you are placing, where it would land (red: not legal there)"),
      item(sample((g) => {
        hex(g, 0, 0, "hex central");
        svg("polygon", { class: "hover-outline", points: hexPoints([0, 0], HEX * 0.93) }, g);
      }), "Central hexagon (darker cells); the outlined cell is the one under the pointer"),
      item(sample((g) => {
        hex(g, 0, 0, "hex central");
        drawPiece(g, { ground: [[0, 0]], bars: [], side: "white" });
        svg("circle", { class: "counted-ring white", cx: 0, cy: -LIFT, r: DOT + 3 }, g);
      }), "Counted: a central cell whose top dot counts (shown by the count's button)"),
      item(sample((g) => {
        g.setAttribute("viewBox", "-45 -20 90 40");
        PAIR_COLOURS.forEach((colour, i) => {
          svg("line", {
            class: "side-stripe", x1: -40, y1: -12 + 12 * i, x2: 40, y2: -12 + 12 * i, stroke: colour, "stroke-dasharray": PAIR_DASH[i],
          }, g);
        });
      }), h("div", {}, "Sides: connect two sides of one colour and pattern:",
        h("ul", { class: "pairs" }, this.pairs.map((p, i) => h("li", { "data-pair": i }, `${["red, solid", "blue, dashed", "green, dotted"][i % 3]}: ${p[0]} and ${p[1]}`))))),
    ];
    this.panel.replaceChildren(
      h("div", { class: "row" }, h("h2", {}, "Key"),
        h("button", { type: "button", class: "small-button", "data-testid": "close-key", onclick: () => this.toggle(false) }, "Close")),
      h("ul", { class: "key-list" }, items));
  }
}
