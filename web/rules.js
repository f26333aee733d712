// The rules page (/rules): the game explained section by section, with
// diagrams drawn by the game's own board (board.js). The text comes from
// the catalogue (rules.*); the diagrams from GET /api/learn/diagrams, each
// a position reached by legal moves, the moves it draws (a green ghost when
// allowed, a red crossed one when not), marked cells and, for a finished
// game, its chain or central count. The page only draws: what is legal is
// the server's word, checked by its tests.

import { h } from "./dom.js";
import { siteNav } from "./nav.js";
import { t, errorText } from "./i18n.js";
import { api } from "./api.js";
import { Board, Geometry, HEX, LIFT, DOT, pieceIcon, svg } from "./board.js";

const KINDS = ["T", "C", "E", "L", "M", "R"];
// Each kind's icon in a rotation that shows its shape plainly.
const ICON_ROTATION = { T: 3, C: 1, E: 4, L: 3, M: 2, R: 5 };

/**
 * The sections in order: a title and the body (paragraph keys, and
 * "kinds" for the table of pieces). A section's diagrams follow its body.
 */
const SECTIONS = [
  { id: "board", title: "rules.board.title", body: ["rules.board.p1", "rules.board.p2", "rules.board.p3"] },
  { id: "pieces", title: "rules.pieces.title", body: ["rules.pieces.p1", "rules.pieces.p2", "kinds", "rules.pieces.p3"] },
  { id: "turn", title: "rules.turn.title", body: ["rules.turn.p1"] },
  { id: "adding", title: "rules.adding.title", body: ["rules.adding.p1", "rules.adding.p2", "rules.adding.p3"] },
  { id: "moving", title: "rules.moving.title", body: ["rules.moving.p1", "rules.moving.p2", "rules.moving.lifted", "rules.moving.p3"] },
  { id: "stacking", title: "rules.stacking.title", body: ["rules.stacking.p1", "rules.stacking.p2", "rules.stacking.p3", "rules.stacking.p4"] },
  { id: "bridges", title: "rules.bridges.title", body: ["rules.bridges.p1", "rules.bridges.p2", "rules.bridges.p3"] },
  { id: "covered", title: "rules.covered.title", body: ["rules.covered.p1"] },
  { id: "winning", title: "rules.winning.title", body: ["rules.winning.p1", "rules.winning.p2"] },
  { id: "end", title: "rules.end.title", body: ["rules.end.p1", "rules.end.p2"] },
  { id: "variants", title: "rules.variants.title", body: ["rules.variants.p1"] },
  { id: "notation", title: "rules.notation.title", body: ["rules.notation.p1", "rules.notation.p2"] },
];

/** The diagrams and the board, or an ApiError. */
async function load(signal) {
  const data = await api.diagrams(signal);
  const info = await api.board();
  return { geom: new Geometry(info), diagrams: data.diagrams };
}

