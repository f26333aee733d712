// The key to the board's symbols: a "Key" button opening a small panel
// where each symbol is drawn by the board's own drawing code, so the key
// always looks like the board; then the keys for playing by keyboard
// (kbd.js). Texts: t() keys a11y.key.*.

import { h, edgeName } from "./dom.js";
import { t } from "./i18n.js";
import { svg, hexPoints, drawPiece, drawBadge, drawTarget, HEX, DOT, LIFT, PAIR_COLOURS, PAIR_DASH } from "./board.js";
import { KEY_HELP } from "./kbd.js";

/** A small drawing: `draw(g)` draws round (0, 0) in board units. */
function sample(draw, { w = 70, h: hgt = 40, y = 0 } = {}) {
  // One board unit to a pixel, so that every symbol is drawn at one scale.
  const el = svg("svg", {
    class: "sample", viewBox: `${-w / 2} ${-hgt / 2 + y} ${w} ${hgt}`, "aria-hidden": "true", width: w, height: hgt,
  });
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
      title: t("a11y.key.button_title"), onclick: () => this.toggle(),
    }, t("a11y.key.button"));
    this.panel = h("div", { class: "key-panel", "data-testid": "key", role: "dialog", "aria-label": t("a11y.key.label") });
    this.panel.hidden = true;
    this.onKey = (e) => {
      if (e.key === "Escape") {
        const inside = this.panel.contains(document.activeElement);
        this.toggle(false);
        if (inside) this.button.focus(); // the focus goes back where it came from
      }
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
    if (on) this.closeBtn?.focus({ preventScroll: true });
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  build() {
    this.built = true;
    const item = (pic, text) => h("li", {}, pic, h("div", { class: "key-text" }, text));
    const piece = (side, opts = {}) => (g) => drawPiece(g, { ground: pair(0), bars: bar, side, ...opts });
    // Seven entries, each a family of symbols drawn together: a reader
    // scans them at once (a symbol each made a list of thirteen).
    const items = [
      item(sample((g) => {
        drawPiece(g, { ground: pair(-20), bars: bar, side: "white" });
        drawPiece(g, { ground: pair(20), bars: bar, side: "black" });
      }, { w: 90 }), t("a11y.key.pieces")),
      item(sample((g) => {
        drawPiece(g, { ground: [[-34, 10]], bars: [], side: "white" });
        drawPiece(g, { ground: [[-34, 10]], bars: [], side: "black", level: 1 });
        drawPiece(g, { ground: [[-34, 10]], bars: [], side: "white", level: 2 });
        drawBadge(g, [-34 + DOT + 4, 10 - 3 * LIFT - DOT], 3);
        const ends = [[-4, 8], [36, 8]];
        for (const p of ends) drawPiece(g, { ground: [p], bars: [], side: "black" });
        drawPiece(g, { ground: [ends[0], [16, 8], ends[1]], bars: [[0, 1], [1, 2]], side: "white", level: 1, gaps: [0, 1, 0] });
        drawBadge(g, [16 + DOT + 4, 8 - 2 * LIFT - DOT], 2, { gap: true });
      }, { w: 96, h: 48, y: -6 }), t("a11y.key.stack")),
      item(sample(piece("white", { halo: true })), t("a11y.key.halo")),
      item(sample((g) => {
        hex(g, -17, 0);
        hex(g, 17, 0);
        svg("polygon", { class: "last-move", points: hexPoints([-17, 0], HEX * 0.9) }, g);
        svg("polygon", { class: "last-from", points: hexPoints([17, 0], HEX * 0.9) }, g);
      }, { w: 80 }), t("a11y.key.last")),
      item(sample((g) => {
        for (const x of [-34, 0, 34]) hex(g, x, 0);
        drawTarget(g, [-34, 0]);
        drawPiece(g, { ground: [[0, 2]], bars: [], side: "white", cls: "ghost" });
        drawPiece(g, { ground: [[34, 2]], bars: [], side: "white", cls: "ghost bad" });
      }, { w: 110 }), t("a11y.key.target")),
      item(sample((g) => {
        hex(g, -17, 0, "hex central");
        hex(g, 17, 0, "hex central");
        drawPiece(g, { ground: [[17, 0]], bars: [], side: "white" });
        svg("circle", { class: "counted-ring white", cx: 17, cy: -LIFT, r: DOT + 3 }, g);
      }, { w: 80 }), t("a11y.key.central")),
      item(sample((g) => {
        PAIR_COLOURS.forEach((colour, i) => {
          svg("line", {
            class: "side-stripe", x1: -40, y1: -12 + 12 * i, x2: 40, y2: -12 + 12 * i, stroke: colour, "stroke-dasharray": PAIR_DASH[i],
          }, g);
        });
      }, { w: 90 }), h("div", {}, t("a11y.key.sides"),
        h("ul", { class: "pairs" }, this.pairs.map((p, i) => h("li", { "data-pair": i },
          t(`a11y.key.pair${i % 3}`, { a: edgeName(p[0]), b: edgeName(p[1]) })))))),
    ];
    this.closeBtn = h("button", {
      type: "button", class: "small-button", "data-testid": "close-key", onclick: () => {
        this.toggle(false);
        this.button.focus();
      },
    }, t("a11y.key.close"));
    this.panel.replaceChildren(
      h("div", { class: "row" }, h("h2", {}, t("a11y.key.title")), this.closeBtn),
      h("ul", { class: "key-list" }, items),
      h("h3", { class: "key-keys-title" }, t("a11y.keys.title")),
      h("div", { class: "key-cursor" }, sample((g) => {
        hex(g, 0, 0);
        svg("polygon", { class: "kbd-cursor-under", points: hexPoints([0, 0], HEX * 0.92) }, g);
        svg("polygon", { class: "kbd-cursor-over", points: hexPoints([0, 0], HEX * 0.92) }, g);
      }, { w: 44 }), h("div", { class: "key-text" }, t("a11y.key.cursor"))),
      h("dl", { class: "key-keys", "data-testid": "key-keys" },
        KEY_HELP.flatMap((id) => [h("dt", {}, h("kbd", {}, t(`a11y.keys.${id}_keys`))), h("dd", {}, t(`a11y.keys.${id}`))])));
  }
}
