// Everything the page asks the server, in one place (docs/API.md).

import { ask } from "./engine.js";

/**
 * An error answer of the API: `code` and `message` are the server's,
 * `params` the values it names (a cell, a limit) and, for an illegal move,
 * `reason` the rule broken. The page shows it with i18n.js errorText().
 * Errors of the page's own (the network, an answer that is not JSON) have
 * codes too: network, timeout, bad_answer, http (params.status).
 */
export class ApiError extends Error {
  constructor(code, message, status = 0, params = null, reason = null) {
    super(message);
    this.code = code;
    this.status = status;
    this.params = { ...params };
    this.reason = reason || null;
    /** Seconds to wait before trying again (the answer's Retry-After), or null. */
    this.retryAfter = null;
  }

  /** The error of an API answer's `error` object. */
  static from(error, status = 0) {
    return new ApiError(error.code, error.message, status, error.params, error.reason);
  }
}

/**
 * Whether this page is a static copy of the site (`punct site`, docs/SITE.md):
 * no server at all, so what needs one is not offered.
 */
export const staticSite = globalThis.document?.documentElement?.dataset?.site === "static";

// What the page's own module answers when there is no server: the board's
// drawing data and the learning routes (crates/punct-wasm/src/offline.rs,
// the same answers as the server's).
const OFFLINE = /^\/api\/(board$|learn\/)/;

/** The answer of the page's module to `method path` (an offline route). */
async function fromModule(method, path, body) {
  const url = new URL(path, location.origin);
  const query = Object.fromEntries(url.searchParams);
  // The puzzle of the day: the server's day is UTC's.
  if (url.pathname === "/api/learn/puzzles/daily" && !query.date) query.date = new Date().toISOString().slice(0, 10);
  const segments = url.pathname.slice(1).split("/").map(decodeURIComponent);
  const answer = await ask({ op: "api", method, segments, query, body: body ?? null });
  if (answer.error) throw new ApiError("network", `no server, and the page's rules did not load (${answer.message})`);
  if (answer.status >= 400) throw ApiError.from(answer.body.error, answer.status);
  return answer.body;
}

async function request(method, path, body, signal, headers = {}) {
  const offline = OFFLINE.test(path.split("?")[0]);
  if (staticSite) {
    if (offline) return fromModule(method, path, body);
    throw new ApiError("network", "this copy of the site has no server");
  }
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    // Offline: the rules, lessons and puzzles come from the page itself.
    if (offline) return fromModule(method, path, body);
    throw new ApiError("network", `cannot reach the server (${e.message})`);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: handled below */
  }
  if (!res.ok) {
    const err = data && data.error;
    const failure = err
      ? ApiError.from(err, res.status)
      : new ApiError("http", `the server answered ${res.status} ${res.statusText}`, res.status, { status: res.status });
    // When to try again (429, 503): Retry-After's seconds, also as the
    // `seconds` a text names where the error itself does not give them.
    const retry = Number.parseInt(res.headers.get("retry-after") || "", 10);
    if (Number.isFinite(retry) && retry >= 0) {
      failure.retryAfter = retry;
      failure.params.seconds ??= Math.max(1, retry);
    }
    throw failure;
  }
  if (data === null) throw new ApiError("bad_answer", "the server's answer is not JSON", res.status);
  return data;
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;
const user = (name) => `/api/users/${encodeURIComponent(name)}`;
/** A query string of the set values of `params` ("" when none is set). */
function query(params) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v != null && v !== "") qs.set(k, String(v));
  const text = qs.toString();
  return text ? `?${text}` : "";
}
const lesson = (id) => `/api/learn/lessons/${encodeURIComponent(id)}`;
const puzzle = (id) => `/api/learn/puzzles/${encodeURIComponent(id)}`;
let boardInfo = null;

