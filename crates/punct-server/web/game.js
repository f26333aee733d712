// The game screen: board, reserves, moves, replay, offers, analysis.
// Whatever the rules decide (legal moves, movability, reserves, results)
// is read from the server's state; the page only asks.

import { api, LiveSocket } from "./api.js";
import { h, show, cap, other, gameMemory } from "./dom.js";
import { Board, Geometry, pieceIcon } from "./board.js";
import { Analysis } from "./analysis.js";

const KINDS = ["T", "C", "E", "L", "M", "R"];
const KIND_NAMES = {
  T: "triangle", C: "straight, PÜNCT in the centre", E: "straight, PÜNCT at an end",
  L: "angle", M: "angle, PÜNCT at the corner", R: "angle, mirror of L",
};
const LEVEL_NAMES = { 1: "beginner", 2: "casual", 3: "club", 4: "strongest" };
const ADD = /^([TCELMR])@([A-Q]\d+)\/(\d)$/;
const MOVE = /^([A-Q]\d+)-([A-Q]\d+)\/(\d)$/;

/** `invite`: an invite code from the address, claimed before the game shows. */
export function gameScreen(root, id, { invite = null } = {}, navigate) {
  const screen = new GameScreen(root, id, invite, navigate);
  screen.start();
  return screen;
}

/** The legal moves of a state, indexed for the board's highlights. */
function indexMoves(state) {
  const adds = new Map(); // kind → rotation → Set(cell)
  const moves = new Map(); // from → to → Set(rotation)
  let pass = false;
  for (const m of state.legal_moves || []) {
    let x;
    if ((x = ADD.exec(m))) {
      const [, kind, cell, rot] = x;
      if (!adds.has(kind)) adds.set(kind, new Map());
      const byRot = adds.get(kind);
      if (!byRot.has(+rot)) byRot.set(+rot, new Set());
      byRot.get(+rot).add(cell);
    } else if ((x = MOVE.exec(m))) {
      const [, from, to, rot] = x;
      if (!moves.has(from)) moves.set(from, new Map());
      const byTo = moves.get(from);
      if (!byTo.has(to)) byTo.set(to, new Set());
      byTo.get(to).add(+rot);
    } else if (m === "pass") {
      pass = true;
    }
  }
  return { adds, moves, pass };
}

/**
 * A link to pass on: the full address, wrapped to fit a phone and
 * selected whole by one tap or click (to copy by hand), and a copy button.
 */
function linkRow(url, testid, copyTestid, say) {
  const text = h("code", { class: "link", "data-testid": testid }, url);
  const copy = h("button", { type: "button", "data-testid": copyTestid }, "Copy");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = "Copied";
    } catch {
      window.getSelection()?.selectAllChildren(text);
      say("The browser did not allow copying: the link is selected, copy it by hand.");
    }
  });
  return h("div", { class: "link-row" }, text, copy);
}

class GameScreen {
  constructor(root, id, invite, navigate) {
    this.root = root;
    this.id = id;
    this.invite = invite; // to claim (from an invite link)
    this.token = gameMemory.get(id)?.token || null; // our seat's, kept in this browser
    this.navigate = navigate;
    this.live = null; // the game now
    this.view = null; // what the board shows: `live`, or a replayed ply
    this.replayPly = null; // null: live
    this.replayCache = new Map(); // moves prefix → replayed state
    this.replayReq = 0;
    this.sel = null; // {type: "add", kind, rot} | {type: "move", piece, rot}
    this.hover = null;
    this.pinned = null; // the cell whose stack is shown when nothing is hovered
    this.busy = false;
    this.connected = false;
    this.resignArmed = false;
    this.you = []; // the seats this page's token holds, as the server says
    this.onKey = (e) => this.key(e);
  }

  async start() {
    this.message = h("div", { class: "message", "data-testid": "message", role: "alert", onclick: () => this.say("") });
    this.root.replaceChildren(h("div", { class: "game loading", "data-testid": "game" },
      h("p", {}, "Loading the game…"), this.message));
    let info;
    let state;
    let note = "";
    try {
      if (this.invite) note = await this.claim();
      if (this.destroyed) return;
      [info, state] = await Promise.all([api.board(), api.game(this.id, null, this.token)]);
    } catch (e) {
      if (this.destroyed) return;
      this.say(e.message);
      this.root.firstChild.append(h("p", {}, h("a", { href: "/", "data-nav": "" }, "Back to the start page")));
      return;
    }
    if (this.destroyed) return;
    this.geom = new Geometry(info);
    this.build();
    this.you = state.you || [];
    if (this.token && !this.you.length) {
      // Renewed elsewhere (or never valid): this browser no longer holds the seat.
      gameMemory.forget(this.id);
      this.token = null;
      note ||= "The link this browser kept for this game no longer holds a seat (a new one was made for it): you are watching.";
    }
    this.say(note);
    this.applyLive(state);
    this.socket = new LiveSocket(this.id, {
      // A spectator needs no legal moves: its states are a fraction of the size.
      spectator: !this.you.length,
      onState: (s) => this.applyLive(s),
      onConnection: (up) => {
        this.connected = up;
        this.renderStatus();
      },
    });
    document.addEventListener("keydown", this.onKey);
  }

