// The analysis board (/analysis): a board on which any position is
// studied with the page's own rules and engine (engine.js, punct.wasm in a
// Web Worker), nothing asked of the server but the board's shape and, for
// `?game=<id>`, the game.
//
// Moves are made on the board as in a game (chooser.js, the side bars of
// playerbar.js, typed moves) for whichever side is to move, and kept in a
// variation tree: every move played from any position stays, a move that
// differs from the continuation there starts a variation. The tree shows
// the main line with its variations (blocks under the move they branch
// from, deeper ones in parentheses); a click on a move shows its position,
// ← → Home End step along the line shown, a variation may be promoted or
// deleted.
//
// The engine (on unless turned off, remembered in this browser) analyses
// the position shown: its three best lines, updated at each depth it
// finishes, each move of a line playable into the tree, and the
// connection solver's verdicts when the search ends. A finished analysis
// is kept with its position, so going back to it shows it again.
//
// In and out: the position string (copied, or one typed in to start from),
// a record (read from a textarea, or the current line written into it,
// copied or downloaded), and the address: `#position=<position string>`,
// `#record=<record>` or `?game=<id>[&ply=N]` (a server's game, or one
// played in this browser, localgame.js) open the board there, and the
// address follows the position shown (history.replaceState), so it can be
// passed on as it is.

import { api, expandLegal } from "./api.js";
import * as engine from "./engine.js";
import { h, show, tSide } from "./dom.js";
import { t, num, errorText } from "./i18n.js";
import { siteNav } from "./nav.js";
import { Geometry } from "./board.js";
import { Chooser, turnControls, ownKey } from "./chooser.js";
import { PlayerBar } from "./playerbar.js";
import { gameLayout, moveControls, storedFlip, storeFlip } from "./layout.js";
import { bestDrawing } from "./moves.js";
import { countedCells, lastPieceWarning } from "./central.js";
import { Toast } from "./toast.js";
import { animateLastMove } from "./anim.js";
import { evaluation } from "./analysis.js";
import { isLocal, LocalGame } from "./localgame.js";

/** How long the engine thinks about a position (ms). */
const MOVETIME = 3000;
/** Stepping through the tree asks nothing of the engine until the step is this old (ms). */
const SETTLE = 200;
const ENGINE_KEY = "punct:analysis-engine";

/** One position of the tree: the move that led to it (null at the root) and the moves played from it, the main continuation first. */
class Node {
  constructor(parent, move) {
    this.parent = parent;
    this.move = move;
    this.children = [];
    this.ply = parent ? parent.ply + 1 : 0;
    this.view = null; // engine.js `view` of the position, with legal_moves
    this.analysis = null; // the engine's finished analysis here
  }
}

/** The moves from the root to `node`. */
function movesTo(node) {
  const moves = [];
  for (let n = node; n.parent; n = n.parent) moves.push(n.move);
  return moves.reverse();
}

/** The end of `node`'s line: its main continuation followed to the last move. */
function lineEnd(node) {
  let n = node;
  while (n.children.length) n = n.children[0];
  return n;
}

/** The first move of the variation `node` is in (itself or an ancestor that is not its parent's main continuation); null on the main line. */
function branchOf(node) {
  for (let n = node; n.parent; n = n.parent) {
    if (n.parent.children[0] !== n) return n;
  }
  return null;
}

/** An answer of engine.js refusing a request, as errorText reads errors. */
const refusal = (a) => ({ code: a.error, message: a.message, reason: a.reason, params: a.params });

/** Whether the engine is wanted (remembered in this browser; on unless turned off). */
function storedEngine() {
  try {
    return localStorage.getItem(ENGINE_KEY) !== "off";
  } catch {
    return true;
  }
}

function storeEngine(on) {
  try {
    localStorage.setItem(ENGINE_KEY, on ? "on" : "off");
  } catch {
    /* storage disabled: this page remembers */
  }
}

/** Copies `text` to the clipboard; where the browser refuses, selects `el`'s text for copying by hand. Answers whether it copied. */
async function copyText(text, el) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) el.select();
    else window.getSelection()?.selectAllChildren(el);
    return false;
  }
}

export function analysisScreen(root, navigate) {
  const screen = new AnalysisBoard(root, navigate);
  screen.start();
  return screen;
}

class AnalysisBoard {
  constructor(root, navigate) {
    this.root = root;
    this.navigate = navigate;
    this.tree = null; // the root Node
    this.current = null; // the Node shown
    this.shown = null; // the view drawn last (to animate the next move from it)
    this.game = null; // {id, moves}: the server's game the tree began from
    this.flipped = storedFlip();
    this.counting = null; // the side whose counted central cells are highlighted
    this.engineOn = storedEngine();
    this.running = false; // an analysis is running in the worker
    this.engineSeq = 0; // the latest analysis asked for (older answers are dropped)
    this.showSeq = 0; // the latest position asked to be shown
    this.live = null; // the analysis under way: {node, lines, stats}
    this.pointed = null; // the move of the line pointed at, previewed on the board
    this.destroyed = false;
    this.onKey = (e) => this.key(e);
  }

  async start() {
    this.toast = new Toast();
    this.root.replaceChildren(h("div", { class: "game loading", "data-testid": "analysis-board" },
      siteNav(), h("p", {}, t("analysisboard.loading")), this.toast.el));
    let info;
    try {
      info = await api.board();
    } catch (e) {
      if (!this.destroyed) this.say(errorText(e));
      return;
    }
    if (this.destroyed) return;
    this.geom = new Geometry(info);
    this.build();
    document.addEventListener("keydown", this.onKey);
    await this.openAddress();
  }

