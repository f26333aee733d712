// Engine analysis of the shown position — the engine's three best moves
// with their evaluations, each previewed on the board when pointed at or
// focused, and the connection solver's verdicts ("White connects in 2",
// "Black threatens to connect in 2") — and the post-game analysis: the evaluation after every ply, computed by the
// server in the background once the game has ended, drawn as a graph with
// the mistakes marked. Fair play: in a game between people nothing is
// asked while it is being played (the server refuses it too), and against
// the AI a hint on the live position marks the game "assisted".

import { api } from "./api.js";
import * as engine from "./engine.js";
import { h, sideName, tSide } from "./dom.js";
import { t, num, errorText } from "./i18n.js";
import { svg } from "./board.js";

const W = 320; // the graph's drawing box
const H = 130;
const LEFT = 34; // room for the axis labels
const BOTTOM = 18;

/** A value (hundredths of a cell, White's view) → −1…1, so a forced result does not flatten the rest. */
const squash = (v) => Math.tanh(v / 400);

/** An evaluation (`cp` for the side to move) in words, from White's point of view. */
function describe(score, stm) {
  const v = (stm === "w" ? score.cp : -score.cp) / 100;
  if (Math.abs(v) < 0.25) return t("game.analysis.even");
  return tSide("game.analysis.ahead", v > 0 ? "white" : "black", { cells: cells(Math.abs(v)) });
}

/** A number of cells with one decimal, as the language writes it. */
const cells = (n) => num(n, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Own moves in a forced result of `plies` plies (the winner moves first and last). */
const ownMoves = (plies) => Math.max(1, Math.ceil(plies / 2));

/**
 * A line's evaluation, short and in words: `short` for the eye ("+1.2",
 * White's view, or "White wins in 2 moves"), `words` for a screen reader.
 */
export function evaluation(score, stm) {
  const winner = "win" in score ? (stm === "w" ? "white" : "black") : "loss" in score ? (stm === "w" ? "black" : "white") : null;
  if (winner) {
    const text = tSide("game.analysis.eval_win", winner, { count: ownMoves(score.win ?? score.loss) });
    return { short: text, words: text, forced: winner };
  }
  const v = (stm === "w" ? score.cp : -score.cp) / 100;
  const short = num(v, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "exceptZero" });
  return { short, words: describe(score, stm), forced: null };
}

/** The moves of a line as notation, one after the other. */
const lineText = (moves) => moves.join(" ");

/** A mistake's kind in words (the review's `kind`: "mistake" or "blunder"). */
const mistakeKind = (kind) => (kind === "losing" ? t("game.analysis.losing")
  : kind === "blunder" ? t("game.analysis.blunder") : t("game.analysis.mistake"));

/** A line of the mistakes' list after the move: who, how bad, what was better. */
function mistakeLine(m) {
  // The move after which the winner wins by force, with the proof's line
  // (review.rs: the connection solver's).
  if (m.kind === "losing") {
    return t("game.analysis.losing_line", {
      side: sideName(m.side), winner: sideName(m.side === "white" ? "black" : "white"),
      count: m.wins_in, line: (m.line || []).join(" "),
    });
  }
  const p = { side: sideName(m.side), cells: cells(m.loss / 100), best: m.best || "" };
  if (m.kind === "blunder") return m.best ? t("game.analysis.blunder_better", p) : t("game.analysis.blunder_line", p);
  return m.best ? t("game.analysis.mistake_better", p) : t("game.analysis.mistake_line", p);
}

const sideToMove = (position) => position.split(":")[1];

/** Move number text of ply `n` (1-based) in a game whose first mover is `blackFirst`. */
function moveNumber(n, blackFirst) {
  const i = n - 1 + (blackFirst ? 1 : 0);
  return `${Math.floor(i / 2) + 1}${i % 2 === 0 ? "." : "…"}`;
}