  /**
   * Claims the seat of the invite in the address, then takes the code out
   * of the address. Answers a message for the person ("" when all went well).
   */
  async claim() {
    const invite = this.invite;
    this.invite = null;
    const clear = () => {
      if (location.pathname === `/game/${this.id}`) history.replaceState(null, "", `/game/${this.id}`);
    };
    if (this.token) {
      // The creator opening their own invite would take both seats: keep it for the opponent.
      const mine = await api.game(this.id, null, this.token).catch(() => null);
      if (mine && mine.you && mine.you.length) {
        clear();
        return `That was the invite link for your opponent's seat: send it to them. You play ${mine.you.map(cap).join(" and ")} here.`;
      }
    }
    try {
      const claimed = await api.claim(this.id, invite);
      gameMemory.add(this.id, claimed.token);
      this.token = claimed.token;
      clear();
      return "";
    } catch (e) {
      const why = {
        invite_used: "This invite has been used: you are watching.",
        bad_invite: "This invite link is not valid for this game (is it complete?): you are watching.",
        game_over: "The game ended before anyone took this seat: you are watching.",
      }[e.code];
      if (!why) throw e; // an unknown game or the network: shown as a load error
      clear();
      return why;
    }
  }

  /** A new token for our seat; the old link stops working (docs/API.md). */
  async renewToken() {
    if (!this.token || this.busy) return;
    this.renewBtn.disabled = true;
    try {
      const renewed = await api.renewToken(this.id, this.token);
      gameMemory.add(this.id, renewed.token);
      this.token = renewed.token;
      const url = new URL(renewed.link, location.origin).href;
      this.seatLink.replaceChildren(
        h("p", { class: "small" }, "Your seat's new link: open it on the device you move to. Keep it to yourself: whoever has it plays your seat."),
        linkRow(url, "seat-link", "copy-seat-link", (text) => this.say(text)),
        h("p", { class: "small", "data-testid": "renew-note" }, "The old link has stopped working, on every device that had it."));
      show(this.seatLink, true);
      this.say("");
    } catch (e) {
      this.say(e.message);
    } finally {
      this.renewBtn.disabled = false;
    }
  }

  destroy() {
    this.destroyed = true;
    document.removeEventListener("keydown", this.onKey);
    clearTimeout(this.resignTimer);
    this.socket?.close();
    this.analysis?.destroy();
  }

  // ------------------------------------------------------------ layout

