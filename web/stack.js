// The stack of one cell seen from the side: its dots as discs from the
// board up (level 0 at the bottom), each in its owner's colour with its
// piece's kind letter and the PÜNCT marked, and any empty level under a
// bridge drawn as a dashed gap; beside it the same, top first, in words.
// On a phone the panel opens as a sheet from the bottom (style.css).
// The words come from t() (keys a11y.stack.*, the dots' as announce.js
// says them); no live region here: the keyboard cursor speaks the cell.

import { h, edgeName } from "./dom.js";
import { svg } from "./board.js";
import { t } from "./i18n.js";
import { dotWords } from "./announce.js";

const ROW = 16; // one level's height in the drawing
const DISC_W = 64;
const DISC_H = 12;
const W = 120;

export class StackView {
  /** onToggle(open): the sheet opened or closed */
  constructor({ onToggle = () => {} } = {}) {
    this.onToggle = onToggle;
    this.body = h("div", { class: "stack-view", "data-testid": "stack-view" });
    this.closeBtn = h("button", {
      type: "button", class: "small-button sheet-close", "data-testid": "stack-close", "aria-label": t("a11y.stack.close_label"),
      onclick: () => this.open(false),
    }, t("a11y.stack.close"));
    this.el = h("section", { class: "panel stack-panel", "data-testid": "stack-panel", "aria-label": t("a11y.stack.title") },
      h("div", { class: "row" }, h("h2", {}, t("a11y.stack.title")), this.closeBtn), this.body);
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
      this.body.replaceChildren(h("p", { class: "small" }, t("a11y.stack.hint")));
      return;
    }
    const dots = state.stacks[cell] || [];
    const c = geom.cell(cell);
    const where = [c && c.central ? t("a11y.stack.central") : "", ...(c ? c.edges.map((e) => edgeName(e)) : [])].filter(Boolean);
    const title = h("div", { class: "stack-title" }, h("strong", {}, cell), where.length ? ` · ${where.join(" · ")}` : "");
    if (!dots.length) {
      this.body.replaceChildren(title, h("p", { class: "small" }, t("a11y.stack.empty")));
      return;
    }
    const top = dots.at(-1).level;
    const byLevel = new Map(dots.map((d) => [d.level, d]));
    const gaps = top + 1 - dots.length;
    const dotsText = t("a11y.stack.summary", { height: top + 1, count: dots.length });
    const summary = gaps
      ? t("a11y.stack.summary_gaps", { summary: dotsText, gaps: t("a11y.stack.gaps", { count: gaps }) })
      : dotsText;

    const hgt = (top + 1) * ROW + 12;
    const pic = svg("svg", {
      class: "stack-svg", viewBox: `0 0 ${W} ${hgt}`, role: "img", "data-levels": top + 1,
      "aria-label": t("a11y.stack.picture", { cell }),
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
        svg("text", { x, y }, g).textContent = t("a11y.stack.gap");
        rows.push(h("li", { class: "gap", "data-level": level }, h("span", { class: "swatch gap" }), t("a11y.dot.gap", { level })));
        continue;
      }
      const g = svg("g", {
        class: `stack-disc ${d.side}`, "data-level": level, "data-side": d.side, "data-kind": d.kind, "data-punct": String(!!d.punct),
      }, pic);
      svg("rect", { x: x - DISC_W / 2, y: y - DISC_H / 2, width: DISC_W, height: DISC_H, rx: DISC_H / 2 }, g);
      svg("text", { class: "kind", x, y }, g).textContent = d.kind;
      if (d.punct) svg("circle", { class: "punct", cx: x - DISC_W / 2 + 9, cy: y, r: 3.2 }, g);
      if (level === top) svg("text", { class: "stack-top", x: x + DISC_W / 2 + 6, y }, pic).textContent = t("a11y.stack.top");
      rows.push(h("li", { "data-level": level, "data-side": d.side, "data-kind": d.kind, "data-punct": String(!!d.punct) },
        h("span", { class: `swatch ${d.side}`, "aria-hidden": "true" }), dotWords(state, cell, d)));
    }
    this.body.replaceChildren(title, h("p", { class: "small stack-summary" }, summary),
      h("div", { class: "stack-body" }, pic, h("ol", { class: "stack", reversed: true }, rows)));
  }
}