  destroy() {
    this.destroyed = true;
    document.removeEventListener("keydown", this.onKey);
    this.stopEngine();
    clearTimeout(this.pause);
    this.chooser?.destroy();
  }

  // ------------------------------------------------------------ the engine's worker

  /** `request` to the worker; asked again when a stopped analysis took it with it. */
  async ask(request) {
    for (let i = 0; ; i++) {
      const answer = await engine.ask(request);
      if (answer.error !== "stopped" || this.destroyed || i >= 3) return answer;
    }
  }

  /** A quick request (rules, records) that must not wait for the analysis: it is paused meanwhile and resumed after. */
  async rules(request) {
    const resume = this.running;
    if (resume) this.stopEngine();
    const answer = await this.ask(request);
    if (resume && !this.destroyed) this.analyse();
    return answer;
  }

  // ------------------------------------------------------------ opening

  /** The position the address names: `?game=`, `#record=`, `#position=`, else the standard start. */
  async openAddress() {
    const query = new URLSearchParams(location.search);
    const fragment = new URLSearchParams(location.hash.slice(1));
    const id = query.get("game");
    if (id) {
      const ply = query.get("ply");
      if (await this.loadGame(id, ply != null && /^\d+$/.test(ply) ? Number(ply) : null)) return;
    } else if (fragment.get("record")) {
      if (await this.loadRecord(fragment.get("record"))) return;
    } else if (fragment.get("position")) {
      if (await this.loadPosition(fragment.get("position"))) return;
    }
    if (!this.tree) await this.newBoard("standard");
  }

  /** A game's start and moves (the server's, or one played in this browser), shown after `ply` plies (null: at the end). Answers whether it opened. */
  async loadGame(id, ply) {
    let state;
    try {
      state = isLocal(id) ? await new LocalGame(id).game() : await api.game(id);
    } catch (e) {
      if (!this.destroyed) this.say(t("analysisboard.game_failed", { error: errorText(e) }));
      return false;
    }
    if (this.destroyed) return true;
    // Fair play: a game between people is studied here once it has ended.
    if (state.mode === "online" && state.status === "ongoing") {
      this.say(t("analysisboard.game_live"));
      return false;
    }
    this.game = { id: state.id, moves: state.moves.slice(), score: state.result && state.result.reason !== "aborted" ? state.result.score : null };
    await this.setTree(state.start, state.moves, ply);
    return true;
  }

  /** A record's text: its start and moves, shown at the end. Answers whether it could be read (else says why). */
  async loadRecord(text) {
    const read = await this.rules({ op: "record_read", record: text });
    if (this.destroyed) return true;
    if (read.error) {
      this.say(errorText(refusal(read)));
      return false;
    }
    this.game = null;
    this.say("");
    await this.setTree(read.start, read.moves, null);
    return true;
  }

  /** A position string to start from. Answers whether it could be read (else says why). */
  async loadPosition(text) {
    const view = await this.rules({ op: "view", position: text.trim() });
    if (this.destroyed) return true;
    if (view.error) {
      this.say(errorText(refusal(view)));
      return false;
    }
    this.game = null;
    this.say("");
    await this.setTree(view.position, [], 0, view);
    return true;
  }

  /** The start of `variant`, no moves. */
  async newBoard(variant) {
    const view = await this.rules({ op: "view", variant });
    if (this.destroyed) return;
    if (view.error) {
      this.say(view.error === "unavailable" ? t("analysisboard.unavailable", { error: view.message }) : errorText(refusal(view)));
      return;
    }
    this.game = null;
    await this.setTree(view.position, [], 0, view);
  }

  /** A new tree: `start` with `moves` as its main line, shown after `ply` of them (null: all); `view`: the start's, when known. */
  async setTree(start, moves, ply, view = null) {
    const top = new Node(null, null);
    top.position = start;
    if (view) top.view = this.viewOf(view, top);
    let n = top;
    const shown = [top];
    for (const m of moves) {
      const next = new Node(n, m);
      n.children.push(next);
      n = next;
      shown.push(n);
    }
    this.tree = top;
    this.shown = null;
    this.treeChanged();
    const at = ply == null ? shown.length - 1 : Math.min(ply, shown.length - 1);
    await this.show(shown[at]);
  }

  // ------------------------------------------------------------ the position shown

  /** engine.js's view of `node`'s position, as the board and the chooser read a state. */
  viewOf(answer, node) {
    const view = expandLegal(answer);
    view.ply = node.ply;
    view.last_move = node.move;
    return view;
  }

  /** Shows `node` (its view asked for when not known yet), then analyses it. */
  async show(node) {
    if (this.destroyed || !node) return;
    const seq = ++this.showSeq;
    const before = this.current;
    this.current = node;
    this.pointed = null;
    this.stopEngine();
    this.chooser.deselect();
    this.renderTree();
    if (!node.view) {
      const from = node.parent && node.parent.view;
      const answer = await this.ask(from
        ? { op: "view", position: from.position, moves: [node.move] }
        : { op: "view", position: this.tree.position, moves: movesTo(node) });
      if (this.destroyed || seq !== this.showSeq) return;
      if (answer.error) {
        this.say(answer.error === "unavailable" ? t("analysisboard.unavailable", { error: answer.message }) : errorText(refusal(answer)));
        // A move that cannot be played here (it never should): back to where it came from.
        if (node.parent && before !== node) this.show(node.parent);
        return;
      }
      node.view = this.viewOf(answer, node);
      if (!node.parent) this.tree.position = node.view.position;
    }
    const prev = this.shown;
    this.chooser.setState(node.view);
    this.render();
    this.shown = node.view;
    // A move forward slides into place.
    if (prev && node.parent && node.parent.view === prev) animateLastMove(this.chooser.board, prev, node.view);
    this.writeAddress();
    this.analyse();
  }