  build() {
    const btn = (testid, label, onclick, extra = {}) =>
      h("button", { type: "button", "data-testid": testid, onclick, ...extra }, label);
    this.board = new Board(this.geom, {
      onCell: (c) => this.clickCell(c),
      onHover: (c) => this.hoverCell(c),
      onWheel: (dy) => this.sel != null && (this.rotate(dy > 0 ? 1 : -1), true),
    });
    this.reserves = {};
    const reservePanel = (side) => {
      const buttons = KINDS.map((kind) => {
        return h("button", {
          type: "button", class: "kind", "data-testid": `reserve-${side}-${kind}`, "data-kind": kind,
          title: `${kind}: ${KIND_NAMES[kind]}`, onclick: () => this.pickKind(side, kind),
        });
      });
      this.reserves[side] = { buttons, label: h("span", { class: "who" }) };
      return h("div", { class: `reserve ${side}`, "data-side": side }, this.reserves[side].label, h("div", { class: "kinds" }, buttons));
    };
    this.reserveEls = { white: reservePanel("white"), black: reservePanel("black") };

    this.status = h("div", { class: "status", "data-testid": "status", "aria-live": "polite" });
    this.connection = h("span", { class: "connection", "data-testid": "connection" });
    this.banner = h("div", { class: "result-banner", "data-testid": "result-banner", role: "status" });
    this.notice = h("div", { class: "notice", "data-testid": "notice" });
    this.players = h("div", { class: "players", "data-testid": "players" });

    this.rotation = h("span", { class: "rotation", "data-testid": "rotation" }, "0");
    this.rotationIcon = h("span", { class: "rotation-icon" });
    this.rotateBtn = btn("rotate", "⟳ Rotate (R)", () => this.rotate(1), { title: "rotate: R key or mouse wheel" });
    this.passBtn = btn("pass", "Pass", () => this.sendMove("pass"));
    this.moveInput = h("input", {
      type: "text", "data-testid": "move-input", placeholder: "type a move: E@C5/2, G5-G9/4, pass",
      autocomplete: "off", autocapitalize: "off", spellcheck: "false", "aria-label": "move in notation",
      onkeydown: (e) => {
        if (e.key === "Enter" && this.moveInput.value.trim()) this.sendMove(this.moveInput.value.trim(), true);
      },
    });
    this.selInfo = h("span", { class: "sel-info" });

    this.takebackBtn = btn("takeback", "Take back", () => this.act("takeback", { action: "request" }));
    this.drawBtn = btn("offer-draw", "Offer a draw", () => this.act("draw", { action: "offer" }));
    this.resignBtn = btn("resign", "Resign", () => this.resign());
    this.drawPrompt = h("div", { class: "prompt" }, h("span", { class: "prompt-text" }),
      btn("accept-draw", "Accept draw", () => this.act("draw", { action: "accept" })),
      btn("decline-draw", "Decline", () => this.act("draw", { action: "decline" })));
    this.takebackPrompt = h("div", { class: "prompt" }, h("span", { class: "prompt-text" }),
      btn("accept-takeback", "Allow takeback", () => this.act("takeback", { action: "accept" })),
      btn("decline-takeback", "Decline", () => this.act("takeback", { action: "decline" })));

    this.moveList = h("div", { class: "move-list", "data-testid": "move-list" });
    this.slider = h("input", {
      type: "range", min: 0, max: 0, value: 0, step: 1, "data-testid": "replay-slider", "aria-label": "replay: ply",
      oninput: () => this.showPly(+this.slider.value),
    });
    this.prevBtn = btn("replay-prev", "◀", () => this.step(-1), { title: "previous ply (←)", "aria-label": "previous ply" });
    this.nextBtn = btn("replay-next", "▶", () => this.step(1), { title: "next ply (→)", "aria-label": "next ply" });
    this.liveBtn = btn("back-to-live", "Back to live", () => this.showPly(this.live.ply));
    this.replayLabel = h("span", { class: "replay-label", "data-testid": "replay-label" });

    this.invitePanel = h("section", { class: "panel invite", "data-testid": "invite" });
    show(this.invitePanel, false);
    this.renewBtn = btn("renew-token", "New link for my seat", () => this.renewToken(), {
      class: "small-button", title: "Makes a new private link for your seat (to move to another device); the old one stops working",
    });
    this.seatLink = h("div", { class: "seat-link" });
    show(this.seatLink, false);

    this.stackView = h("div", { class: "stack-view", "data-testid": "stack-view" });
    this.analysis = new Analysis({
      onChange: () => this.renderBoard(),
      onPly: (n) => this.showPly(n),
      onError: (e) => this.say(e.message),
    });

    this.el = h("div", { class: "game", "data-testid": "game" },
      h("header", { class: "topbar" },
        h("a", { href: "/", "data-nav": "", class: "home" }, "PÜNCT"), this.status, this.connection),
      this.message,
      this.banner,
      this.invitePanel,
      h("div", { class: "game-layout" },
        h("section", { class: "board-column" },
          this.reserveEls.black,
          h("div", { class: "board-wrap" }, this.board.el),
          this.reserveEls.white,
          h("div", { class: "controls" },
            this.rotateBtn, h("span", { class: "rotation-box" }, "rotation ", this.rotation, this.rotationIcon),
            this.selInfo, this.passBtn),
          h("div", { class: "controls" }, this.moveInput)),
        h("aside", { class: "side-column" },
          h("section", { class: "panel" }, this.players, this.notice,
            this.drawPrompt, this.takebackPrompt,
            h("div", { class: "row buttons" }, this.takebackBtn, this.drawBtn, this.resignBtn),
            h("div", { class: "row buttons seat" }, this.renewBtn), this.seatLink),
          h("section", { class: "panel" },
            h("div", { class: "row" }, h("h2", {}, "Moves"), this.replayLabel),
            this.moveList,
            h("div", { class: "row replay" }, this.prevBtn, this.slider, this.nextBtn),
            h("div", { class: "row" }, this.liveBtn,
              h("a", { href: api.recordUrl(this.id), download: `punct-${this.id}.pgn`, "data-testid": "download-record" }, "Download record"))),
          h("section", { class: "panel" }, h("h2", {}, "Stack"), this.stackView),
          this.analysis.el)));
    this.root.replaceChildren(this.el);
  }