export class Analysis {
  /** onChange(): the best move changed (redraw the board); onPly(n): show ply n; onError(e) */
  constructor(id, { onChange, onPly, onError }) {
    this.id = id;
    this.onChange = onChange;
    this.onPly = onPly;
    this.onError = onError;
    this.on = false;
    this.result = null; // the last answer, for `asked`
    this.asked = null; // "ply:position" asked for
    this.pointed = null; // the move of the line pointed at or focused, previewed on the board
    this.pinned = null; // the move of the line clicked: previewed until clicked again

    this.toggle = h("button", {
      class: "toggle", type: "button", "data-testid": "analyse", "aria-pressed": "false",
      onclick: () => this.setOn(!this.on),
    }, t("game.analysis.toggle"));
    this.box = h("div", { class: "analysis", "data-testid": "analysis", "aria-live": "polite" });
    this.graph = svg("svg", {
      class: "eval-graph", "data-testid": "eval-graph", viewBox: `0 0 ${W} ${H}`,
      role: "img", "aria-label": t("game.analysis.graph_label"),
    });
    this.graph.addEventListener("click", (e) => {
      const r = this.graph.getBoundingClientRect();
      const n = this.live ? this.live.ply : 0;
      if (r.width <= 0 || !n) return;
      const x = ((e.clientX - r.left) / r.width) * W;
      this.onPly(Math.max(0, Math.min(n, Math.round(((x - LEFT) / (W - LEFT - 4)) * n))));
    });
    this.caption = h("div", { class: "graph-caption", "data-testid": "review-status" });
    this.mistakes = h("ul", { class: "mistakes", "data-testid": "mistakes" });
    this.reviewBox = h("div", { class: "review" }, this.graph, this.caption, this.mistakes);
    this.el = h("section", { class: "panel analysis-panel", "data-testid": "analysis-panel" },
      h("div", { class: "row" }, h("h2", {}, t("game.analysis.title")), this.toggle),
      // A finished game's review first: what a player looks at after it.
      this.reviewBox, this.box);
  }

  /** Whether the engine may be asked about this game now (fair play). */
  allowed() {
    const s = this.live;
    return !!s && !(s.mode === "online" && s.status === "ongoing");
  }

  setOn(on) {
    this.on = on && this.allowed();
    this.toggle.setAttribute("aria-pressed", String(this.on));
    this.toggle.classList.toggle("active", this.on);
    if (!this.on) {
      this.abort?.abort();
      this.asked = null;
      this.result = null;
      this.onChange();
    }
    this.update(this.live, this.view);
  }

  /** Called on every render with the live state and the shown state. */
  update(live, view) {
    if (!live || !view) return;
    this.live = live;
    this.view = view;
    const allowed = this.allowed();
    this.toggle.disabled = !allowed;
    if (!allowed) {
      if (this.on) this.setOn(false);
      this.box.textContent = t("game.analysis.off");
    } else if (this.on) {
      this.analyseShown();
    } else {
      const assisted = live.mode === "ai" && live.status === "ongoing";
      this.box.textContent = assisted ? t("game.analysis.assisted_note") : t("game.analysis.turn_on");
    }
    this.drawReview();
  }

  analyseShown() {
    const { view } = this;
    const key = `${view.ply}:${view.position}`;
    if (key === this.asked) return;
    this.asked = key;
    this.result = null;
    this.pointed = null;
    this.pinned = null;
    this.abort?.abort();
    const ctl = new AbortController();
    this.abort = ctl;
    if (view.status === "over" && view.ply === this.live.ply) {
      this.box.textContent = t("game.analysis.over");
      this.onChange();
      return;
    }
    this.box.textContent = t("game.analysis.thinking");
    this.onChange();
    // Wait a moment: stepping through a replay should not ask for every ply.
    clearTimeout(this.pause);
    this.pause = setTimeout(() => this.ask(view, ctl), 250);
  }

  ask(view, ctl) {
    if (ctl.signal.aborted) return;
    // The solver takes its share first; a quiet position leaves the search nearly all of it.
    // A game played in this browser is analysed by the page's own engine.
    const asked = view.local
      ? engine.ask({ op: "analyse", position: view.position, movetime: 800 }).then((r) => {
        if (r.error) throw Object.assign(new Error(r.message), { code: r.error });
        return r;
      })
      : api.analyseGame(this.id, { ply: view.ply, movetime: 800 }, ctl.signal);
    asked.then((r) => {
      if (ctl.signal.aborted) return;
      this.result = r;
      this.renderResult();
      this.onChange();
    }, (e) => {
      if (ctl.signal.aborted || e.name === "AbortError") return;
      this.box.textContent = e.code === "game_over"
        ? t("game.analysis.over")
        : t("game.analysis.failed", { error: errorText(e) });
      this.asked = null; // try again on the next change
      if (e.code !== "game_over") this.onError(e);
    });
  }