export const api = {
  /** The board's cells and the pieces' shapes (never changes: fetched once). */
  board() {
    boardInfo ??= request("GET", "/api/board").catch((e) => {
      boardInfo = null; // let a later call try again
      throw e;
    });
    return boardInfo;
  },
  listGames: (limit = 20) => request("GET", `/api/games?limit=${limit}`),
  /** Summaries of the games `ids` (this browser's), most recently changed first. */
  myGames: (ids) => request("GET", `/api/games?ids=${ids.map(encodeURIComponent).join(",")}&limit=${ids.length || 1}`),
  /** Ongoing games between people, to watch. */
  watchGames: (limit = 20) => request("GET", `/api/games?watch=true&limit=${limit}`),
  createGame: (body) => request("POST", "/api/games", body),
  /**
   * A game from a record's text: at one screen, or with `options` ({mode:
   * "ai", level, side}) against the AI from where the record ends.
   */
  importRecord: (record, options = {}) => request("POST", "/api/games/import", { ...options, record }),
  /**
   * The game's state; with `ply`, the state after that many plies (replay);
   * with `token`, `you` says which seats the token holds. The token goes
   * in a header, never in the URL (which ends up in logs).
   */
  game: (id, ply, token) => {
    const qs = ply != null ? `?ply=${encodeURIComponent(ply)}` : "";
    return request("GET", game(id) + qs, undefined, undefined, token ? { "x-punct-token": token } : {});
  },
  /** Takes the seat waiting for its player: {side, token, link, game}. */
  claim: (id, invite, name) => request("POST", `${game(id)}/claim`, name ? { invite, name } : { invite }),
  /** Sets the display name of the seat(s) `token` holds; answers the state. */
  setName: (id, token, name) => request("POST", `${game(id)}/name`, { token, name }),
  /** action: "offer" | "accept" | "decline"; answers the state (`rematch`: the new game's id). */
  rematch: (id, token, action) => request("POST", `${game(id)}/rematch`, { token, action }),
  /** The engine's view of game `id` after `ply` plies (refused while people play it). */
  analyseGame: (id, body, signal) => request("POST", `${game(id)}/analyse`, body, signal),
  /** A new token for the seats `token` holds (the old one stops working): {token, seats, link}. */
  renewToken: (id, token) => request("POST", `${game(id)}/token`, { token }),
  /** The signed-in account's seat in game `id` (for a device without its token): {token, seats, link}. */
  accountSeat: (id) => request("POST", `${game(id)}/seat`),
  /** A new code for the waiting seat's invite (the old one stops working): {invite: {side, code}, link}. */
  renewInvite: (id, token) => request("POST", `${game(id)}/invite`, { token }),
  /** kind: "moves" | "resign" | "draw" | "takeback"; answers the new state. */
  act: (id, kind, body) => request("POST", `${game(id)}/${kind}`, body),
  analyse: (body, signal) => request("POST", "/api/analyse", body, signal),
  recordUrl: (id) => `${game(id)}/record`,
  // Learning (the rules' diagrams, the tutorial's lessons, the puzzles).
  diagrams: (signal) => request("GET", "/api/learn/diagrams", undefined, signal),
  lessons: () => request("GET", "/api/learn/lessons"),
  lesson: (id) => request("GET", lesson(id)),
  /** The judge's answer to `move` (notation) in lesson `id`. */
  tryLesson: (id, move) => request("POST", `${lesson(id)}/try`, { move }),
  puzzles: () => request("GET", "/api/learn/puzzles"),
  dailyPuzzle: () => request("GET", "/api/learn/puzzles/daily"),
  puzzle: (id) => request("GET", puzzle(id)),
  /** The judge's answer to the learner's `moves` so far in puzzle `id`. */
  tryPuzzle: (id, moves) => request("POST", `${puzzle(id)}/try`, { moves }),
  // Accounts: the session is an HttpOnly cookie the browser sends itself
  // (and, on every POST, the Origin header the server checks).
  /**
   * {user: null, passkey_site} signed out, else {user: {id, name, created,
   * bot, password}, sessions: […], passkeys: [{id, name, created, used}],
   * passkey_site}; passkey_site: {ok: true, id} or {ok: false, code, message}.
   */
  account: () => request("GET", "/api/account"),
  signUp: (name, password) => request("POST", "/api/account/signup", { name, password }),
  signIn: (name, password) => request("POST", "/api/account/signin", { name, password }),
  signOut: () => request("POST", "/api/account/signout", {}),
  /** Ends every other session of the account: {ended: n}. */
  signOutElsewhere: () => request("POST", "/api/account/signout", { elsewhere: true }),
  /** {ended: n}: the other sessions, ended with the old password. */
  changePassword: (current, password) => request("POST", "/api/account/password",
    current == null ? { new: password } : { current, new: password }),
  /** Makes this browser's seats (`[{game, token}]`) the account's: {attached: [{game, sides}], skipped: [{game, code}]}. */
  attachSeats: (seats) => request("POST", "/api/account/seats", { seats }),
  /** Every game of the signed-in account as one record file (a download). */
  accountRecordsUrl: "/api/account/games",
  deleteAccount: (password) => request("POST", "/api/account/delete", password == null ? {} : { password }),
  /** Deletes a passkey-only account, confirmed by a fresh passkey sign-in's {ceremony, credential}. */
  deleteAccountWithPasskey: (proof) => request("POST", "/api/account/delete", { passkey: proof }),
  // Passkeys: each ceremony is a start ({ceremony, options} for webauthn.js)
  // and a finish with the browser's credential.
  passkeySignUpStart: (name) => request("POST", "/api/account/passkey/signup/start", { name }),
  /** 201 {user}, signed in: a new account with this passkey and no password. */
  passkeySignUpFinish: (ceremony, credential, label) =>
    request("POST", "/api/account/passkey/signup/finish", { ceremony, credential, ...(label ? { label } : {}) }),
  passkeySignInStart: () => request("POST", "/api/account/passkey/signin/start", {}),
  /** {user}, signed in as the account whose passkey answered. */
  passkeySignInFinish: (ceremony, credential) => request("POST", "/api/account/passkey/signin/finish", { ceremony, credential }),
  passkeyAddStart: () => request("POST", "/api/account/passkey/add/start", {}),
  /** 201 {passkey: {id, name, created, used}}. */
  passkeyAddFinish: (ceremony, credential, label) =>
    request("POST", "/api/account/passkey/add/finish", { ceremony, credential, ...(label ? { label } : {}) }),
  /** {removed: true}; 409 last_sign_in for the account's last way to sign in. */
  removePasskey: (id) => request("POST", "/api/account/passkey/remove", { id }),
  /** The account's API tokens (for bots): {tokens: [{id, label, created, used}]}, never a secret. */
  tokens: () => request("GET", "/api/account/tokens"),
  /** A new API token: {token: {id, label, created, used}, secret} — the secret shown this once. */
  createToken: (label) => request("POST", "/api/account/tokens", { label }),
  removeToken: (id) => request("POST", "/api/account/tokens/remove", { id }),
  // Players, their games and ratings.
  user: (name, signal) => request("GET", user(name), undefined, signal),
  /** filters: status, side, rated, variant, result; offset, limit → {games, offset, more}. */
  userGames: (name, filters, signal) => request("GET", `${user(name)}/games${query(filters)}`, undefined, signal),
  /** {category, points: [{at, rating, deviation, change, score, game}]}, oldest first. */
  ratingHistory: (name, category, signal) =>
    request("GET", `${user(name)}/ratings/${encodeURIComponent(category)}`, undefined, signal),
  leaderboard: (category, signal) => request("GET", `/api/leaderboard/${encodeURIComponent(category)}`, undefined, signal),
  /** {rated: false} or {rated: true, category, white: {rating, change, provisional}|null, black: …}. */
  gameRating: (id) => request("GET", `${game(id)}/rating`),
  /** {count, games: [summary]}: the signed-in account's games where it is their move. */
  turns: () => request("GET", "/api/account/turns"),
  /** {notifications: [{id, kind, other, created, read, game?, ply?, challenge?}], unread}: unread first, newest first. */
  notifications: (signal) => request("GET", "/api/account/notifications?limit=30", undefined, signal),
  /** Marks notifications read: `ids`, or every one (null) → {unread}. */
  readNotifications: (ids) => request("POST", "/api/account/notifications/read", ids ? { ids } : { all: true }),
  /** {blocks: [{name, since}]}: the players the signed-in account blocks. */
  blocks: (signal) => request("GET", "/api/account/blocks", undefined, signal),
  /** {games_in_memory, live_sockets, ai_movetime_ms}. */
  status: () => request("GET", "/api/status"),
  block: (name) => request("POST", `${user(name)}/block`, {}),
  unblock: (name) => request("POST", `${user(name)}/unblock`, {}),
};

