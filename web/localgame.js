// Casual games against the AI (and, on a static copy of the site, games
// of two people at one screen) played in this browser: the rules and the
// AI run in the page's worker (engine.js, punct.wasm), the game is kept in
// this browser's storage, and once the page is loaded nothing needs the
// server — the game goes on with the network gone. Rated games and games
// between people stay on the server, where no client can influence them.
//
// A local game's id starts with `local-`. The game screen (game.js) asks
// a LocalGame what it asks the server for a server game: its state (the
// same fields as the server's, docs/API.md, made by the same rules crate
// through punct-view), the state after a move, a resignation or a
// takeback, an earlier ply for replay, and the AI's answers as they come
// (as the live socket brings them).

import * as engine from "./engine.js";
import { api, expandLegal } from "./api.js";

const STORE = "punct.local-games";
// The most games kept: the oldest finished ones go first.
const KEEP = 50;
// Until the server has said how long its AI thinks (GET /api/status).
const DEFAULT_MOVETIME = 1000;

export const isLocal = (id) => /^local-[a-z0-9]{6,20}$/.test(id || "");

/** The sides the person at this screen plays: both in a game without the AI. */
const peopleOf = (r) => (r.ai_side ? [r.ai_side === "white" ? "black" : "white"] : ["white", "black"]);

/** Who moves at ply `i` of record `r`. */
const moverOf = (r, i) => ((i % 2 === 0) === (r.start.split(":")[1] === "w") ? "white" : "black");

function all() {
  try {
    const games = JSON.parse(localStorage.getItem(STORE) || "{}");
    return games && typeof games === "object" ? games : {};
  } catch {
    return {};
  }
}

function keep(record) {
  const games = all();
  games[record.id] = record;
  const ids = Object.keys(games);
  if (ids.length > KEEP) {
    const old = ids.map((id) => games[id]).sort((a, b) => (!!b.end - !!a.end) || a.updated - b.updated);
    for (const g of old.slice(0, ids.length - KEEP)) if (g.id !== record.id) delete games[g.id];
  }
  localStorage.setItem(STORE, JSON.stringify(games));
}

/** How long the AI thinks a move: the server's `--ai-movetime`, remembered for offline. */
async function movetime() {
  try {
    const status = await api.status();
    if (status.ai_movetime_ms > 0) localStorage.setItem(`${STORE}.movetime`, String(status.ai_movetime_ms));
  } catch {
    /* offline: as last time */
  }
  return Number(localStorage.getItem(`${STORE}.movetime`)) || DEFAULT_MOVETIME;
}

/**
 * A new game against AI level `level` (1–4), the person playing `side`
 * (`white`, `black` or `random`), kept in this browser; its id. With
 * `level` null, a game of two people at this screen (no AI). From
 * `position` (a position string: the editor's) when given.
 */
export async function createLocalGame({ variant = "standard", position = null, level = 1, side = "white", name = null }) {
  const start = await engine.ask(position ? { op: "view", position } : { op: "view", variant });
  if (start.error) throw new Error(start.message);
  // Asked now, while the server is surely there: how long the AI thinks.
  if (level != null) await movetime();
  const human = side === "random" ? (Math.random() < 0.5 ? "white" : "black") : side;
  const id = `local-${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => (b % 36).toString(36)).join("")}`;
  const now = Date.now();
  keep({
    id, variant: start.variant || variant, start: start.position, moves: [], level: level == null ? null : Number(level),
    ai_side: level == null ? null : human === "white" ? "black" : "white", name, created: now, updated: now, version: 1, end: null,
  });
  return id;
}

/**
 * This browser's games against the AI, as the server's game lists show a
 * game (docs/API.md), for "My games": newest first.
 */