  /** Steps along the line shown: "first", "prev", "next", "last". */
  step(where) {
    const n = this.current;
    if (!n) return;
    const to = where === "first" ? this.tree
      : where === "prev" ? n.parent
        : where === "next" ? n.children[0]
          : lineEnd(n);
    if (to && to !== n) this.show(to);
  }

  /**
   * Plays `move` (from the board, typed, or a line of the engine) in the
   * position shown: the tree's continuation when it has this move, else a
   * new one (a variation when there is one already). A move that is not
   * legal is said why.
   */
  async play(move) {
    const node = this.current;
    const view = node && node.view;
    if (!view || view.status === "over") return;
    this.say("");
    let text = move.trim();
    if (!view.legal_moves.includes(text)) {
      // A try on the board or a typed move: the rules say why not, or write it as they do.
      const check = await this.rules({ op: "check", position: view.position, move: text });
      if (this.destroyed || this.current !== node) return;
      if (check.error) {
        this.say(errorText(refusal(check)));
        return;
      }
      if (!check.legal) {
        this.say(errorText({ code: "illegal_move", reason: check.reason, params: check.params, message: check.message }));
        this.renderSelection();
        return;
      }
      text = check.move;
    }
    let child = node.children.find((c) => c.move === text);
    if (!child) {
      child = new Node(node, text);
      node.children.push(child);
      this.treeChanged();
    }
    await this.show(child);
  }

  /** Plays `moves` one after the other from the position shown (an engine's line) and shows the last. */
  async playLine(moves) {
    let n = this.current;
    if (!n || !moves.length) return;
    for (const m of moves) {
      let child = n.children.find((c) => c.move === m);
      if (!child) {
        child = new Node(n, m);
        n.children.push(child);
      }
      n = child;
    }
    this.treeChanged();
    await this.show(n);
  }

  /** Makes the variation of the move shown its branch's main continuation. */
  promote() {
    const b = branchOf(this.current);
    if (!b) return;
    const siblings = b.parent.children;
    siblings.splice(siblings.indexOf(b), 1);
    siblings.unshift(b);
    this.treeChanged();
    this.renderTree();
    this.renderNav();
    this.writeAddress();
  }

  /** Deletes the variation of the move shown (on the main line: the move shown and all after it). */
  remove() {
    const gone = branchOf(this.current) || (this.current.parent ? this.current : null);
    if (!gone) return;
    const siblings = gone.parent.children;
    siblings.splice(siblings.indexOf(gone), 1);
    this.treeChanged();
    this.show(gone.parent);
  }

  /** The game's moves when the position shown is one of them (the address then names the game). */
  onGameLine(node) {
    if (!this.game) return false;
    const moves = movesTo(node);
    return moves.length <= this.game.moves.length && moves.every((m, i) => m === this.game.moves[i]);
  }

  /** The address of the position shown: the game and its ply, else the position string. */
  writeAddress() {
    const node = this.current;
    if (!node || !node.view || this.destroyed || location.pathname.replace(/\/+$/, "") !== "/analysis") return;
    const query = new URLSearchParams(location.search);
    let fragment = "";
    if (this.onGameLine(node)) {
      query.set("game", this.game.id);
      query.set("ply", String(node.ply));
    } else {
      query.delete("game");
      query.delete("ply");
      fragment = `#position=${encodeURIComponent(node.view.position)}`;
    }
    const qs = query.toString();
    const url = `/analysis${qs ? `?${qs}` : ""}${fragment}`;
    if (url !== location.pathname + location.search + location.hash) history.replaceState(null, "", url);
  }

  // ------------------------------------------------------------ the engine

  setEngine(on) {
    this.engineOn = on;
    storeEngine(on);
    if (!on) this.stopEngine();
    this.analyse();
  }

  stopEngine() {
    this.engineSeq++;
    clearTimeout(this.pause);
    if (this.running) {
      this.running = false;
      engine.stop();
    }
  }

  /** Analyses the position shown (after a moment, so that stepping through the tree asks for nothing), or shows what is known. */
  analyse() {
    const node = this.current;
    const seq = ++this.engineSeq;
    clearTimeout(this.pause);
    this.live = null;
    if (!node || !node.view || !this.engineOn || node.view.status === "over" || node.analysis) {
      this.renderEngine();
      return;
    }
    this.live = { node, lines: [], stats: null };
    this.renderEngine();
    this.pause = setTimeout(() => this.search(node, seq), SETTLE);
  }

  async search(node, seq) {
    if (seq !== this.engineSeq || this.destroyed) return;
    this.running = true;
    const answer = await engine.ask({ op: "analyse", position: node.view.position, movetime: MOVETIME }, (msg) => {
      if (seq !== this.engineSeq || !msg.info) return;
      const i = msg.info;
      if (!i.pv || !i.pv.length) return;
      const live = this.live;
      live.lines[i.multipv - 1] = { move: i.pv[0], score: i.score, depth: i.depth, pv: i.pv };
      live.stats = { depth: i.depth, nodes: i.nodes, time_ms: i.time_ms };
      this.renderEngine();
      this.renderOverlay();
    });
    if (seq !== this.engineSeq || this.destroyed) return;
    this.running = false;
    if (answer.error) {
      if (answer.error === "stopped") return;
      this.live = null;
      this.renderEngine(t("analysisboard.engine.failed", {
        error: answer.error === "unavailable" ? answer.message : errorText(refusal(answer)),
      }));
      return;
    }
    // A last partial depth may change the engine's choice to another line's
    // move, which then shows once: the line it replaced keeps its place.
    const first = answer.lines && answer.lines[0];
    if (first && !("win" in first.score) && answer.lines.length < 3) {
      const have = new Set(answer.lines.map((l) => l.move));
      const more = this.live.lines.filter((l) => l && !have.has(l.move));
      answer.lines = [...answer.lines, ...more].slice(0, 3);
    }
    node.analysis = answer;
    this.live = null;
    this.renderEngine();
    this.renderOverlay();
  }