/**
 * A state's `legal_compact` (additions grouped as "T/0": "B3 C4 …", other
 * moves under "moves") turned back into the `legal_moves` list.
 */
export function expandLegal(state) {
  const groups = state.legal_compact;
  if (!groups) return state;
  const legal = [];
  for (const [key, items] of Object.entries(groups)) {
    const cells = items.split(" ").filter(Boolean);
    if (key === "moves") {
      legal.push(...cells);
    } else {
      const [kind, rotation] = key.split("/");
      for (const cell of cells) legal.push(`${kind}@${cell}/${rotation}`);
    }
  }
  const { legal_compact: _, ...rest } = state;
  return { ...rest, legal_moves: legal };
}

/** The fields of a state the page's own rules make (punct-view's board). */
const BOARD_FIELDS = ["variant", "position", "to_move", "status", "reserves", "central", "pieces", "stacks"];

/**
 * The game's live WebSocket: every state the server pushes goes to
 * `onState`; requests sent here are answered by `ack` or `error`. It
 * reconnects by itself with a growing delay and the server sends the
 * current state on every (re)connection, so nothing is missed.
 *
 * With `ask` (engine.js's, the page's own rules) it follows moves: after
 * the first state the server sends each change as an `update` of a few
 * hundred bytes (the move, the version, what else changed) and this
 * makes the next state from it, the board with its own rules. An update
 * that does not follow the state held (a version missed) asks the
 * server for the whole state (`sync`).
 */