  renderResult() {
    const r = this.result;
    const stm = sideToMove(r.position);
    // Older servers answer one line: the best move.
    const lines = r.lines && r.lines.length ? r.lines : [{ move: r.best, score: r.score, pv: r.pv }];
    const own = r.solver && r.solver.verdict === "win" ? r.solver : null;
    // A forced win of one's own comes first: the opponent's threat does not matter then.
    const threat = !own && r.threat && r.threat.verdict === "win" ? r.threat : null;
    this.lineButtons = []; // every button that previews a move (previewButton)
    this.box.replaceChildren(...[
      own ? this.verdictBox(own, "own") : null,
      h("h3", { class: "lines-title" }, t("game.analysis.lines_title")),
      h("ol", { class: "analysis-lines", "data-testid": "analysis-lines" },
        lines.map((line, i) => h("li", {}, this.lineButton(line, i, stm)))),
      threat ? this.verdictBox(threat, "threat") : null,
      !own && r.solver ? h("div", { class: "small verdict-quiet", "data-testid": "analysis-verdict" }, this.quietVerdict(r.solver)) : null,
      h("div", { class: "small" }, t("game.analysis.search", { depth: r.depth, count: r.nodes, nodes: num(r.nodes), ms: num(r.time_ms) })),
    ].filter(Boolean));
    this.markPreview();
  }

  /** A line of the engine: its move, its evaluation and what follows; pointing at it or focusing it previews the move, a click keeps it. */
  lineButton(line, i, stm) {
    const e = evaluation(line.score, stm);
    const rest = line.pv.slice(1);
    // A forced result reads as good or bad for the side to move (and says whose in words).
    const mood = e.forced ? ` forced ${e.forced === (stm === "w" ? "white" : "black") ? "good" : "bad"}` : "";
    return this.previewButton(line.move, { class: "analysis-line", "data-testid": "analysis-line" },
      h("span", { class: "line-rank", "aria-hidden": "true" }, num(i + 1)),
      h("span", { class: "best-move line-move" }, line.move),
      h("span", { class: `line-eval${mood}`, "aria-hidden": "true" }, e.short),
      h("span", { class: "sr-only" }, e.words),
      rest.length ? h("span", { class: "line-rest" }, t("game.analysis.then", { line: lineText(rest) })) : null);
  }

  /** The solver's proof of a forced win: whose, in how many moves, by what, and its line (the side's move first, then a reply, …). */
  verdictBox(v, whose) {
    const key = whose === "own"
      ? (v.by === "end" ? "game.analysis.verdict_wins" : "game.analysis.verdict_connects")
      : (v.by === "end" ? "game.analysis.threat_wins" : "game.analysis.threat_connects");
    // The side to move's own win starts with its move: previewed like a line.
    // (A threat starts with the opponent's move, which is not playable now.)
    const line = whose === "own"
      ? this.previewButton(v.line[0], { class: "best-move verdict-line" }, lineText(v.line))
      : h("span", { class: "best-move verdict-line" }, lineText(v.line));
    const sentence = tSide(key, v.side, { count: v.moves, line: "\u0001" }).split("\u0001");
    return h("div", {
      class: `verdict ${whose} ${v.side}`, "data-testid": whose === "own" ? "analysis-verdict" : "analysis-threat",
      "data-verdict": v.verdict, "data-side": v.side, "data-moves": v.moves,
    }, sentence[0], line, sentence.slice(1).join(""));
  }

  /** A button that previews `move` on the board while pointed at or focused, and keeps it there when clicked. */
  previewButton(move, attrs, ...children) {
    const b = h("button", {
      type: "button", "data-move": move, "aria-pressed": "false", title: t("game.analysis.preview_title"), ...attrs,
      onmouseenter: () => this.point(move), onmouseleave: () => this.point(null),
      onfocus: () => this.point(move), onblur: () => this.point(null),
      onclick: () => this.pin(move),
    }, ...children);
    this.lineButtons.push(b);
    return b;
  }

  /** No forced win proven for the side to move: said briefly (threat moves were searched, or time ran out). */
  quietVerdict(v) {
    return v.verdict === "none"
      ? tSide("game.analysis.verdict_none", v.side, { count: v.depth })
      : tSide("game.analysis.verdict_unknown", v.side);
  }

  point(move) {
    if (this.pointed === move) return;
    this.pointed = move;
    this.onChange();
  }

  pin(move) {
    this.pinned = this.pinned === move ? null : move;
    this.markPreview();
    this.onChange();
  }

  markPreview() {
    for (const b of this.lineButtons || []) {
      const on = b.dataset.move === this.pinned;
      b.setAttribute("aria-pressed", String(on));
      b.classList.toggle("pinned", on);
    }
  }