export function rulesScreen(root, navigate) {
  const controller = new AbortController();
  const boards = [];
  const figureSlots = new Map(); // section id → the element its diagrams go in
  const kindsSlot = h("div", { class: "rules-kinds-slot" });
  const status = h("p", { class: "rules-status", "data-testid": "rules-status", role: "status" }, t("rules.loading"));

  const toc = h("nav", { class: "rules-toc", "aria-labelledby": "rules-toc-title", "data-testid": "rules-toc" },
    h("h2", { id: "rules-toc-title" }, t("rules.toc")),
    h("ol", {}, ...[...SECTIONS, { id: "more", title: "rules.more.title" }].map((s) =>
      h("li", {}, h("a", { href: `#rules-${s.id}`, "data-section": s.id, onclick: jump }, t(s.title))))));

  const sections = SECTIONS.map((s) => {
    const figures = h("div", { class: "rules-figures" });
    figureSlots.set(s.id, figures);
    return h("section", { id: `rules-${s.id}`, class: "rules-section", "data-testid": `rules-section-${s.id}`, "aria-labelledby": `rules-${s.id}-title` },
      h("h2", { id: `rules-${s.id}-title`, tabindex: "-1" }, t(s.title)),
      ...s.body.map((key) => (key === "kinds" ? kindsSlot : h("p", {}, t(key)))),
      figures);
  });

  const more = h("section", { id: "rules-more", class: "rules-section rules-more", "data-testid": "rules-section-more", "aria-labelledby": "rules-more-title" },
    h("h2", { id: "rules-more-title", tabindex: "-1" }, t("rules.more.title")),
    h("p", {}, t("rules.more.p1")),
    h("p", { class: "rules-links" },
      h("a", { href: "/learn", "data-nav": "", class: "button-link", "data-testid": "rules-to-learn" }, t("rules.more.learn")),
      h("a", { href: "/puzzles", "data-nav": "", class: "button-link", "data-testid": "rules-to-puzzles" }, t("rules.more.puzzles"))));

  const page = h("div", { class: "rules-page", "data-testid": "rules", "data-diagrams": "loading" },
    h("h1", {}, t("rules.heading")),
    h("p", { class: "rules-intro" }, t("rules.intro")),
    toc,
    status,
    ...sections,
    more);
  root.replaceChildren(siteNav("rules"), page);

  /** A contents link scrolls to its section (the address keeps no fragment: app.js routes on it). */
  function jump(e) {
    e.preventDefault();
    const target = document.getElementById(`rules-${e.currentTarget.dataset.section}`);
    if (!target) return;
    target.scrollIntoView({ behavior: "smooth", block: "start" });
    target.querySelector("h2")?.focus({ preventScroll: true });
  }

  async function fill() {
    page.dataset.diagrams = "loading";
    status.replaceChildren(t("rules.loading"));
    status.hidden = false;
    let loaded;
    try {
      loaded = await load(controller.signal);
    } catch (e) {
      if (e.name === "AbortError") return;
      page.dataset.diagrams = "failed";
      status.replaceChildren(t("rules.failed", { error: errorText(e) }), " ",
        h("button", { type: "button", onclick: fill }, t("rules.retry")));
      return;
    }
    const { geom, diagrams } = loaded;
    kindsSlot.replaceChildren(kindsTable(geom));
    for (const slot of figureSlots.values()) slot.replaceChildren();
    for (const d of diagrams) {
      const slot = figureSlots.get(d.section);
      if (slot) slot.append(figure(geom, d, boards));
    }
    status.hidden = true;
    page.dataset.diagrams = "ready";
  }
  fill();

  return {
    destroy() {
      controller.abort();
      for (const b of boards) b.resize?.disconnect();
    },
  };
}

/** The six kinds: icon, letter, name, shape and how many each player has. */
function kindsTable(geom) {
  return h("ul", { class: "rules-kinds", "data-testid": "rules-kinds" },
    ...KINDS.map((k) => {
      const icon = pieceIcon(geom, k, Math.min(ICON_ROTATION[k], geom.rotations(k) - 1), "white");
      return h("li", { "data-kind": k },
        h("span", { class: "rules-kind-icon" }, icon),
        h("span", { class: "rules-kind-text" },
          h("strong", {}, `${k} · ${t(`rules.kind.${k}.name`)}`), " ",
          h("span", {}, t(`rules.kind.${k}.text`)), " ",
          h("span", { class: "rules-kind-count" }, t("rules.pieces.count", { count: geom.kinds[k].count }))));
    }));
}

/** One diagram: the board drawn read-only, its caption, and the moves it shows in words. */
function figure(geom, d, boards) {
  const caption = t(`rules.diagram.${d.id}`, {
    white: d.state.central?.white ?? 0,
    black: d.state.central?.black ?? 0,
  });
  const board = new Board(geom, { onCell() {}, onHover() {}, onWheel: () => false });
  boards.push(board);
  board.el.setAttribute("data-testid", "diagram-board");
  board.el.classList.add("rules-board");
  board.setPosition(d.state, {});
  // Its name for assistive technology is the caption (setLabel keeps it over the position's summary).
  if (typeof board.setLabel === "function") board.setLabel(caption);
  else board.el.setAttribute("aria-label", caption);
  board.setOverlay(d.lines ? { lines: d.lines } : {});
  for (const m of d.marks) for (const c of m.cells) mark(board, d.state, m.mark, c);
  if (d.state.result && d.state.result.reason === "central count") markCounted(board, geom, d.state);
  d.show.forEach((s, i) => drawShown(board, d, s, i));
  if (d.view) frame(board, d);
  const shown = d.show.length
    ? h("ul", { class: "rules-shown" }, ...d.show.map((s) =>
      h("li", { class: s.legal ? "legal" : "illegal", "data-shown": s.move },
        t(s.legal ? "rules.shown.legal" : "rules.shown.illegal", { move: s.move }))))
    : null;
  return h("figure", { class: d.view ? "rules-figure" : "rules-figure whole", "data-diagram": d.id, "data-testid": `diagram-${d.id}` },
    h("div", { class: "rules-board-box" }, board.el),
    h("figcaption", {}, caption, shown));
}

/**
 * A marked cell: `covered` rings the PÜNCT of the lowest piece whose PÜNCT
 * is there (the covered one, at its own height); any other mark outlines
 * the cell on the ground, under the pieces (a bridge's gap shows under it).
 */