  // ------------------------------------------------------------ state

  /** Seats this page holds (both at a hot-seat screen): the server said at load. */
  seats() {
    return this.live ? this.you : [];
  }

  applyLive(state) {
    // An older or known state; one of the same version may still tell news
    // that is not stored (the AI stopped or resumed thinking, a notice).
    const known = this.live && (state.version < this.live.version ||
      (state.version === this.live.version && state.ai_thinking === this.live.ai_thinking &&
        state.notice === this.live.notice));
    if (known) return;
    const wasLive = this.live;
    this.live = state;
    this.legal = indexMoves(state);
    if (this.replayPly != null && this.replayPly >= state.ply) this.replayPly = null;
    if (this.replayPly == null) this.view = state;
    // A new state makes any half-made move meaningless.
    this.sel = null;
    this.resignArmed = false;
    if (wasLive && wasLive.status !== state.status && state.status === "over") this.say("");
    this.render();
  }

  /** Whether the person at this screen may move now on the board shown. */
  canMove() {
    const s = this.live;
    return !!s && this.replayPly == null && s.status === "ongoing" && !s.ai_thinking &&
      this.seats().includes(s.to_move) && !this.busy;
  }

  say(text) {
    this.message.textContent = text || "";
  }

  // ------------------------------------------------------------ actions