export function localGameSummaries() {
  return Object.values(all())
    .filter((r) => r && isLocal(r.id))
    .map((r) => {
      const s = r.seen || {};
      const over = !!r.end || s.status === "over";
      const moverNext = moverOf(r, r.moves.length);
      return {
        id: r.id, mode: r.ai_side ? "ai" : "hotseat", local: true, ai: r.ai_side ? { level: r.level, side: r.ai_side } : null, variant: r.variant,
        players: {
          white: { name: r.ai_side === "white" ? null : r.name, ai: r.ai_side === "white" },
          black: { name: r.ai_side === "black" ? null : r.name, ai: r.ai_side === "black" },
        },
        status: over ? "over" : "ongoing", to_move: over ? null : moverNext,
        result: r.end ? r.end.score : over ? s.score ?? null : null,
        ply: r.moves.length, created: r.created, updated: r.updated, clock: null, you: peopleOf(r),
      };
    })
    .sort((a, b) => b.created - a.created);
}

/** A local game as the game screen sees a game's home. */
export class LocalGame {
  constructor(id) {
    this.id = id;
    this.onState = () => {};
    this.thinking = false;
    this.closed = false;
  }

  record() {
    const r = all()[this.id];
    if (!r) {
      const e = new Error(`no game ${this.id} in this browser`);
      e.code = "unknown_game";
      throw e;
    }
    return r;
  }

  /** The state after `ply` plies (all by default), as the server's state. */
  async game(ply = null) {
    const r = this.record();
    const total = r.moves.length;
    const n = ply == null ? total : Math.max(0, Math.min(total, ply));
    const moves = r.moves.slice(0, n);
    const board = await engine.ask({ op: "view", position: r.start, moves });
    if (board.error) throw Object.assign(new Error(board.message), { code: board.error });
    const ended = n === total && r.end;
    const over = board.status === "over" || !!ended;
    const { legal_compact: compact, outcome: _o, legal_count: _c, result: ruled, ...fields } = board;
    const state = {
      ...fields,
      id: r.id, mode: r.ai_side ? "ai" : "hotseat", local: true, ai: r.ai_side ? { level: r.level, side: r.ai_side } : null,
      version: r.version, created: r.created, updated: r.updated,
      start: r.start, moves, ply: n, last_move: moves.length ? moves[moves.length - 1] : null,
      result: ended ? r.end : ruled ?? null,
      status: over ? "over" : "ongoing", to_move: over ? null : fields.to_move,
      draw_offer: null, takeback_request: null, invite_open: null, abortable: !over && n < 2,
      imported: false, tags: null, ai_thinking: !over && n === total && this.thinking,
      notice: null, notice_code: null, notice_params: null, clock: null,
      players: {
        white: { name: r.ai_side === "white" ? `PÜNCT AI level ${r.level}` : r.ai_side ? r.name : null, ai: r.ai_side === "white", bot: false },
        black: { name: r.ai_side === "black" ? `PÜNCT AI level ${r.level}` : r.ai_side ? r.name : null, ai: r.ai_side === "black", bot: false },
      },
      assisted: false, white_user: null, black_user: null, rated: false,
      rematch_offer: null, rematch: r.rematch ?? null, review: null, chat: [], you: peopleOf(r),
      legal_moves: over || !compact ? [] : expandLegal({ legal_compact: compact }).legal_moves,
    };
    if (ply != null && n < total) {
      state.replay = true;
      state.plies_total = total;
    }
    return state;
  }

  /**
   * Notes how the game stands after `state` (the whole game's) for the
   * game lists, which do not run the rules; called where the game changes.
   */
  noteSeen(state) {
    const r = this.record();
    if (state.replay || (r.seen && r.seen.ply === state.ply && r.seen.status === state.status)) return;
    keep({ ...r, seen: { ply: state.ply, status: state.status, score: state.result ? state.result.score : null } });
  }

  /** What the live socket does for a server game: the AI's moves come to `onState`. */
  follow(onState) {
    this.onState = onState;
    this.think();
    return { open: true, request: (msg) => this.request(msg), close: () => this.close() };
  }