function mark(board, state, kind, cell) {
  if (kind === "covered") {
    const piece = state.pieces.filter((p) => p.punct === cell).sort((a, b) => a.level - b.level)[0];
    const [x, y] = board.surfacePt(cell, piece ? piece.level + 1 : board.surface(cell));
    svg("circle", { class: "rules-mark covered", cx: x, cy: y, r: DOT + 3.5, "data-mark": kind, "data-cell": cell }, board.posMarks);
  } else {
    board.outline(cell, `rules-mark ${kind}`, board.ground, { "data-mark": kind, "data-cell": cell });
  }
}

/** The central cells whose top dot counts: a ring on that dot in its side's way. */
function markCounted(board, geom, state) {
  for (const c of geom.cells) {
    if (!c.central) continue;
    const top = (state.stacks[c.name] || []).at(-1);
    if (!top) continue;
    const [x, y] = board.surfacePt(c.name, top.level + 1);
    svg("circle", {
      class: `rules-mark counted-${top.side}`, cx: x, cy: y, r: DOT + 3, "data-mark": `counted-${top.side}`, "data-cell": c.name,
    }, board.posMarks);
  }
}

/**
 * A move the diagram shows: a ghost where the piece would lie (red and
 * crossed when the move is not allowed) and, for a piece that travels, an
 * arrow from where its PÜNCT starts.
 */
function drawShown(board, d, s, i) {
  const lifted = s.from ? Board.topPieceWithPunct(d.state, s.from) : null;
  const ok = s.legal ? "ok" : "bad";
  if (s.from && s.from !== s.to) {
    const id = `rules-arrow-${d.id}-${i}`;
    const defs = board.el.querySelector("defs");
    const marker = svg("marker", {
      id, viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse",
    }, defs);
    svg("path", { d: "M0,0 L10,5 L0,10 z", class: `rules-arrow-head ${ok}` }, marker);
    const [x1, y1] = board.surfacePt(s.from, lifted ? lifted.level + 1 : board.surface(s.from));
    const [x2, y2] = board.cellPt(s.to);
    svg("line", { class: `rules-arrow ${ok}`, x1, y1, x2, y2, "marker-end": `url(#${id})` }, board.overlay);
  }
  board.floating(board.overlay, { kind: s.kind, rotation: s.rotation, at: s.to, side: s.side, lifted },
    s.legal ? "ghost" : "ghost bad", { "data-shown": s.move });
  if (!s.legal) {
    // A cross on the PÜNCT where it would lie.
    let level = 0;
    for (const c of s.cells || [s.to]) level = Math.max(level, board.surface(c, lifted));
    const [x, y] = board.surfacePt(s.to, level + 1);
    const r = DOT * 1.1;
    const g = svg("g", { class: "rules-cross" }, board.overlay);
    for (const [dx, dy] of [[1, 1], [1, -1]]) svg("line", { x1: x - r * dx, y1: y - r * dy, x2: x + r * dx, y2: y + r * dy }, g);
  }
}

/** Frames the cells the diagram names (and the stacks on them), not the whole board. */
function frame(board, d) {
  // The cells named, every piece on them whole, and the moves shown.
  const named = new Set(d.view);
  const cells = [...d.view, ...d.show.flatMap((s) => [s.from, ...(s.cells || [])].filter((c) => c && board.geom.cell(c)))];
  for (const p of d.state.pieces) if (p.cells.some((c) => named.has(c))) cells.push(...p.cells);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const c of cells) {
    const [x, y] = board.cellPt(c);
    const top = y - (board.surface(c) + 1) * LIFT;
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, top);
    y1 = Math.max(y1, y);
  }
  const pad = HEX * 1.2;
  board.vb = [x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad];
  board.el.setAttribute("viewBox", board.vb.map((v) => v.toFixed(1)).join(" "));
  board.el.classList.add("framed");
  board.pxPerUnit = 0;
  board.measure();
  // Without the board's edge the coordinates are out of sight: each cell
  // in the picture gets its name, small, at the foot of its hexagon.
  const names = svg("g", { class: "rules-cell-names", "aria-hidden": "true" }, board.base);
  for (const c of board.geom.cells) {
    const [x, y] = board.cellPt(c.name);
    if (x < x0 - pad - HEX || x > x1 + pad + HEX || y < y0 - pad - HEX || y > y1 + pad + HEX) continue;
    svg("text", { x: x.toFixed(1), y: (y + HEX * 0.66).toFixed(1) }, names).textContent = c.name;
  }
}