  /** Sends a request over the live socket (or HTTP when it is down). */
  async act(type, fields) {
    if (this.busy) return false;
    this.busy = true;
    this.renderControls();
    try {
      const body = { ...fields, token: this.token || "" };
      if (this.socket && this.socket.open) {
        await this.socket.request({ type, ...body });
      } else {
        const path = { move: "moves", resign: "resign", draw: "draw", takeback: "takeback" }[type];
        this.applyLive(await api.act(this.id, path, body));
      }
      this.say("");
      return true;
    } catch (e) {
      if (e.code === "bad_token" && this.token) {
        // A new link was made for the seat elsewhere: this browser's is void.
        gameMemory.forget(this.id);
        this.token = null;
        this.you = [];
        this.say("A new link was made for your seat (on another device): this one no longer plays it, you are watching. Open the new link to play here.");
      } else {
        this.say(e.message);
      }
      return false;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async sendMove(text, fromInput = false) {
    const ok = await this.act("move", { move: text, ply: this.live.ply });
    if (ok) {
      this.sel = null;
      if (fromInput) this.moveInput.value = "";
      this.render();
    }
  }

  resign() {
    if (!this.resignArmed) {
      // Confirm in the page (no window.confirm): a second click resigns.
      this.resignArmed = true;
      clearTimeout(this.resignTimer);
      this.resignTimer = setTimeout(() => {
        this.resignArmed = false;
        this.renderControls();
      }, 5000);
      this.renderControls();
      return;
    }
    this.resignArmed = false;
    clearTimeout(this.resignTimer);
    this.act("resign", {});
  }

  // ------------------------------------------------------------ selection

  /** The piece whose dot is on top of `cell`, if any. */
  topPieceAt(cell) {
    const stack = this.view.stacks[cell];
    if (!stack || !stack.length) return null;
    const level = stack.at(-1).level;
    return this.view.pieces.find((p) => p.level === level && p.cells.includes(cell)) || null;
  }

  pickKind(side, kind) {
    if (!this.canMove() || side !== this.live.to_move) return;
    if (this.sel && this.sel.type === "add" && this.sel.kind === kind) this.sel = null;
    else this.sel = { type: "add", kind, rot: 0 };
    this.render();
  }

  selectPiece(piece) {
    this.sel = { type: "move", piece, rot: piece.rotation };
    this.render();
  }

  rotate(delta) {
    if (!this.sel) return;
    const kind = this.sel.type === "add" ? this.sel.kind : this.sel.piece.kind;
    const n = this.geom.rotations(kind);
    this.sel.rot = (this.sel.rot + delta + n) % n;
    if (this.sel.type === "add") this.renderReserves(); // the selected kind's icon turns too
    this.renderSelection();
  }

  clickCell(cell) {
    this.pinned = cell;
    if (!this.canMove()) {
      this.renderStack();
      return;
    }
    const sel = this.sel;
    const piece = this.topPieceAt(cell);
    const ownMovable = piece && piece.side === this.live.to_move && piece.movable ? piece : null;
    if (sel && sel.type === "add") {
      const legal = this.legal.adds.get(sel.kind)?.get(sel.rot)?.has(cell);
      if (!legal && ownMovable) this.selectPiece(ownMovable);
      else this.sendMove(`${sel.kind}@${cell}/${sel.rot}`);
      return;
    }
    if (sel && sel.type === "move") {
      const from = sel.piece.punct;
      const targets = this.legal.moves.get(from);
      if (cell === from) {
        // The origin: with a new rotation it is a rotation in place.
        if (sel.rot !== sel.piece.rotation) this.sendMove(`${from}-${from}/${sel.rot}`);
        else this.cancel();
      } else if (targets && targets.has(cell)) {
        this.sendMove(`${from}-${cell}/${sel.rot}`);
      } else if (ownMovable && ownMovable !== sel.piece) {
        this.selectPiece(ownMovable);
      } else if (sel.piece.cells.includes(cell)) {
        this.cancel();
      } else {
        this.sendMove(`${from}-${cell}/${sel.rot}`); // the server says why not
      }
      return;
    }
    if (ownMovable) this.selectPiece(ownMovable);
    else if (piece && piece.side === this.live.to_move) this.say("That piece cannot move now.");
    this.renderStack();
  }

  hoverCell(cell) {
    if (cell === this.hover) return;
    this.hover = cell;
    this.renderOverlay();
    this.renderStack();
  }

  cancel() {
    this.sel = null;
    this.render();
  }

  key(e) {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "r" || e.key === "R") {
      if (this.sel) {
        this.rotate(e.shiftKey ? -1 : 1);
        e.preventDefault();
      }
    } else if (e.key === "Escape") {
      if (this.sel) this.cancel();
    } else if (e.key === "ArrowLeft") {
      this.step(-1);
      e.preventDefault();
    } else if (e.key === "ArrowRight") {
      this.step(1);
      e.preventDefault();
    }
  }

  // ------------------------------------------------------------ replay

  shownPly() {
    return this.replayPly ?? this.live.ply;
  }

  step(delta) {
    if (this.live) this.showPly(this.shownPly() + delta);
  }

  /** Shows the position after `n` plies (read-only), or the live game at the end. */
  async showPly(n) {
    if (!this.live) return;
    n = Math.max(0, Math.min(this.live.ply, n));
    this.sel = null;
    if (n === this.live.ply) {
      this.replayPly = null;
      this.view = this.live;
      this.replayReq++;
      this.render();
      return;
    }
    this.replayPly = n;
    const key = this.live.moves.slice(0, n).join(" ");
    let state = this.replayCache.get(key);
    this.renderReplay();
    if (!state) {
      const req = ++this.replayReq;
      try {
        state = await api.game(this.id, n);
      } catch (e) {
        this.say(e.message);
        return;
      }
      if (req !== this.replayReq || this.replayPly !== n) return;
      this.replayCache.set(key, state);
    }
    this.view = state;
    this.render();
  }

  // ------------------------------------------------------------ rendering

  render() {
    if (!this.el || !this.live) return;
    const v = this.view;
    const d = this.el.dataset;
    d.ply = v.ply;
    d.version = v.version;
    d.toMove = v.to_move || "";
    d.status = v.status;
    d.replay = String(this.replayPly != null);
    d.seats = this.seats().join(" ");
    this.renderStatus();
    this.renderControls();
    this.renderReserves();
    this.renderMoves();
    this.renderReplay();
    this.renderBoard();
    this.renderStack();
    this.analysis.update(this.live, v, this.replayPly != null);
  }

  renderStatus() {
    const s = this.live;
    if (!s || !this.status) return;
    const seats = this.seats();
    let text;
    if (this.replayPly != null) {
      text = `Replaying: the position after ${this.replayPly} of ${s.ply} plies (read-only).`;
    } else if (s.status === "over") {
      text = `Game over: ${s.result ? s.result.text : ""}`;
    } else {
      const mover = cap(s.to_move);
      const open = s.invite_open;
      if (s.ai_thinking) text = `${mover} to move: the AI is thinking…`;
      else if (s.ai && s.ai.side === s.to_move) text = `${mover} to move: the AI will move shortly.`;
      else if (s.mode === "hotseat" && seats.length) text = `${mover} to move: your turn (one screen).`;
      else if (seats.includes(s.to_move)) text = `${mover} to move: your turn.${open ? " Your opponent has not joined yet." : ""}`;
      else if (seats.length && open) text = `${mover} to move: waiting for your opponent to join.`;
      else if (seats.length) text = `${mover} to move: waiting for your opponent.`;
      else if (open) text = `${mover} to move. ${cap(open)}'s seat is waiting for its player; you are spectating.`;
      else text = `${mover} to move. You are spectating.`;
    }
    this.status.textContent = text;
    this.connection.textContent = this.connected ? "● live" : "○ reconnecting…";
    this.connection.classList.toggle("down", !this.connected);
  }

  renderControls() {
    const s = this.live;
    if (!s) return;
    const seats = this.seats();
    const player = seats.length > 0;
    const ongoing = s.status === "ongoing";
    const mine = this.canMove();
    // Players, offers and requests.
    const who = (side) => {
      if (s.ai && s.ai.side === side) return `the AI (level ${s.ai.level}, ${LEVEL_NAMES[s.ai.level] || ""})`;
      if (s.invite_open === side) return "nobody yet (invited)";
      if (seats.includes(side)) return s.mode === "hotseat" ? "this screen" : "you";
      return seats.length ? "your opponent" : "a player";
    };
    this.players.textContent = `${cap(s.variant)} game · White: ${who("white")} · Black: ${who("black")}` +
      (player ? "" : " · you are spectating");
    this.notice.textContent = s.notice || "";
    show(this.notice, !!s.notice);
    const over = s.status === "over";
    this.banner.replaceChildren();
    if (over && s.result) {
      const r = s.result;
      this.banner.append(h("strong", {}, r.score), " ", r.text);
      if (r.central && r.reason !== "connection") {
        this.banner.append(h("span", { class: "central" },
          ` · central hexagon: White ${r.central.white}, Black ${r.central.black}`));
      }
    }
    show(this.banner, over);
    const answerDraw = ongoing && s.draw_offer && seats.includes(other(s.draw_offer));
    this.drawPrompt.querySelector(".prompt-text").textContent = answerDraw
      ? `${cap(s.draw_offer)} offers a draw.` : "";
    show(this.drawPrompt, !!answerDraw);
    const answerTakeback = s.takeback_request && seats.includes(other(s.takeback_request));
    this.takebackPrompt.querySelector(".prompt-text").textContent = answerTakeback
      ? `${cap(s.takeback_request)} asks to take back their last move.` : "";
    show(this.takebackPrompt, !!answerTakeback);
    // Games ended by resignation or agreement cannot be taken back (docs/API.md).
    const final = s.result && (s.result.reason === "resignation" || s.result.reason === "agreement");
    // With the other seat still empty nobody could answer an offer or a request.
    const alone = !!s.invite_open;
    show(this.takebackBtn, player && !final && !alone);
    this.takebackBtn.disabled = this.busy || s.ply === 0 || (s.takeback_request && seats.includes(s.takeback_request));
    this.takebackBtn.textContent = s.mode === "online"
      ? (s.takeback_request && seats.includes(s.takeback_request) ? "Takeback asked…" : "Ask for a takeback")
      : "Take back";
    show(this.drawBtn, player && ongoing && !alone);
    const myOffer = s.draw_offer && seats.includes(s.draw_offer) && s.mode !== "hotseat";
    this.drawBtn.disabled = this.busy || !!myOffer;
    this.drawBtn.textContent = myOffer ? "Draw offered…" : "Offer a draw";
    show(this.resignBtn, player && ongoing);
    show(this.renewBtn, player);
    this.renderInvite();
    this.resignBtn.disabled = this.busy;
    this.resignBtn.textContent = this.resignArmed ? "Click again to resign" : "Resign";
    this.resignBtn.classList.toggle("armed", this.resignArmed);
    // Moving.
    show(this.passBtn, mine && this.legal.pass);
    this.moveInput.disabled = !player || !ongoing || this.replayPly != null;
    this.renderSelection(false);
  }

  /** While the other seat waits for its player, its holder sees the links to pass on. */
  renderInvite() {
    const s = this.live;
    const open = s.invite_open;
    const waiting = !!open && this.seats().length > 0;
    const key = waiting ? open : "";
    if (this.inviteKey === key) return;
    this.inviteKey = key;
    show(this.invitePanel, waiting);
    if (!waiting) {
      // Claimed (or not ours to pass on): the code is of no more use here.
      if (!open && gameMemory.get(this.id)?.invite) gameMemory.setInvite(this.id, null);
      this.invitePanel.replaceChildren();
      return;
    }
    const url = (path) => new URL(path, location.origin).href;
    const code = gameMemory.get(this.id)?.invite;
    const say = (text) => this.say(text);
    this.invitePanel.replaceChildren(
      h("h2", {}, `Waiting for your opponent (${cap(open)})`),
      ...(code
        ? [h("p", {}, `Send this link to your opponent: it takes the ${open} seat, once.`),
          linkRow(url(`/game/${this.id}#invite=${code}`), "invite-link", "copy-invite", say)]
        : [h("p", {}, "Your opponent joins with the invite link shown where this game was created.")]),
      h("p", { class: "small" }, "Anyone can watch at:"),
      linkRow(url(`/game/${this.id}`), "spectate-link", "copy-spectate", say));
  }

  /** The rotation display, the selection line and the ghost (cheap: on R, wheel, hover). */
  renderSelection(withOverlay = true) {
    const sel = this.sel;
    const kind = sel ? (sel.type === "add" ? sel.kind : sel.piece.kind) : null;
    this.rotation.textContent = sel ? String(sel.rot) : "–";
    this.rotationIcon.replaceChildren(sel ? pieceIcon(this.geom, kind, sel.rot, this.live.to_move) : "");
    this.rotateBtn.disabled = !sel;
    this.selInfo.textContent = !sel ? (this.canMove() ? "Pick a piece from your reserve or one of your pieces." : "")
      : sel.type === "add" ? `Adding ${kind}: click a highlighted cell for its PÜNCT.`
        : `Moving ${kind} from ${sel.piece.punct}: click a highlighted cell (Esc cancels).`;
    if (withOverlay) this.renderOverlay();
  }

  renderReserves() {
    const s = this.view;
    const seats = this.seats();
    const mine = this.canMove();
    for (const side of ["white", "black"]) {
      const { buttons, label } = this.reserves[side];
      const total = KINDS.reduce((n, k) => n + (s.reserves[side][k] || 0), 0);
      label.textContent = `${cap(side)}${seats.length === 1 && seats[0] === side ? " (you)" : ""}: ${total} in reserve`;
      this.reserveEls[side].classList.toggle("to-move", s.to_move === side);
      buttons.forEach((b, i) => {
        const kind = KINDS[i];
        const count = s.reserves[side][kind] || 0;
        const selected = this.sel && this.sel.type === "add" && this.sel.kind === kind && side === s.to_move;
        const icon = pieceIcon(this.geom, kind, selected ? this.sel.rot : 0, side);
        b.replaceChildren(icon, h("span", { class: "count" }, String(count)));
        b.disabled = !(mine && side === s.to_move && this.legal.adds.has(kind));
        b.classList.toggle("selected", !!selected);
        b.classList.toggle("empty", count === 0);
        b.setAttribute("aria-label", `${side} ${kind}: ${count} left`);
      });
    }
    // The player's own reserve goes under the board (moved only when it changes).
    const blackBelow = seats.length === 1 && seats[0] === "black";
    const below = blackBelow ? this.reserveEls.black : this.reserveEls.white;
    const above = blackBelow ? this.reserveEls.white : this.reserveEls.black;
    const wrap = this.board.el.parentNode;
    if (above.nextElementSibling !== wrap || below.previousElementSibling !== wrap) {
      wrap.before(above);
      wrap.after(below);
    }
  }

  renderMoves() {
    const s = this.live;
    const key = `${s.version}:${this.shownPly()}`;
    if (this.movesKey === key) return;
    this.movesKey = key;
    const blackFirst = s.start.split(":")[1] === "b";
    const rows = [];
    let row = null;
    s.moves.forEach((m, i) => {
      const whiteMove = (i % 2 === 0) !== blackFirst;
      if (!row || whiteMove) {
        const num = Math.floor((i + (blackFirst ? 1 : 0)) / 2) + 1;
        row = h("div", { class: "move-row" }, h("span", { class: "num" }, whiteMove ? `${num}.` : `${num}…`));
        rows.push(row);
        if (!whiteMove) row.append(h("span", { class: "mv none" }, ""));
      }
      row.append(h("button", {
        type: "button", class: i + 1 === this.shownPly() ? "mv current" : "mv", "data-ply": i + 1,
        onclick: () => this.showPly(i + 1),
      }, m));
    });
    this.moveList.replaceChildren(...(rows.length ? rows : [h("div", { class: "small" }, "No moves yet.")]));
    // Keep the current move in sight by scrolling the list only (never the page).
    const current = this.moveList.querySelector(".current");
    const list = this.moveList;
    if (current && (current.offsetTop < list.scrollTop || current.offsetTop + current.offsetHeight > list.scrollTop + list.clientHeight)) {
      list.scrollTop = current.offsetTop - list.clientHeight / 2;
    }
  }

  renderReplay() {
    const s = this.live;
    const n = this.shownPly();
    this.slider.max = String(s.ply);
    this.slider.value = String(n);
    this.prevBtn.disabled = n <= 0;
    this.nextBtn.disabled = n >= s.ply;
    show(this.liveBtn, this.replayPly != null);
    this.replayLabel.textContent = this.replayPly != null ? `ply ${n} of ${s.ply}` : `${s.ply} plies`;
    this.renderMoves();
    this.renderStatus();
  }

  renderBoard() {
    if (!this.board) return;
    const mine = this.canMove();
    this.board.setPosition(this.view, {
      dimSide: mine ? this.live.to_move : null,
      lifted: this.sel && this.sel.type === "move" ? this.sel.piece : null,
    });
    this.renderOverlay();
  }

  renderOverlay() {
    if (!this.board) return;
    const o = { hover: this.hover, mode: this.sel ? this.sel.type : undefined };
    const sel = this.sel;
    const side = this.view.to_move;
    if (this.canMove()) {
      o.movable = new Set();
      for (const p of this.view.pieces) if (p.movable && p.side === side) p.cells.forEach((c) => o.movable.add(c));
    }
    if (sel && sel.type === "add") {
      o.legal = this.legal.adds.get(sel.kind)?.get(sel.rot) || new Set();
      if (this.hover) {
        o.ghost = { dots: this.geom.footprint(sel.kind, sel.rot, this.hover), side, legal: o.legal.has(this.hover) };
      }
    } else if (sel && sel.type === "move") {
      const from = sel.piece.punct;
      const targets = this.legal.moves.get(from) || new Map();
      o.legal = new Set(targets.keys());
      o.origin = from;
      o.lines = from;
      const at = this.hover || from;
      if (!(at === from && sel.rot === sel.piece.rotation)) {
        o.ghost = {
          dots: this.geom.footprint(sel.piece.kind, sel.rot, at), side,
          legal: !!(targets.get(at) && targets.get(at).has(sel.rot)),
        };
      }
    }
    const best = this.analysis.bestFor(this.view.position);
    if (best) o.best = this.bestDrawing(best);
    this.board.setOverlay(o);
  }

  /** How to draw the engine's best move: a ghost piece and, for a move, an arrow. */
  bestDrawing(best) {
    const stm = this.view.position.split(":")[1] === "w" ? "white" : "black";
    let x;
    if ((x = ADD.exec(best))) {
      return { dots: this.geom.footprint(x[1], +x[3], x[2]), side: stm };
    }
    if ((x = MOVE.exec(best))) {
      const piece = Board.topPieceWithPunct(this.view, x[1]);
      if (!piece) return null;
      return { from: x[1], to: x[2], dots: this.geom.footprint(piece.kind, +x[3], x[2]), side: stm };
    }
    return null;
  }

  renderStack() {
    const cell = this.hover || this.pinned;
    if (!cell || !this.view) {
      this.stackView.replaceChildren(h("p", { class: "small" }, "Hover over or tap a cell to see its stack."));
      return;
    }
    const dots = this.view.stacks[cell] || [];
    const c = this.geom.cell(cell);
    const title = h("div", { class: "stack-title" }, h("strong", {}, cell),
      c && c.central ? " · central hexagon" : "", c && c.edges.length ? ` · ${c.edges.join(", ")}` : "");
    if (!dots.length) {
      this.stackView.replaceChildren(title, h("p", { class: "small" }, "Empty."));
      return;
    }
    // Bottom to top, as the server lists them.
    const items = dots.map((d) => h("li", { "data-level": d.level, "data-side": d.side, "data-kind": d.kind, "data-punct": String(d.punct) },
      h("span", { class: `swatch ${d.side}` }),
      `level ${d.level}: ${d.side} ${d.kind}${d.punct ? " · PÜNCT" : ""}`));
    this.stackView.replaceChildren(title,
      h("p", { class: "small" }, `height ${dots.at(-1).level + 1}; bottom first:`),
      h("ol", { class: "stack" }, items));
  }
}