  close() {
    this.closed = true;
    if (this.thinking) engine.stop();
  }

  /** A request of the page (as on the live socket): answered with the new state. */
  async request({ type, move, action }) {
    const r = this.record();
    const state = await this.game();
    const fail = (code, message) => Object.assign(new Error(message), { code });
    if (type === "move") {
      if (state.status !== "ongoing" || state.to_move === r.ai_side) throw fail("not_your_turn", "it is not your turn");
      const checked = await engine.ask({ op: "check", position: state.position, move });
      if (!checked.legal) {
        throw Object.assign(fail("illegal_move", checked.message || "illegal"), { reason: checked.reason, params: checked.params });
      }
      this.save({ moves: [...r.moves, checked.move] });
    } else if (type === "resign") {
      if (state.status !== "ongoing") throw fail("game_over", "the game is over");
      // Against the AI the person resigns; at one screen, the side to move.
      const human = r.ai_side ? peopleOf(r)[0] : state.to_move;
      const winner = human === "white" ? "black" : "white";
      this.save({ end: { score: winner === "white" ? "1-0" : "0-1", winner, reason: "resignation", side: human, text: `${human} resigns` } });
    } else if (type === "abort") {
      if (!state.abortable) throw fail("too_late_to_abort", "too late to abort");
      const human = r.ai_side ? peopleOf(r)[0] : state.to_move;
      this.save({ end: { score: "*", winner: null, reason: "aborted", side: human, text: `${human} aborted the game` } });
    } else if (type === "takeback" && action === "request") {
      // As on the server: a game the rules ended may be taken back, not one
      // resigned or aborted.
      if (r.end) throw fail("game_over", "the game is over");
      // Back to before the person's last move (and the AI's answer to it);
      // at one screen, the last move.
      const people = peopleOf(r);
      let n = r.moves.length;
      while (n > 0 && !people.includes(moverOf(r, n - 1))) n--;
      if (n === 0) throw fail("nothing_to_take_back", "you have not moved yet");
      if (this.thinking) engine.stop();
      this.thinking = false;
      this.save({ moves: r.moves.slice(0, n - 1) });
    } else {
      throw fail("not_here", `${type} is not part of a game against the AI in this browser`);
    }
    const after = await this.game();
    this.noteSeen(after);
    this.onState(after);
    this.think();
    return { type: "ack" };
  }

  /** A new game, colours swapped; its id. */
  async rematch() {
    const r = this.record();
    const human = peopleOf(r)[0];
    const id = await createLocalGame({ variant: r.variant, level: r.level, side: human === "white" ? "black" : "white", name: r.name });
    this.save({ rematch: id });
    return id;
  }

  save(change) {
    const r = this.record();
    keep({ ...r, ...change, version: r.version + 1, updated: Date.now() });
  }

  /** When it is the AI's turn, it thinks (in the worker) and plays. */
  async think() {
    if (this.thinking || this.closed) return;
    const state = await this.game();
    if (!state.ai || state.status !== "ongoing" || state.to_move !== state.ai.side) return;
    this.thinking = true;
    this.onState(await this.game());
    const r = this.record();
    const answer = await engine.ask({ op: "ai", level: r.level, movetime: await movetime(), seed: r.created + r.moves.length, position: state.position });
    this.thinking = false;
    if (this.closed || answer.error) return;
    const now = this.record();
    // Taken back or ended meanwhile: that game no longer asks.
    if (now.moves.length !== r.moves.length || now.end) return;
    this.save({ moves: [...now.moves, answer.move] });
    const after = await this.game();
    this.noteSeen(after);
    this.onState(after);
  }

  /** The record of the game (for download). */
  async recordText() {
    const r = this.record();
    const answer = await engine.ask({ op: "record_write", position: r.start, moves: r.moves });
    return answer.record || "";
  }
}