export class LiveSocket {
  /**
   * token: our seat's (said in a `hello`, so the others see us connected);
   * onPresence(msg): who is connected and how many watch; onTime(now): the
   * server's clock (for counting clocks down).
   */
  constructor(id, { onState, onConnection, spectator = false, token = null, onPresence = () => {}, onTime = () => {}, ask = null, state = null }) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // A spectator needs no legal moves; a player reads them grouped (a
    // third of the size) and gets them back as the usual list.
    this.url = `${scheme}://${location.host}${game(id)}/live?legal_moves=${spectator ? "false" : "compact"}${ask ? "&updates=moves" : ""}`;
    this.ask = ask;
    this.spectator = spectator;
    // The last state given to onState (at first the one the page read
    // over HTTP), which the next update follows.
    this.state = ask ? state : null;
    // Messages are handled one after another: an update waits for the
    // rules' answer before the next message is read.
    this.queue = Promise.resolve();
    this.onState = onState;
    this.onConnection = onConnection;
    this.token = token;
    this.onPresence = onPresence;
    this.onTime = onTime;
    this.pending = new Map(); // request id → {resolve, reject, timer}
    this.nextId = 1;
    this.delay = 500;
    this.closed = false;
    this.connect();
  }

  get open() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.closed) return;
    // Following moves, the socket says which version the page holds: if
    // it is the game's, no whole state need come.
    const ws = new WebSocket(this.state ? `${this.url}&version=${this.state.version}` : this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      if (this.token) ws.send(JSON.stringify({ type: "hello", token: this.token }));
      this.onConnection(true);
    };
    ws.onmessage = (ev) => {
      this.queue = this.queue.then(() => this.receive(ev.data, ws)).catch(() => {});
    };
    ws.onerror = () => {}; // a close event always follows
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.failPending("the connection to the server was lost");
      if (this.closed) return;
      this.onConnection(false);
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 10000);
    };
  }

  async receive(text, ws) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === "state") {
      this.state = expandLegal(msg.game);
      this.onState(this.state);
      return;
    }
    if (msg.type === "update") {
      const next = await this.follow(msg);
      if (ws !== this.ws) return;
      if (next) {
        this.state = next;
        this.onState(next);
      } else if (ws.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify({ type: "sync" }));
      }
      return;
    }
    if (msg.type === "presence") {
      this.onPresence(msg);
      return;
    }
    if (msg.type === "time") {
      this.onTime(msg.now);
      return;
    }
    const waiting = this.pending.get(msg.id);
    if (!waiting) return;
    this.pending.delete(msg.id);
    clearTimeout(waiting.timer);
    if (msg.type === "error") waiting.reject(ApiError.from(msg.error));
    else waiting.resolve(msg);
  }

  /**
   * The state after `update` (docs/API.md, "Live updates"), the board made
   * by the page's rules; null when it does not follow the state held or
   * the rules cannot make it (the caller then asks for the whole state).
   */
  async follow(update) {
    const before = this.state;
    if (!before || !this.ask || update.previous !== before.version) return null;
    const next = { ...before, ...update.changes, version: update.version, ply: update.ply };
    let board = null;
    if (update.move) {
      if (update.ply !== before.ply + 1) return null;
      next.moves = [...before.moves, update.move];
      board = await this.ask({ op: "play", position: before.position, move: update.move });
    } else if (update.ply !== before.ply) {
      if (update.ply > before.ply) return null;
      next.moves = before.moves.slice(0, update.ply);
      board = await this.ask({ op: "view", position: before.start, moves: next.moves });
    }
    if (board) {
      if (board.error === "unavailable") {
        // The page's rules did not load: whole states from now on.
        this.ask = null;
        this.state = null;
        this.url = this.url.replace("&updates=moves", "");
        this.ws?.close();
        return null;
      }
      if (board.error) return null;
      for (const field of BOARD_FIELDS) next[field] = board[field];
      next.last_move = next.moves.length ? next.moves[next.moves.length - 1] : null;
      if (this.spectator) delete next.legal_moves;
      else return expandLegal({ ...next, legal_compact: board.legal_compact });
    }
    return next;
  }

  /** Sends `msg` (with a fresh id); resolves on `ack`, rejects with the error. */
  request(msg) {
    return new Promise((resolve, reject) => {
      if (!this.open) {
        reject(new ApiError("network", "not connected to the server"));
        return;
      }
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ApiError("timeout", "the server did not answer in time"));
      }, 15000);
      this.pending.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }

  failPending(message) {
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(new ApiError("network", message));
    }
    this.pending.clear();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.failPending("closed");
    if (this.ws) this.ws.close();
  }
}