  /** The move to draw on the board for `position`: the line pointed at, else the one clicked, else the engine's best. */
  bestFor(position) {
    if (!(this.on && this.result && this.result.position === position)) return null;
    return this.pointed || this.pinned || this.result.best;
  }

  /** The post-game analysis: a graph with axes, move numbers and the mistakes. */
  drawReview() {
    const s = this.live;
    const review = s.review;
    const key = `${s.version}:${this.view ? this.view.ply : ""}`;
    if (this.reviewKey === key) return;
    this.reviewKey = key;
    const g = this.graph;
    g.replaceChildren();
    this.mistakes.replaceChildren();
    this.reviewBox.hidden = !review;
    if (!review) return;
    g.dataset.status = review.status;
    if (review.status !== "done") {
      this.caption.textContent = t("game.analysis.pending");
      return;
    }
    const values = review.values;
    // A very long game has its last plies reviewed: values[0] is after
    // `from` plies.
    const from = review.from || 0;
    const n = values.length - 1;
    const right = W - 4;
    const top = 4;
    const bottom = H - BOTTOM;
    const x = (i) => LEFT + (n === 0 ? 0 : (i / n) * (right - LEFT));
    const y = (v) => (top + bottom) / 2 - squash(v) * ((bottom - top) / 2);
    // White's half above the middle line, Black's below.
    svg("rect", { class: "graph-white", x: LEFT, y: top, width: right - LEFT, height: (bottom - top) / 2 }, g);
    svg("rect", { class: "graph-black", x: LEFT, y: (top + bottom) / 2, width: right - LEFT, height: (bottom - top) / 2 }, g);
    const label = (text, lx, ly, cls = "graph-label") => {
      svg("text", { class: cls, x: lx, y: ly }, g).textContent = text;
    };
    // The y axis: who is ahead, and by how many cells.
    for (const [v, text] of [[400, "+4"], [0, "0"], [-400, "−4"]]) {
      svg("line", { class: v === 0 ? "graph-zero" : "graph-grid", x1: LEFT, x2: right, y1: y(v), y2: y(v) }, g);
      label(text, LEFT - 4, y(v), "graph-label y");
    }
    label(sideName("white"), LEFT + 3, top + 9, "graph-label side");
    label(sideName("black"), LEFT + 3, bottom - 4, "graph-label side");
    // The x axis: move numbers.
    const blackFirst = s.start.split(":")[1] === "b";
    const step = Math.max(2, Math.ceil(n / 8 / 2) * 2);
    for (let p = 0; p <= n; p += step) {
      svg("line", { class: "graph-tick", x1: x(p), x2: x(p), y1: bottom, y2: bottom + 3 }, g);
      const ply = from + p;
      label(ply === 0 ? t("game.analysis.start") : moveNumber(ply, blackFirst).replace("…", ""), x(p), bottom + 11, "graph-label x");
    }
    svg("polyline", {
      class: "graph-line",
      points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
    }, g);
    const shown = Math.min(n, Math.max(0, (this.view ? this.view.ply : from + n) - from));
    svg("line", { class: "graph-ply", x1: x(shown), y1: top, x2: x(shown), y2: bottom }, g);
    for (const m of review.mistakes) {
      // A blunder is a diamond, a mistake a dot: told apart without colour.
      const [cx, cy] = [x(m.ply - from), y(values[m.ply - from])];
      const dot = m.kind === "blunder" || m.kind === "losing"
        ? svg("polygon", {
          class: `graph-mistake ${m.kind}`, "data-ply": m.ply,
          points: `${cx},${cy - 5} ${cx + 5},${cy} ${cx},${cy + 5} ${cx - 5},${cy}`,
        }, g)
        : svg("circle", { class: `graph-mistake ${m.kind}`, cx, cy, r: 3.5, "data-ply": m.ply }, g);
      svg("title", {}, dot).textContent = t("game.analysis.mistake_title", { number: moveNumber(m.ply, blackFirst), move: m.move, kind: mistakeKind(m.kind) });
    }
    g.dataset.points = String(values.length);
    this.caption.textContent = review.mistakes.length ? t("game.analysis.caption") : t("game.analysis.caption_clean");
    for (const m of review.mistakes) {
      this.mistakes.append(h("li", {},
        h("button", { type: "button", class: `mistake-link ${m.kind}`, onclick: () => this.onPly(m.ply - 1) },
          `${moveNumber(m.ply, blackFirst)} ${m.move}`),
        " ", mistakeLine(m)));
    }
  }

  destroy() {
    clearTimeout(this.pause);
    this.abort?.abort();
  }
}
