// Engine analysis: the best move and evaluation of the shown position, and
// a graph of the evaluation over the game's plies (each ply's position
// analysed in turn with a short think, stoppable at any time).

import { api } from "./api.js";
import { h } from "./dom.js";
import { svg } from "./board.js";

const MAX = 1000; // the graph's range in centipawn-like units (±10 cells of lead)
const GRAPH_W = 300;
const GRAPH_H = 100;

/** A score for the side to move → White's view, as a number for the graph. */
function whiteValue(score, stm) {
  let v;
  if ("cp" in score) v = Math.max(-MAX, Math.min(MAX, score.cp));
  else if ("win" in score) v = MAX;
  else v = -MAX;
  return stm === "w" ? v : -v;
}

/** A score in words, from White's point of view. */
function describe(score, stm) {
  const forced = "win" in score ? (stm === "w" ? "White" : "Black") : "loss" in score ? (stm === "w" ? "Black" : "White") : null;
  if (forced) return `${forced} wins by force (in ${score.win ?? score.loss} plies)`;
  const v = (stm === "w" ? score.cp : -score.cp) / 100;
  return `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(2)} for White (about ${Math.abs(v).toFixed(1)} cells ${v >= 0 ? "ahead" : "behind"} in the connection race)`;
}

const sideToMove = (position) => position.split(":")[1];

export class Analysis {
  /** onChange(): the best move changed (redraw the board); onPly(n): replay ply n; onError(e) */
  constructor({ onChange, onPly, onError }) {
    this.onChange = onChange;
    this.onPly = onPly;
    this.onError = onError;
    this.on = false;
    this.result = null; // the last answer for `position`
    this.position = null;
    this.values = new Map(); // moves-prefix key → White's value (or null: no value)
    this.loopGen = 0;
    this.looping = false;

    this.toggle = h("button", {
      class: "toggle", "data-testid": "analyse", "aria-pressed": "false",
      onclick: () => this.setOn(!this.on),
    }, "Analyse");
    this.box = h("div", { class: "analysis", "data-testid": "analysis", "aria-live": "polite" });
    this.graph = svg("svg", {
      class: "eval-graph", "data-testid": "eval-graph", viewBox: `0 0 ${GRAPH_W} ${GRAPH_H}`,
      preserveAspectRatio: "none", role: "img", "aria-label": "evaluation over the game, White's view",
    });
    this.graph.addEventListener("click", (e) => {
      const r = this.graph.getBoundingClientRect();
      const n = this.live ? this.live.ply : 0;
      if (r.width > 0) this.onPly(Math.round(((e.clientX - r.left) / r.width) * n));
    });
    this.caption = h("div", { class: "graph-caption" });
    this.el = h("section", { class: "panel analysis-panel" },
      h("div", { class: "row" }, h("h2", {}, "Analysis"), this.toggle),
      this.box, this.graph, this.caption);
  }

  setOn(on) {
    this.on = on;
    this.toggle.setAttribute("aria-pressed", String(on));
    this.toggle.classList.toggle("active", on);
    if (!on) {
      this.abort?.abort();
      this.position = null;
      this.result = null;
      this.onChange();
    }
    this.update(this.live, this.view, this.replaying);
  }

  /** Called on every render with the live state, the shown state and whether replaying. */
  update(live, view, replaying) {
    if (!live || !view) return;
    this.live = live;
    this.view = view;
    this.replaying = replaying;
    if (this.on) this.analyseShown();
    else this.box.textContent = "Turn on analysis to see the engine's best move and evaluation.";
    // The graph fills in while analysing or replaying; otherwise it stops.
    if (this.on || replaying) this.startLoop();
    else this.stopLoop();
    this.drawGraph();
  }

  analyseShown() {
    const { view } = this;
    if (view.position === this.position) return;
    this.position = view.position;
    this.result = null;
    this.abort?.abort();
    const ctl = new AbortController();
    this.abort = ctl;
    this.box.textContent = "The engine is thinking…";
    this.onChange();
    // Wait a moment: stepping through a replay should not queue an analysis per ply.
    clearTimeout(this.pause);
    this.pause = setTimeout(() => this.ask(view.position, ctl), 250);
  }