  /** The lines to show now: the finished analysis's, else those found so far. */
  shownLines() {
    const node = this.current;
    if (!node || !this.engineOn) return [];
    if (node.analysis) {
      const r = node.analysis;
      return r.lines && r.lines.length ? r.lines : [{ move: r.best, score: r.score, pv: r.pv || [r.best] }];
    }
    return this.live && this.live.node === node ? this.live.lines.filter(Boolean) : [];
  }

  // ------------------------------------------------------------ keys

  key(e) {
    if (!ownKey(e) || !this.current) return;
    // T C E L M R / 1–6 pick a kind, ] [ R turn, Escape drops the selection (chooser.js).
    if (this.chooser.key(e)) return;
    // The board's cursor took it (kbd.js).
    if (e.defaultPrevented) return;
    const where = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
    if (!where) return;
    e.preventDefault();
    this.step(where);
  }

  // ------------------------------------------------------------ building

  build() {
    const btn = (testid, label, onclick, extra = {}) =>
      h("button", { type: "button", "data-testid": testid, onclick, ...extra }, label);
    this.chooser = new Chooser(this.geom, {
      enabled: () => !!this.current && !!this.current.view && this.current.view.status !== "over",
      keepTarget: true,
      onPlay: (move) => this.play(move),
      onIdle: (cell, piece) => {
        if (piece) this.say(t("analysisboard.cannot_move"));
      },
      onChange: (what) => this.selectionChanged(what),
    }, { flipped: this.flipped });
    this.board = this.chooser.board;

    this.bars = {};
    for (const side of ["white", "black"]) {
      this.bars[side] = new PlayerBar(side, this.geom, {
        onPick: (s, kind) => {
          if (this.current && this.current.view && s === this.current.view.to_move) this.chooser.pickKind(kind);
        },
        onCentral: (s) => {
          this.counting = this.counting === s ? null : s;
          this.render();
        },
      });
    }
    this.barSlots = { top: h("div", { class: "bar-slot top" }), bottom: h("div", { class: "bar-slot bottom" }) };

    this.status = h("span", { class: "ab-status-text", "data-testid": "analysis-status" });
    this.flipBtn = btn("flip-board", t("analysisboard.flip"), () => this.flip(), {
      class: this.flipped ? "tool active" : "tool", "aria-pressed": String(this.flipped), title: t("analysisboard.flip_title"),
    });

    // Making a move.
    this.turn = turnControls(this.chooser, {
      label: t("analysisboard.rotate"), title: t("analysisboard.rotate_title"), caption: t("analysisboard.rotation"),
    });
    this.selInfo = h("span", { class: "sel-info" });
    this.passBtn = btn("pass", t("analysisboard.pass"), () => this.play("pass"));
    this.warning = h("div", { class: "warning", "data-testid": "last-piece-warning", role: "status" });
    show(this.warning, false);
    this.moveInput = h("input", {
      type: "text", "data-testid": "move-input", placeholder: t("analysisboard.move_input.placeholder"),
      autocomplete: "off", autocapitalize: "off", spellcheck: "false", "aria-label": t("analysisboard.move_input.label"),
      onkeydown: (e) => {
        const text = this.moveInput.value.trim();
        if (e.key === "Enter" && text) {
          this.moveInput.value = "";
          this.play(text);
        }
      },
    });

    // The tree.
    this.treeEl = h("div", { class: "ab-tree", "data-testid": "analysis-tree", role: "group", "aria-labelledby": "ab-tree-title" });
    this.plyLabel = h("span", { class: "small ab-ply", "data-testid": "analysis-ply" });
    this.gameLink = h("a", { class: "small", "data-nav": "", "data-testid": "analysis-game-link" });
    show(this.gameLink, false);
    const nav = (testid, label, where, title) => btn(testid, label, () => this.step(where), { title, "aria-label": title, class: "ab-nav" });
    this.firstBtn = nav("analysis-first", "|◀", "first", t("analysisboard.nav.first"));
    this.prevBtn = nav("analysis-prev", "◀", "prev", t("analysisboard.nav.prev"));
    this.nextBtn = nav("analysis-next", "▶", "next", t("analysisboard.nav.next"));
    this.lastBtn = nav("analysis-last", "▶|", "last", t("analysisboard.nav.last"));
    this.promoteBtn = btn("analysis-promote", t("analysisboard.tree.promote"), () => this.promote(), {
      class: "small-button", title: t("analysisboard.tree.promote_title"),
    });
    this.deleteBtn = btn("analysis-delete", t("analysisboard.tree.delete_variation"), () => this.remove(), { class: "small-button" });
    const treePanel = h("section", { class: "panel ab-tree-panel", "data-testid": "analysis-moves" },
      h("div", { class: "row" }, h("h2", { id: "ab-tree-title" }, t("analysisboard.tree.title")), this.gameLink, this.plyLabel),
      this.treeEl,
      h("div", { class: "row ab-tree-tools" },
        h("div", { class: "ab-navs" }, this.firstBtn, this.prevBtn, this.nextBtn, this.lastBtn),
        h("div", { class: "ab-edits" }, this.promoteBtn, this.deleteBtn)));

    // The engine.
    this.engineToggle = h("button", {
      type: "button", class: "toggle", "data-testid": "analysis-engine-toggle", "aria-pressed": String(this.engineOn),
      onclick: () => this.setEngine(!this.engineOn),
    }, t("analysisboard.engine.toggle"));
    this.engineToggle.classList.toggle("active", this.engineOn);
    this.engineNote = h("p", { class: "small ab-engine-note", "data-testid": "analysis-engine-note" });
    this.linesEl = h("ol", { class: "ab-lines", "data-testid": "analysis-lines", "aria-label": t("analysisboard.engine.lines_label") });
    this.solverEl = h("div", { class: "ab-solver", "data-testid": "analysis-solver" });
    this.statsEl = h("p", { class: "small ab-stats", "data-testid": "analysis-stats" });
    const enginePanel = h("section", { class: "panel ab-engine", "data-testid": "analysis-engine", "aria-labelledby": "ab-engine-title" },
      h("div", { class: "row" }, h("h2", { id: "ab-engine-title" }, t("analysisboard.engine.title")), this.engineToggle),
      h("div", { "aria-live": "polite", "aria-atomic": "false" }, this.engineNote, this.solverEl),
      this.linesEl, this.statsEl);

    // The position: its string, copied or typed in; a new board.
    this.positionEl = h("code", { class: "link ab-position", "data-testid": "analysis-position" });
    this.positionCopy = btn("analysis-position-copy", t("analysisboard.copy"), () => this.copy(this.positionCopy, this.current?.view?.position, this.positionEl));
    this.linkCopy = btn("analysis-link-copy", t("analysisboard.position.copy_link"), () => this.copy(this.linkCopy, location.href, this.positionEl), {
      class: "small-button",
    });
    this.positionInput = h("input", {
      type: "text", id: "ab-position-input", "data-testid": "analysis-position-input", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
      placeholder: "standard:w:0:-",
      onkeydown: (e) => {
        if (e.key === "Enter") this.loadTyped();
      },
    });
    this.positionLoad = btn("analysis-position-load", t("analysisboard.position.load"), () => this.loadTyped());
    this.variantSelect = h("select", { "data-testid": "analysis-variant", "aria-label": t("analysisboard.position.variant") },
      h("option", { value: "standard" }, t("analysisboard.variant.standard")),
      h("option", { value: "basic" }, t("analysisboard.variant.basic")));
    this.newBtn = btn("analysis-new", t("analysisboard.position.new"), () => this.newBoard(this.variantSelect.value));
    const positionPanel = h("section", { class: "panel ab-io", "aria-labelledby": "ab-position-title" },
      h("h2", { id: "ab-position-title" }, t("analysisboard.position.title")),
      h("div", { class: "link-row" }, this.positionEl, this.positionCopy),
      h("div", { class: "row buttons" }, this.linkCopy),
      h("label", { class: "ab-label", for: "ab-position-input" }, t("analysisboard.position.input_label")),
      h("div", { class: "ab-field-row" }, this.positionInput, this.positionLoad),
      h("div", { class: "ab-field-row" }, this.variantSelect, this.newBtn));

    // The record: read in, or the current line written out.
    this.recordText = h("textarea", {
      id: "ab-record", class: "ab-record", "data-testid": "analysis-record", rows: "6", spellcheck: "false",
      autocomplete: "off", autocapitalize: "off", placeholder: t("analysisboard.record.placeholder"),
    });
    this.recordNote = h("p", { class: "small ab-record-note", "data-testid": "analysis-record-note", role: "status" });
    this.recordCopy = btn("analysis-record-copy", t("analysisboard.copy"), () => this.copy(this.recordCopy, this.recordText.value, this.recordText));
    const recordPanel = h("section", { class: "panel ab-io", "aria-labelledby": "ab-record-title" },
      h("h2", { id: "ab-record-title" }, t("analysisboard.record.title")),
      h("label", { class: "ab-label", for: "ab-record" }, t("analysisboard.record.label")),
      this.recordText,
      h("div", { class: "row buttons" },
        btn("analysis-record-load", t("analysisboard.record.load"), () => this.loadTypedRecord()),
        btn("analysis-record-export", t("analysisboard.record.export"), () => this.exportLine()),
        this.recordCopy,
        btn("analysis-record-download", t("analysisboard.record.download"), () => this.download())),
      this.recordNote);

    const title = h("h1", { class: "ab-title" }, t("title.analysis"));
    this.el = gameLayout({
      home: siteNav(),
      status: h("div", { class: "status ab-status", "aria-live": "polite" }, title, this.status),
      tools: [this.flipBtn],
      toast: this.toast.el,
      board: this.board.el,
      boardExtras: [],
      barTop: this.barSlots.top,
      barBottom: this.barSlots.bottom,
      controls: moveControls({
        turn: this.turn, selInfo: this.selInfo, passBtn: this.passBtn,
        confirm: this.chooser.confirm.el, warning: this.warning, moveInput: this.moveInput,
      }),
      side: [treePanel, enginePanel, positionPanel, recordPanel],
    });
    this.el.classList.add("analysis-board");
    this.el.setAttribute("data-testid", "analysis-board");
    this.el.style.setProperty("--board-aspect", this.board.aspect.toFixed(4));
    this.root.replaceChildren(this.el);
  }

