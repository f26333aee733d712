// The stack of one cell seen from the side: its dots as discs from the
// board up (level 0 at the bottom), each in its owner's colour with its
// piece's kind letter and the PÜNCT marked, and any empty level under a
// bridge drawn as a dashed gap; beside it the same, top first, in words.
// On a phone the panel opens as a sheet from the bottom (style.css).

import { h, cap } from "./dom.js";
import { svg } from "./board.js";

const ROW = 16; // one level's height in the drawing
const DISC_W = 64;
const DISC_H = 12;
const W = 120;

export class StackView {
  /** onToggle(open): the sheet opened or closed */
  constructor({ onToggle = () => {} } = {}) {
    this.onToggle = onToggle;
    this.body = h("div", { class: "stack-view", "data-testid": "stack-view", "aria-live": "polite" });
    this.closeBtn = h("button", {
      type: "button", class: "small-button sheet-close", "data-testid": "stack-close", "aria-label": "close the stack view",
      onclick: () => this.open(false),
    }, "Close");
    this.el = h("section", { class: "panel stack-panel", "data-testid": "stack-panel" },
      h("div", { class: "row" }, h("h2", {}, "Stack"), this.closeBtn), this.body);
    this.key = null;
  }

  /** Shows the sheet (phone) or lets it go; on a wide screen the panel is always there. */
  open(on) {
    if (this.isOpen === !!on) return;
    this.el.classList.toggle("open", !!on);
    this.onToggle(!!on);
  }

  get isOpen() {
    return this.el.classList.contains("open");
  }

  /** The stack on `cell` of `state` (null: a hint what to do). */
  show(cell, state, geom) {
    const key = cell && state ? `${cell}:${state.version}:${state.ply}:${JSON.stringify(state.stacks[cell] || [])}` : "";
    if (key === this.key) return;
    this.key = key;
    if (!cell || !state) {
      this.body.replaceChildren(h("p", { class: "small" }, "Hover over or tap a cell to see its stack."));
      return;
    }
    const dots = state.stacks[cell] || [];
    const c = geom.cell(cell);
    const where = [c && c.central ? "central hexagon" : "", ...(c ? c.edges : [])].filter(Boolean);
    const title = h("div", { class: "stack-title" }, h("strong", {}, cell), where.length ? ` · ${where.join(" · ")}` : "");
    if (!dots.length) {
      this.body.replaceChildren(title, h("p", { class: "small" }, "Empty: height 0."));
      return;
    }
    const top = dots.at(-1).level;
    const byLevel = new Map(dots.map((d) => [d.level, d]));
    const gaps = top + 1 - dots.length;
    const summary = `height ${top + 1}: ${dots.length} ${dots.length === 1 ? "dot" : "dots"}` +
      (gaps ? `, ${gaps} empty ${gaps === 1 ? "level" : "levels"} under a bridge` : "");
    // The piece each dot belongs to (its PÜNCT cell), from the state's pieces.
    const pieceOf = (d) => state.pieces.find((p) => p.level === d.level && p.cells.includes(cell));

    const hgt = (top + 1) * ROW + 12;
    const pic = svg("svg", {
      class: "stack-svg", viewBox: `0 0 ${W} ${hgt}`, role: "img", "data-levels": top + 1,
      "aria-label": `side view of the stack on ${cell}`,
    });
    pic.style.height = `${Math.min(hgt, 12 * ROW) * 1.25}px`;
    const ground = hgt - 6;
    svg("line", { class: "stack-ground", x1: 14, y1: ground + 1, x2: W - 2, y2: ground + 1 }, pic);
    const x = 18 + DISC_W / 2 + 6;
    const rows = [];
    for (let level = top; level >= 0; level--) {
      const y = ground - (level + 1) * ROW + (ROW - DISC_H) / 2 + DISC_H / 2;
      svg("text", { class: "stack-level", x: 9, y }, pic).textContent = String(level);
      const d = byLevel.get(level);
      if (!d) {
        const g = svg("g", { class: "stack-gap", "data-level": level }, pic);
        svg("rect", { x: x - DISC_W / 2, y: y - DISC_H / 2, width: DISC_W, height: DISC_H, rx: DISC_H / 2 }, g);
        svg("text", { x, y }, g).textContent = "gap";
        rows.push(h("li", { class: "gap", "data-level": level }, h("span", { class: "swatch gap" }), `level ${level}: empty (a bridge spans it)`));
        continue;
      }
      const g = svg("g", {
        class: `stack-disc ${d.side}`, "data-level": level, "data-side": d.side, "data-kind": d.kind, "data-punct": String(!!d.punct),
      }, pic);
      svg("rect", { x: x - DISC_W / 2, y: y - DISC_H / 2, width: DISC_W, height: DISC_H, rx: DISC_H / 2 }, g);
      svg("text", { class: "kind", x, y }, g).textContent = d.kind;
      if (d.punct) svg("circle", { class: "punct", cx: x - DISC_W / 2 + 9, cy: y, r: 3.2 }, g);
      if (level === top) svg("text", { class: "stack-top", x: x + DISC_W / 2 + 6, y }, pic).textContent = "top";
      const piece = pieceOf(d);
      const belongs = piece && !d.punct ? ` (PÜNCT on ${piece.punct})` : "";
      rows.push(h("li", { "data-level": level, "data-side": d.side, "data-kind": d.kind, "data-punct": String(!!d.punct) },
        h("span", { class: `swatch ${d.side}` }),
        `level ${level}: ${cap(d.side)} ${d.kind}${d.punct ? " · PÜNCT" : ""}${belongs}${piece && piece.bridge ? " · bridge" : ""}`));
    }
    this.body.replaceChildren(title, h("p", { class: "small stack-summary" }, summary),
      h("div", { class: "stack-body" }, pic, h("ol", { class: "stack", reversed: true }, rows)));
  }
}