  ask(position, ctl) {
    if (ctl.signal.aborted) return;
    api.analyse({ position, movetime: 500 }, ctl.signal).then((r) => {
      if (ctl.signal.aborted) return;
      this.result = r;
      this.renderResult();
      this.onChange();
    }, (e) => {
      if (ctl.signal.aborted || e.name === "AbortError") return;
      if (e.code === "game_over") {
        this.box.textContent = "The game is over in this position: nothing to analyse.";
        return;
      }
      this.box.textContent = `No analysis: ${e.message}`;
      this.position = null; // try again on the next change
      this.onError(e);
    });
  }

  renderResult() {
    const r = this.result;
    const stm = sideToMove(r.position);
    this.box.replaceChildren(
      h("div", {}, "Best move: ", h("strong", { class: "best-move" }, r.best)),
      h("div", {}, describe(r.score, stm)),
      h("div", { class: "small" }, `depth ${r.depth}, ${r.nodes} positions, ${r.time_ms} ms`),
      r.pv.length > 1 ? h("div", { class: "small" }, `line: ${r.pv.join(" ")}`) : null,
    );
  }

  /** The best move for `position`, if the engine has answered for it. */
  bestFor(position) {
    return this.on && this.result && this.result.position === position ? this.result.best : null;
  }

  key(n) {
    return this.live.moves.slice(0, n).join(" ");
  }

  startLoop() {
    if (this.looping) return;
    this.looping = true;
    const gen = ++this.loopGen;
    this.loop(gen).finally(() => {
      if (gen === this.loopGen) this.looping = false;
    });
  }

  stopLoop() {
    this.loopGen++;
    this.looping = false;
    this.loopAbort?.abort();
  }

  /** Analyses each ply's position that has no value yet, one at a time. */
  async loop(gen) {
    while (gen === this.loopGen) {
      const live = this.live;
      let n = 0;
      while (n <= live.ply && this.values.has(this.key(n))) n++;
      if (n > live.ply) return; // all done; a new move restarts the loop
      const key = this.key(n);
      const ctl = new AbortController();
      this.loopAbort = ctl;
      try {
        const r = await api.analyse({ position: live.start, moves: live.moves.slice(0, n), movetime: 150 }, ctl.signal);
        this.values.set(key, whiteValue(r.score, sideToMove(r.position)));
      } catch (e) {
        if (e.name === "AbortError" || gen !== this.loopGen) return;
        if (e.code === "game_over") {
          // The final position of a game won on the board.
          const w = live.result && live.result.winner;
          this.values.set(key, w === "white" ? MAX : w === "black" ? -MAX : 0);
        } else if (e.code === "busy") {
          await new Promise((res) => setTimeout(res, 1000));
        } else {
          this.onError(e);
          return;
        }
      }
      if (gen === this.loopGen) this.drawGraph();
    }
  }

  drawGraph() {
    const g = this.graph;
    g.replaceChildren();
    if (!this.live) return;
    const n = this.live.ply;
    const x = (i) => (n === 0 ? GRAPH_W / 2 : (i / n) * GRAPH_W);
    const y = (v) => GRAPH_H / 2 - (v / MAX) * (GRAPH_H / 2) * 0.92;
    svg("rect", { class: "graph-white", x: 0, y: 0, width: GRAPH_W, height: GRAPH_H / 2 }, g);
    svg("line", { class: "graph-zero", x1: 0, y1: GRAPH_H / 2, x2: GRAPH_W, y2: GRAPH_H / 2 }, g);
    const shown = this.view ? this.view.ply : n;
    svg("line", { class: "graph-ply", x1: x(shown), y1: 0, x2: x(shown), y2: GRAPH_H }, g);
    // One polyline per run of analysed plies.
    let run = [];
    let count = 0;
    const flush = () => {
      if (run.length === 1) run.push([run[0][0] + 1, run[0][1]]); // a lone point: a short dash
      if (run.length) svg("polyline", { class: "graph-line", points: run.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ") }, g);
      run = [];
    };
    for (let i = 0; i <= n; i++) {
      const v = this.values.get(this.key(i));
      if (v == null) {
        flush();
        continue;
      }
      count++;
      run.push([x(i), y(v)]);
    }
    flush();
    g.dataset.analysed = String(count);
    this.caption.textContent = count > n
      ? "Evaluation over the game (White up, Black down). Click to go to a ply."
      : `Evaluation (White up, Black down): ${count} of ${n + 1} positions analysed${this.looping ? "…" : "; analyse or replay to fill in."}`;
  }

  destroy() {
    clearTimeout(this.pause);
    this.stopLoop();
    this.abort?.abort();
  }
}
