// A player's rating over time, drawn by the page as SVG (profile.js): the
// rating after each rated game as a line with a dot per game, dates on
// the x axis and ratings on the y axis. It is drawn at the width it is
// given (redrawn when that changes), so its texts keep their size on a
// phone. The same points are a table below it, for reading them exactly.

import { h } from "./dom.js";
import { svg } from "./board.js";
import { t, dateText } from "./i18n.js";
import { ratingText, changeText, categoryName } from "./ratings.js";

const DAY = 86400000;
/** Nice steps for the rating axis. */
const STEPS = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];

/** The y axis: [low, high, step] holding every value, with about `ticks` lines. */
function yScale(values, ticks) {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 20) {
    lo -= 10;
    hi += 10;
  }
  const step = STEPS.find((s) => (hi - lo) / s <= ticks) || STEPS[STEPS.length - 1];
  return [Math.floor(lo / step) * step, Math.ceil(hi / step) * step, step];
}

/** How the x axis writes a moment, for points spanning `span` ms. */
function xFormat(span) {
  if (span === 0) return { dateStyle: "medium" };
  if (span < 2 * DAY) return { hour: "2-digit", minute: "2-digit" };
  if (span < 330 * DAY) return { month: "short", day: "numeric" };
  return { year: "numeric", month: "short" };
}

export class RatingChart {
  constructor() {
    this.points = [];
    this.category = null;
    this.svg = svg("svg", { class: "rating-chart-svg", "data-testid": "rating-chart", role: "img", "aria-labelledby": "rating-chart-caption" });
    this.caption = h("p", { class: "small", id: "rating-chart-caption", "data-testid": "rating-chart-caption" });
    this.tableBody = h("tbody");
    this.table = h("details", { class: "rating-table" },
      h("summary", {}, t("profile.chart.table")),
      h("div", { class: "table-scroll" },
        h("table", { class: "data-table" },
          h("thead", {}, h("tr", {},
            h("th", { scope: "col" }, t("profile.chart.date")),
            h("th", { scope: "col" }, t("profile.chart.rating")),
            h("th", { scope: "col" }, t("profile.chart.change")),
            h("th", { scope: "col" }, t("profile.chart.game")))),
          this.tableBody)));
    this.box = h("div", { class: "rating-chart" }, this.svg);
    this.el = h("div", { class: "rating-chart-area" }, this.box, this.caption, this.table);
    this.width = 0;
    this.observer = new ResizeObserver(() => {
      const w = Math.floor(this.box.clientWidth);
      if (w && w !== this.width) this.draw();
    });
    this.observer.observe(this.box);
  }

  /** Shows the points of `category` (oldest first). */
  show(category, points) {
    this.category = category;
    this.points = points || [];
    this.svg.dataset.category = category;
    this.svg.dataset.points = String(this.points.length);
    const p = this.points;
    // From the rating before the first rated game (its rating less its change).
    this.caption.textContent = p.length
      ? t("profile.chart.caption", {
        category: categoryName(category), count: p.length,
        first: ratingText(p[0].rating - (p[0].change || 0)), last: ratingText(p[p.length - 1].rating),
      })
      : t("profile.chart.empty", { category: categoryName(category) });
    this.table.hidden = !p.length;
    this.tableBody.replaceChildren(...[...p].reverse().map((pt) => h("tr", {},
      h("td", {}, dateText(pt.at, { dateStyle: "medium", timeStyle: "short" })),
      h("td", {}, ratingText(pt.rating)),
      h("td", {}, changeText(pt.change)),
      h("td", {}, pt.game ? h("a", { href: `/game/${encodeURIComponent(pt.game)}`, "data-nav": "" }, pt.game) : "–"))));
    this.draw();
  }