  // ------------------------------------------------------------ in and out

  /** Shows a message (a toast); "" clears it. */
  say(text) {
    this.toast.say((text || "").replace(/`([^`]*)`/g, "$1"));
  }

  async copy(button, text, el) {
    if (!text) return;
    const done = await copyText(text, el);
    if (this.destroyed) return;
    if (!done) {
      this.say(t("analysisboard.copy_failed"));
      return;
    }
    const label = button.textContent;
    button.textContent = t("analysisboard.copied");
    setTimeout(() => {
      button.textContent = label;
    }, 1500);
  }

  async loadTyped() {
    const text = this.positionInput.value.trim();
    if (!text) return;
    if (await this.loadPosition(text)) this.positionInput.value = "";
  }

  async loadTypedRecord() {
    const text = this.recordText.value.trim();
    if (!text) {
      this.recordNote.textContent = t("analysisboard.record.empty");
      return;
    }
    this.recordNote.textContent = "";
    if (await this.loadRecord(text)) {
      this.recordNote.textContent = t("analysisboard.record.loaded", { count: movesTo(lineEnd(this.tree)).length });
    }
  }

  /** The record of the line shown (from the start to its end), or null after saying why not. */
  async record() {
    const moves = movesTo(lineEnd(this.current));
    const answer = await this.rules({ op: "record_write", position: this.tree.position, moves });
    if (this.destroyed) return null;
    if (answer.error) {
      this.say(errorText(refusal(answer)));
      return null;
    }
    return { text: answer.record, count: moves.length };
  }

  async exportLine() {
    if (!this.current) return;
    const r = await this.record();
    if (!r) return;
    this.recordText.value = r.text;
    this.recordNote.textContent = t("analysisboard.record.written", { count: r.count });
  }

  async download() {
    if (!this.current) return;
    const r = await this.record();
    if (!r) return;
    const url = URL.createObjectURL(new Blob([r.text], { type: "application/x-chess-pgn" }));
    const a = h("a", { href: url, download: "punct-analysis.pgn", hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  // ------------------------------------------------------------ drawing

  flip() {
    this.flipped = !this.flipped;
    storeFlip(this.flipped);
    this.flipBtn.setAttribute("aria-pressed", String(this.flipped));
    this.flipBtn.classList.toggle("active", this.flipped);
    this.board.setFlipped(this.flipped);
    this.render();
  }

  /** What the chooser changed (chooser.js onChange). */
  selectionChanged(what) {
    if (what === "hover") this.renderOverlay();
    else if (what === "turn") {
      if (this.chooser.sel?.type === "add") this.renderBars();
      this.renderSelection();
    } else if (what === "target") this.renderSelection();
    else {
      if (what === "kind" || what === "piece") this.say("");
      this.render();
    }
  }

  /** Whether a move may be made on the position shown. */
  playable() {
    const v = this.current && this.current.view;
    return !!v && v.status !== "over";
  }

  render() {
    const node = this.current;
    const v = node && node.view;
    if (!v) return;
    const d = this.el.dataset;
    d.ply = String(node.ply);
    d.toMove = v.to_move || "";
    d.status = v.status;
    d.position = v.position;
    this.renderStatus();
    this.renderBars();
    this.board.setPosition(v, {
      movable: this.chooser.movable(),
      lifted: this.chooser.lifted(),
      counted: this.counting ? { side: this.counting, cells: countedCells(v, this.geom, this.counting) } : null,
    });
    show(this.passBtn, this.playable() && this.chooser.legal.pass);
    this.moveInput.disabled = !this.playable();
    this.renderSelection();
    this.renderNav();
    this.positionEl.textContent = v.position;
  }

  renderStatus() {
    const v = this.current.view;
    const outcome = v.outcome;
    this.status.textContent = v.status !== "over" ? tSide("analysisboard.status.to_move", v.to_move)
      : outcome === "white" || outcome === "black" ? tSide("analysisboard.status.won", outcome)
        : t("analysisboard.status.draw");
  }

  renderBars() {
    const v = this.current.view;
    const sel = this.chooser.sel && this.chooser.sel.type === "add" ? this.chooser.sel : null;
    const playable = this.playable();
    for (const side of ["white", "black"]) {
      const moving = side === v.to_move;
      this.bars[side].render({
        state: v, role: "", canPick: playable && moving,
        legalKinds: moving ? new Set(this.chooser.legal.adds.keys()) : new Set(), sel: moving ? sel : null,
        counting: this.counting === side, flipped: this.flipped,
      });
    }
    // White's bar under the board, Black's over it; the other way round when the board is turned.
    const below = this.flipped ? this.bars.black.el : this.bars.white.el;
    const above = this.flipped ? this.bars.white.el : this.bars.black.el;
    if (above.parentNode !== this.barSlots.top) this.barSlots.top.append(above);
    if (below.parentNode !== this.barSlots.bottom) this.barSlots.bottom.append(below);
  }

  /** The rotation, the selection in words, the confirmation and the ghost. */
  renderSelection() {
    const ch = this.chooser;
    const v = this.current && this.current.view;
    if (!v) return;
    const sel = ch.sel;
    const kind = ch.selectedKind();
    const touch = ch.confirm.touch;
    this.turn.render(this.flipped);
    this.selInfo.textContent = !this.playable() ? ""
      : !sel ? tSide("analysisboard.select.pick", v.to_move)
        : sel.type === "add" ? t(touch ? "analysisboard.select.adding_tap" : "analysisboard.select.adding_click", { kind })
          : t(touch ? "analysisboard.select.moving_tap" : "analysisboard.select.moving_click", { kind, from: sel.piece.punct });
    ch.renderConfirm();
    // Adding one's last piece ends the game: say what decides it then.
    const warn = sel && sel.type === "add" ? lastPieceWarning(v, v.to_move) : "";
    this.warning.textContent = warn;
    show(this.warning, !!warn);
    ch.voice.selection(sel, ch.legal, `${this.showSeq}`);
    this.renderOverlay();
  }

  renderOverlay() {
    const v = this.current && this.current.view;
    if (!v) return;
    const o = this.playable() ? this.chooser.overlay() : { hover: this.chooser.hover };
    // The engine's move (or the line pointed at), unless a move is being made.
    const lines = this.shownLines();
    const best = this.pointed || (lines[0] && lines[0].move);
    if (best && !this.chooser.sel) o.best = bestDrawing(v, best);
    this.board.setOverlay(o);
  }

  renderNav() {
    const n = this.current;
    this.firstBtn.disabled = this.prevBtn.disabled = !n.parent;
    this.nextBtn.disabled = this.lastBtn.disabled = !n.children.length;
    const b = branchOf(n);
    show(this.promoteBtn, !!b);
    show(this.deleteBtn, !!n.parent);
    this.deleteBtn.textContent = b ? t("analysisboard.tree.delete_variation") : t("analysisboard.tree.delete_from");
    this.deleteBtn.title = b ? t("analysisboard.tree.delete_variation_title") : t("analysisboard.tree.delete_from_title");
    this.plyLabel.textContent = n.parent ? t("analysisboard.tree.at", { ply: n.ply }) : t("analysisboard.tree.start");
    const game = this.game;
    show(this.gameLink, !!game);
    if (game) {
      this.gameLink.setAttribute("href", `/game/${encodeURIComponent(game.id)}`);
      this.gameLink.textContent = t("analysisboard.tree.game", { id: game.id });
    }
  }

  treeChanged() {
    this.treeVersion = (this.treeVersion || 0) + 1;
  }

  /** The move number before ply `ply` ("12." for the first mover's move, "12…" for the other's when `always`), or "". */
  moveNumber(ply, always) {
    const blackFirst = this.tree.position.split(":")[1] === "b";
    const i = ply - 1 + (blackFirst ? 1 : 0);
    const n = Math.floor(i / 2) + 1;
    if (i % 2 === 0) return `${num(n)}.`;
    return always ? `${num(n)}…` : "";
  }

  /** The tree: the main line, each variation after the move it is an alternative to (blocks at the top, parentheses deeper). */
  renderTree() {
    const key = `${this.treeVersion}:${this.current ? this.current.ply : ""}:${movesTo(this.current || this.tree).join(" ")}`;
    if (key === this.treeKey) return;
    this.treeKey = key;
    const current = this.current;
    let count = 0;
    let variations = 0;
    const moveEls = (node, numbered) => {
      count++;
      const number = this.moveNumber(node.ply, numbered);
      const here = node === current;
      const b = h("button", {
        type: "button", class: here ? "ab-move current" : "ab-move", "data-testid": "analysis-move",
        "data-ply": node.ply, "data-move": node.move, "aria-current": here ? "true" : null, tabindex: here ? "0" : "-1",
        onclick: () => this.show(node),
      }, number ? h("span", { class: "ab-num" }, number) : null, node.move);
      return b;
    };
    // Parts of a line one space apart.
    const add = (box, el) => {
      if (box.lastChild) box.append(" ");
      box.append(el);
    };
    // The moves after `from`, into `box`; `depth` 0 is the main line.
    const line = (from, box, depth) => {
      let n = from;
      let numbered = true;
      while (n.children.length) {
        const main = n.children[0];
        add(box, moveEls(main, numbered));
        numbered = false;
        for (const alt of n.children.slice(1)) {
          variations++;
          const v = h(depth === 0 ? "div" : "span", {
            class: depth === 0 ? "ab-var" : "ab-var inline", "data-testid": "analysis-variation", "data-depth": depth + 1,
          });
          add(v, moveEls(alt, true));
          line(alt, v, depth + 1);
          add(box, v);
          numbered = true;
        }
        n = main;
      }
    };
    const box = h("div", { class: "ab-mainline" });
    line(this.tree, box, 0);
    // A game's result after its last move, while the main line is the game's.
    const game = this.game;
    if (game && game.score && movesTo(lineEnd(this.tree)).join(" ") === game.moves.join(" ")) {
      add(box, h("span", { class: "ab-result", "data-testid": "analysis-result" }, game.score));
    }
    const el = this.treeEl;
    const hadFocus = el.contains(document.activeElement);
    el.dataset.moves = String(count);
    el.dataset.variations = String(variations);
    el.replaceChildren(count ? box : h("p", { class: "small" }, t("analysisboard.tree.empty")));
    // One tab stop in the tree: the move shown, else the first.
    const here = el.querySelector(".current");
    const stop = here || el.querySelector(".ab-move");
    stop?.setAttribute("tabindex", "0");
    // Stepping with the keyboard from a move keeps the focus on the move shown.
    if (hadFocus) stop?.focus({ preventScroll: true });
    // The move shown in sight, by scrolling the tree only (never the page).
    if (here) {
      const top = here.offsetTop - el.offsetTop;
      if (top < el.scrollTop || top + here.offsetHeight > el.scrollTop + el.clientHeight) {
        el.scrollTop = Math.max(0, top - el.clientHeight / 2);
      }
    } else {
      el.scrollTop = 0;
    }
  }

  /** The engine's panel: off, over, thinking with the lines so far, or the finished analysis; `failed`: why none came. */
  renderEngine(failed = "") {
    this.engineToggle.setAttribute("aria-pressed", String(this.engineOn));
    this.engineToggle.classList.toggle("active", this.engineOn);
    const node = this.current;
    const v = node && node.view;
    const panel = this.linesEl.parentNode;
    const state = !this.engineOn ? "off" : !v ? "waiting" : v.status === "over" ? "over"
      : failed ? "failed" : node.analysis ? "done" : "thinking";
    if (panel) panel.dataset.state = state;
    const note = {
      off: t("analysisboard.engine.off"),
      over: t("analysisboard.engine.over"),
      failed,
      thinking: t("analysisboard.engine.thinking"),
    }[state] || "";
    this.engineNote.textContent = note;
    show(this.engineNote, !!note);
    const lines = state === "done" || state === "thinking" ? this.shownLines() : [];
    const stm = v ? v.position.split(":")[1] : "w";
    // A move of a line keeps the focus while the lines are drawn again.
    const focused = this.linesEl.contains(document.activeElement) ? document.activeElement : null;
    const at = focused ? [focused.closest("li")?.dataset.move, focused.dataset.move] : null;
    this.linesEl.replaceChildren(...lines.map((line, i) => this.lineEl(line, i, stm)));
    show(this.linesEl, lines.length > 0);
    if (at) {
      const again = [...this.linesEl.querySelectorAll(".ab-line")].find((li) => li.dataset.move === at[0])
        ?.querySelector(`[data-move="${CSS.escape(at[1] || "")}"]`);
      again?.focus({ preventScroll: true });
    }
    // The solver's verdicts come with the finished analysis.
    this.renderSolver(state === "done" ? node.analysis : null, state === "thinking");
    const stats = state === "done" ? node.analysis : state === "thinking" && this.live ? this.live.stats : null;
    this.statsEl.textContent = stats ? t("game.analysis.search", {
      depth: stats.depth, count: stats.nodes, nodes: num(stats.nodes), ms: num(stats.time_ms),
    }) : "";
    show(this.statsEl, !!stats);
  }

  /** One of the engine's lines: its evaluation, then its moves, each a button playing the line up to it. */
  lineEl(line, i, stm) {
    const e = evaluation(line.score, stm);
    const mood = e.forced ? ` forced ${e.forced === (stm === "w" ? "white" : "black") ? "good" : "bad"}` : "";
    const pv = line.pv && line.pv.length ? line.pv : [line.move];
    return h("li", {
      class: "ab-line", "data-testid": "analysis-line", "data-move": line.move, "data-depth": line.depth ?? "",
      onmouseenter: () => this.point(line.move), onmouseleave: () => this.point(null),
    },
    h("span", { class: `line-eval${mood}`, "data-testid": "analysis-line-eval", "aria-hidden": "true" }, e.short),
    h("span", { class: "sr-only" }, e.words),
    h("span", { class: "ab-pv" }, pv.map((m, k) => h("button", {
      type: "button", class: k === 0 ? "ab-pv-move first" : "ab-pv-move", "data-testid": "analysis-line-move", "data-move": m,
      title: t("analysisboard.engine.play_title"),
      onclick: () => this.playLine(pv.slice(0, k + 1)),
      onfocus: k === 0 ? () => this.point(m) : null, onblur: k === 0 ? () => this.point(null) : null,
    }, m))));
  }

  /** The connection solver's verdicts (`r`: the finished analysis; `pending`: the search still runs). */
  renderSolver(r, pending) {
    const box = this.solverEl;
    if (!r || !r.solver) {
      box.dataset.verdict = pending ? "pending" : "";
      box.replaceChildren(pending ? h("span", { class: "small" }, t("analysisboard.engine.solver_pending")) : "");
      show(box, pending);
      return;
    }
    const own = r.solver.verdict === "win" ? r.solver : null;
    const threat = !own && r.threat && r.threat.verdict === "win" ? r.threat : null;
    box.dataset.verdict = r.solver.verdict;
    box.dataset.side = r.solver.side;
    box.dataset.threat = r.threat ? r.threat.verdict : "";
    const parts = [];
    if (own) {
      const key = own.by === "end" ? "game.analysis.verdict_wins" : "game.analysis.verdict_connects";
      parts.push(this.verdict(tSide(key, own.side, { count: own.moves, line: "\u0001" }), own, "own", true));
    } else {
      parts.push(h("p", { class: "small verdict-quiet" }, r.solver.verdict === "none"
        ? tSide("game.analysis.verdict_none", r.solver.side, { count: r.solver.depth })
        : tSide("game.analysis.verdict_unknown", r.solver.side)));
    }
    if (threat) {
      const key = threat.by === "end" ? "game.analysis.threat_wins" : "game.analysis.threat_connects";
      parts.push(this.verdict(tSide(key, threat.side, { count: threat.moves, line: "\u0001" }), threat, "threat", false));
    }
    box.replaceChildren(...parts);
    show(box, true);
  }

  /** A forced win in words with its line; the side to move's own line is playable move by move. */
  verdict(sentence, v, whose, playable) {
    const [head, ...rest] = sentence.split("\u0001");
    const line = h("span", { class: "best-move verdict-line" }, v.line.map((m, k) => (playable
      ? h("button", {
        type: "button", class: "ab-pv-move", "data-testid": "analysis-verdict-move", "data-move": m,
        title: t("analysisboard.engine.play_title"), onclick: () => this.playLine(v.line.slice(0, k + 1)),
      }, m)
      : h("span", { class: "ab-pv-move plain" }, m))));
    return h("div", {
      class: `verdict ${whose} ${v.side}`, "data-testid": whose === "own" ? "analysis-verdict" : "analysis-threat",
      "data-verdict": v.verdict, "data-side": v.side, "data-moves": v.moves,
    }, head, line, rest.join(""));
  }

  point(move) {
    if (this.pointed === move) return;
    this.pointed = move;
    this.renderOverlay();
  }
}