/**
 * The lobby's WebSocket (`/api/lobby/live`, docs/API.md "The lobby"):
 * every message the server sends goes to `onMessage` (the whole list
 * first, then `added`, `removed`, and the answers `seeking`, `cancelled`,
 * `paired`, `error`). It reconnects by itself with a growing delay; each
 * connection begins with the whole list again. A socket's seeks go when it
 * closes, so `onConnection(false)` means they are gone.
 */
export class LobbySocket {
  constructor({ onMessage, onConnection = () => {} }) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    this.url = `${scheme}://${location.host}/api/lobby/live`;
    this.onMessage = onMessage;
    this.onConnection = onConnection;
    this.nextId = 1;
    this.delay = 500;
    this.closed = false;
    this.connect();
  }

  get open() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.closed) return;
    // Following moves, the socket says which version the page holds: if
    // it is the game's, no whole state need come.
    const ws = new WebSocket(this.state ? `${this.url}&version=${this.state.version}` : this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onConnection(true);
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg && typeof msg.type === "string") this.onMessage(msg);
    };
    ws.onerror = () => {}; // a close event always follows
    ws.onclose = () => {
      if (this.ws !== ws || this.closed) return;
      this.onConnection(false);
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 15000);
    };
  }

  /** Sends `msg` with a fresh id (answered by a message with that id); the id, or null when not connected. */
  send(msg) {
    if (!this.open) return null;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