  draw() {
    const g = this.svg;
    g.replaceChildren();
    const W = Math.floor(this.box.clientWidth) || 600;
    this.width = W;
    const H = W < 500 ? 190 : 230;
    g.setAttribute("viewBox", `0 0 ${W} ${H}`);
    g.setAttribute("width", W);
    g.setAttribute("height", H);
    this.box.hidden = !this.points.length;
    if (!this.points.length) return;
    // The line starts at the rating before the first game (drawn hollow, at that game's moment).
    const first = this.points[0];
    const p = [{ at: first.at, rating: first.rating - (first.change || 0), start: true }, ...this.points];
    const LEFT = 44;
    const RIGHT = W - 12;
    const TOP = 10;
    const BOTTOM = H - 26;
    const times = p.map((pt) => Number(pt.at));
    const t0 = Math.min(...times);
    const span = Math.max(...times) - t0;
    // By time; all at one moment (or one point): side by side.
    const x = span > 0
      ? (i) => LEFT + ((times[i] - t0) / span) * (RIGHT - LEFT)
      : (i) => (p.length === 1 ? (LEFT + RIGHT) / 2 : LEFT + (i / (p.length - 1)) * (RIGHT - LEFT));
    const [lo, hi, step] = yScale(p.map((pt) => pt.rating), H < 200 ? 4 : 5);
    const y = (v) => BOTTOM - ((v - lo) / (hi - lo)) * (BOTTOM - TOP);
    const label = (text, lx, ly, cls, anchor = null) => {
      svg("text", { class: cls, x: lx, y: ly, "text-anchor": anchor }, g).textContent = text;
    };
    // The y axis: a line and a label every `step` points.
    for (let v = lo; v <= hi + 1e-9; v += step) {
      svg("line", { class: "chart-grid", x1: LEFT, x2: RIGHT, y1: y(v), y2: y(v) }, g);
      label(ratingText(v), LEFT - 6, y(v), "chart-label y");
    }
    svg("line", { class: "chart-axis", x1: LEFT, x2: LEFT, y1: TOP, y2: BOTTOM }, g);
    svg("line", { class: "chart-axis", x1: LEFT, x2: RIGHT, y1: BOTTOM, y2: BOTTOM }, g);
    // The x axis: dates (or times within a day), evenly spread, each said once.
    const format = xFormat(span);
    const ticks = span > 0 ? Math.max(2, Math.min(7, Math.floor((RIGHT - LEFT) / 85))) : 1;
    let last = null;
    for (let k = 0; k < ticks; k++) {
      const at = ticks === 1 ? times[0] : t0 + (span * k) / (ticks - 1);
      const tx = ticks === 1 ? (LEFT + RIGHT) / 2 : LEFT + (k / (ticks - 1)) * (RIGHT - LEFT);
      const text = dateText(at, format);
      if (text === last) continue;
      last = text;
      svg("line", { class: "chart-tick", x1: tx, x2: tx, y1: BOTTOM, y2: BOTTOM + 4 }, g);
      const anchor = ticks === 1 ? "middle" : k === 0 ? "start" : k === ticks - 1 ? "end" : "middle";
      label(text, tx, BOTTOM + 17, "chart-label x", anchor);
    }
    svg("polyline", {
      class: "chart-line",
      points: p.map((pt, i) => `${x(i).toFixed(1)},${y(pt.rating).toFixed(1)}`).join(" "),
    }, g);
    // A dot per game (while they do not crowd), the latest one larger; none for the start.
    const dots = p.length <= Math.floor((RIGHT - LEFT) / 6);
    p.forEach((pt, i) => {
      const latest = i === p.length - 1;
      if (pt.start || (!dots && !latest)) return;
      const dot = svg("circle", { class: `chart-dot${latest ? " latest" : ""}`, cx: x(i), cy: y(pt.rating), r: latest ? 4.5 : 3 }, g);
      svg("title", {}, dot).textContent = t("profile.chart.point", {
        date: dateText(pt.at, { dateStyle: "medium", timeStyle: "short" }),
        rating: ratingText(pt.rating), change: changeText(pt.change),
      });
    });
  }

  destroy() {
    this.observer.disconnect();
  }
}
