// The game screen's controller: the live game (its socket and HTTP
// requests, api.js), the position shown (live or replayed), this
// browser's seat token, offers, and the moves made on the board. Whatever
// the rules decide (legal moves, movability, reserves, results) is read
// from the server's state; the page only asks. The screen's parts are
// built and drawn by the view (gameview.js); the board is the move
// chooser (chooser.js), fed the live state's legal moves.

import { api, ApiError, LiveSocket } from "./api.js";
import * as engine from "./engine.js";
import { isLocal, LocalGame } from "./localgame.js";
import { h, gameMemory, nameProblem, playerName, tSide } from "./dom.js";
import { t, errorText } from "./i18n.js";
import { Geometry } from "./board.js";
import { sound } from "./sound.js";
import { Toast } from "./toast.js";
import { animateLastMove } from "./anim.js";
import { Notifier } from "./notify.js";
import { session } from "./session.js";
import { storedFlip, storeFlip } from "./layout.js";
import { Chooser, ownKey } from "./chooser.js";
import { GameView, loadingView, loadFailedView } from "./gameview.js";

/**
 * Asks the invited person's name in the loading screen (empty: Anonymous)
 * and keeps it in this browser; resolves when they take the seat.
 */
function askName(root, side) {
  return new Promise((resolve) => {
    const field = h("input", {
      type: "text", id: "join-name", "data-testid": "join-name", maxlength: 40, autocomplete: "nickname",
      placeholder: t("start.name.placeholder"), spellcheck: "false",
    });
    const problem = h("p", { class: "message", role: "alert" });
    const form = h("form", { class: "panel join-form", "data-testid": "join-form" },
      h("h1", {}, t("game.join.title")),
      h("p", {}, tSide("game.join.side", side)),
      h("label", { for: "join-name" }, t("start.name.label")), " ", field,
      h("p", { class: "small" }, t("game.join.about")),
      problem,
      h("button", { type: "submit", class: "primary", "data-testid": "join-seat" }, t("game.join.button")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const name = field.value.trim();
      const why = nameProblem(name);
      problem.textContent = why || "";
      if (why) return;
      playerName.set(name);
      form.remove();
      resolve();
    });
    root.querySelector('[data-testid="game-loading"]')?.replaceWith(form);
    field.focus();
  });
}

/** `invite`: an invite code from the address, claimed before the game shows. */
export function gameScreen(root, id, { invite = null } = {}, navigate) {
  const screen = new GameScreen(root, id, invite, navigate);
  screen.start();
  return screen;
}

class GameScreen {
  constructor(root, id, invite, navigate) {
    this.root = root;
    this.id = id;
    this.invite = invite; // to claim (from an invite link)
    this.token = gameMemory.get(id)?.token || null; // our seat's, kept in this browser
    this.navigate = navigate;
    // A game against the AI played in this browser (localgame.js): its
    // state, moves and the AI's answers come from there, not the server.
    this.local = isLocal(id) ? new LocalGame(id) : null;
    if (this.local) this.token = "local";
    this.live = null; // the game now
    this.view = null; // what the board shows: `live`, or a replayed ply
    this.replayPly = null; // null: live
    this.replayCache = new Map(); // moves prefix → replayed state
    this.replayReq = 0;
    this.chooser = null; // the board and the move being made (chooser.js)
    this.ui = null; // the screen's parts (gameview.js)
    this.busy = false;
    this.connected = false;
    this.resignArmed = false;
    this.abortArmed = false;
    this.you = []; // the seats this page's token holds, as the server says
    this.onKey = (e) => this.key(e);
    this.flipped = storedFlip(); // the board turned round (remembered in this browser)
    this.counting = null; // the side whose central count is highlighted on the board
    this.sound = sound; // sound.js: the notifier and lowTime play through it
    this.notifier = new Notifier();
  }

  async start() {
    this.toast = new Toast(); // messages over the page, never pushing it down
    this.message = this.toast.text;
    loadingView(this.root, this.toast);
    let info;
    let state;
    let note = "";
    try {
      if (this.invite && !this.local) note = await this.claim();
      if (this.destroyed) return;
      [info, state] = await Promise.all([api.board(), this.local ? this.local.game() : api.game(this.id, null, this.token)]);
    } catch (e) {
      if (this.destroyed) return;
      loadFailedView(this.root, errorText(e));
      return;
    }
    if (this.destroyed) return;
    if (!this.token && !this.local && this.accountsGame(state)) {
      // The account's game, opened where its token is not kept (another
      // device or browser): the account's seat, asked for with the session.
      try {
        const seat = await api.accountSeat(this.id);
        gameMemory.save(this.id, { ...gameMemory.get(this.id), token: seat.token, seats: seat.seats });
        this.token = seat.token;
        state = await api.game(this.id, null, this.token);
      } catch {
        // Signed out meanwhile, or the server away: watching, as anyone.
      }
      if (this.destroyed) return;
    }
    this.geom = new Geometry(info);
    this.build();
    this.you = state.you || [];
    if (this.token && !this.you.length) {
      // Renewed elsewhere (or never valid): this browser no longer holds the seat.
      gameMemory.forget(this.id);
      this.token = null;
      note ||= t("game.seat.lost");
    }
    this.say(note);
    this.applyLive(state);
    if (this.local) {
      // Nothing to connect to: the AI answers from the page's worker.
      this.connected = true;
      this.socket = this.local.follow((s) => this.applyLive(s));
      document.addEventListener("keydown", this.onKey);
      return;
    }
    // The page's own rules (WebAssembly in a worker): with them the live
    // socket sends moves, not whole states. The socket opens at once (a
    // move made meanwhile goes over it); should the module not load, the
    // socket goes back to whole states by itself.
    const rules = typeof Worker !== "undefined" && typeof WebAssembly !== "undefined";
    engine.available().then((ok) => { this.rulesHere = ok; });
    this.socket = new LiveSocket(this.id, {
      ask: rules ? engine.ask : null,
      state: this.live,
      // A spectator needs no legal moves: its states are a fraction of the size.
      spectator: !this.you.length,
      token: this.you.length ? this.token : null,
      onState: (s) => this.applyLive(s),
      onPresence: (msg) => this.ui.presence(msg),
      onTime: (now) => this.ui.serverTime(now),
      onConnection: (up) => {
        this.connected = up;
        // Back online: a word about the lost connection is out of date.
        if (up && this.messageCode === "network") this.say("");
        this.ui.renderStatus();
      },
    });
    document.addEventListener("keydown", this.onKey);
  }

  /** Whether game `state` has a seat of the signed-in account. */
  accountsGame(state) {
    const me = session.user?.id;
    return Boolean(me) && (state.white_user === me || state.black_user === me);
  }

  /** The board (a move chooser fed the live game's legal moves) and the view around it. */
  build() {
    this.chooser = new Chooser(this.geom, {
      enabled: () => this.canMove(),
      keepTarget: true, // a tapped target waits through a new pick (its ghost stays)
      onPlay: (move) => this.sendMove(move),
      onTouch: (cell) => this.ui.pin(cell),
      onIdle: (cell, piece) => {
        if (piece) this.say(t("game.cannot_move"));
        this.ui.openStack(cell);
      },
      onChange: (what) => this.selectionChanged(what),
    }, { flipped: this.flipped });
    this.ui = new GameView(this, this.root);
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
        return mine.you.length > 1 ? t("game.invite.own_both") : tSide("game.invite.own", mine.you[0]);
      }
    }
    try {
      // Asked once, before the seat is taken, when the seat is still open
      // and this browser knows no name (an account's seat shows the account's).
      if (!session.user && !playerName.get()) {
        const open = await api.game(this.id).then((g) => g.invite_open).catch(() => null);
        if (open && !this.destroyed) await askName(this.root, open);
      }
      // A name kept from before the server's rules tightened would refuse the seat: none then.
      const name = playerName.get();
      const claimed = await api.claim(this.id, invite, nameProblem(name) ? "" : name);
      gameMemory.add(this.id, claimed.token);
      gameMemory.save(this.id, { ...gameMemory.get(this.id), seats: [claimed.side] });
      this.token = claimed.token;
      clear();
      return "";
    } catch (e) {
      const why = {
        invite_used: () => t("game.invite.used"),
        bad_invite: () => t("game.invite.bad"),
        game_over: () => t("game.invite.over"),
      }[e.code]?.();
      if (!why) throw e; // an unknown game or the network: shown as a load error
      clear();
      return why;
    }
  }

  /** A new token for our seat; the old link stops working (docs/API.md). */
  async renewToken() {
    if (!this.token || this.busy) return;
    this.ui.renewing(true);
    try {
      const renewed = await api.renewToken(this.id, this.token);
      gameMemory.add(this.id, renewed.token);
      this.token = renewed.token;
      this.ui.showSeatLink(new URL(renewed.link, location.origin).href);
      this.say("");
    } catch (e) {
      this.fail(e);
    } finally {
      this.ui.renewing(false);
    }
  }

  /** A new invite link for the waiting seat; the old one stops working (docs/API.md). */
  async renewInvite() {
    if (!this.token || this.busy) return;
    this.ui.renewingInvite(true);
    try {
      const renewed = await api.renewInvite(this.id, this.token);
      gameMemory.setInvite(this.id, renewed.invite.code);
      this.ui.renderInvite(true);
      this.say("");
    } catch (e) {
      if (e.code === "invite_used") this.say(t("game.invite.renew_used"), e.code);
      else this.fail(e);
    } finally {
      this.ui.renewingInvite(false);
    }
  }

  destroy() {
    this.destroyed = true;
    document.removeEventListener("keydown", this.onKey);
    clearTimeout(this.resignTimer);
    clearTimeout(this.abortTimer);
    this.socket?.close();
    this.ui?.destroy();
    this.chooser?.destroy();
    this.notifier.destroy();
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
    const shown = this.view;
    this.chooser?.voice.state(wasLive, state, state.you || this.you); // the new moves in words (announce.js)
    this.live = state;
    if (this.replayPly != null && this.replayPly >= state.ply) this.replayPly = null;
    if (this.replayPly == null) this.view = state;
    // A new state makes any half-made move meaningless.
    this.chooser?.setState(state);
    this.resignArmed = false;
    this.abortArmed = false;
    if (wasLive && wasLive.status !== state.status && state.status === "over") this.say("");
    // A game the central count decided shows the counted dots (once: the toggle may hide them).
    if (state.status === "over" && state.result && state.result.reason === "central count" && !this.countShown) {
      this.countShown = true;
      this.counting = state.result.winner || "white";
    }
    // A rematch has begun: its players go to it (their tokens hold the new seats too).
    if (wasLive && !wasLive.rematch && state.rematch && this.token && this.you.length) {
      gameMemory.add(state.rematch, this.token);
      this.navigate(`/game/${state.rematch}`);
      return;
    }
    this.render();
    // The move that came slides into place (when the position before it was shown).
    if (this.chooser && this.view === state && shown && shown !== state) animateLastMove(this.chooser.board, shown, state);
  }

  /** Whether the person at this screen may move now on the board shown. */
  canMove() {
    const s = this.live;
    return !!s && this.replayPly == null && s.status === "ongoing" && !s.ai_thinking &&
      this.seats().includes(s.to_move) && !this.busy;
  }

  /** Shows a message (`code`: the error's, to clear the right one later); "" clears it. */
  say(text, code = null) {
    // Quoted input reads better without the notation's backticks.
    this.toast.say((text || "").replace(/`([^`]*)`/g, "$1"));
    this.messageCode = text ? code : null;
  }

  /** Says what went wrong (an api.js error). */
  fail(e) {
    this.say(errorText(e), e.code);
  }

  /** Offers, accepts or declines a rematch; the new game opens when it starts. */
  async rematch(action) {
    if (this.busy || !this.token) return;
    this.busy = true;
    this.ui.renderControls();
    try {
      if (this.local) {
        this.navigate(`/game/${await this.local.rematch()}`);
        return;
      }
      this.applyLive(await api.rematch(this.id, this.token, action));
      this.say("");
    } catch (e) {
      this.fail(e);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /** Our seat's display name (kept in this browser too). */
  async setName(name) {
    if (!this.token) return;
    try {
      this.applyLive(await api.setName(this.id, this.token, name));
    } catch (e) {
      this.fail(e);
    }
  }

  lowTime(side) {
    if (this.seats().includes(side)) this.sound?.play("lowtime");
  }

  /** Highlights the central cells counted for `side` (again: off). */
  toggleCounting(side) {
    this.counting = this.counting === side ? null : side;
    this.render();
  }

  /** Turns the board round; remembered in this browser. */
  flip() {
    this.flipped = !this.flipped;
    storeFlip(this.flipped);
    this.ui.flipped();
    this.render();
  }

  // ------------------------------------------------------------ actions

  /** Sends a request over the live socket (or HTTP when it is down). */
  async act(type, fields) {
    if (this.busy) return false;
    this.busy = true;
    this.say(""); // the next action clears the last word
    this.ui.renderControls();
    try {
      const body = { ...fields, token: this.token || "" };
      if (this.local) {
        await this.local.request({ type, ...body });
      } else if (this.socket && this.socket.open) {
        await this.socket.request({ type, ...body });
      } else {
        const path = { move: "moves", resign: "resign", abort: "abort", draw: "draw", takeback: "takeback", abandon: "abandon", chat: "chat" }[type];
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
        this.say(t("game.seat.renewed_elsewhere"));
      } else {
        this.fail(e);
      }
      return false;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /** Plays `text` (notation, from the board or typed); answers whether the server took it. */
  async sendMove(text) {
    // The page's own rules judge the move first: a refusal is said at once,
    // in the server's words, with no round trip (the server judges again).
    if (!this.local && this.rulesHere && this.live.position) {
      const checked = await engine.ask({ op: "check", position: this.live.position, move: text });
      if (checked.legal === false) {
        this.fail(new ApiError("illegal_move", checked.message, 422, { ...checked.params, move: checked.move }, checked.reason));
        return false;
      }
    }
    const ok = await this.act("move", { move: text, ply: this.live.ply });
    if (ok) {
      this.chooser.deselect();
      this.render();
    }
    return ok;
  }

  resign() {
    if (!this.resignArmed) {
      // Confirm in the page (no window.confirm): a second click resigns.
      this.resignArmed = true;
      clearTimeout(this.resignTimer);
      this.resignTimer = setTimeout(() => {
        this.resignArmed = false;
        this.ui.renderControls();
      }, 5000);
      this.ui.renderControls();
      return;
    }
    this.resignArmed = false;
    clearTimeout(this.resignTimer);
    this.act("resign", {});
  }

  /** Ends the game with no result while the server allows it (`abortable`); confirmed like a resignation. */
  abort() {
    if (!this.abortArmed) {
      this.abortArmed = true;
      clearTimeout(this.abortTimer);
      this.abortTimer = setTimeout(() => {
        this.abortArmed = false;
        this.ui.renderControls();
      }, 5000);
      this.ui.renderControls();
      return;
    }
    this.abortArmed = false;
    clearTimeout(this.abortTimer);
    this.act("abort", {});
  }

  // ------------------------------------------------------------ selection

  /** A kind picked from `side`'s reserve bar: only the mover's. */
  pickKind(side, kind) {
    if (side === this.live.to_move) this.chooser.pickKind(kind);
  }

  /** What the chooser changed (chooser.js onChange): drawn again. */
  selectionChanged(what) {
    if (what === "kind") {
      this.say("");
      this.render();
    } else if (what === "turn") {
      this.ui.renderTurn();
    } else if (what === "target") {
      this.ui.renderSelection();
    } else if (what === "hover") {
      this.ui.renderOverlay();
      this.ui.renderStack();
    } else {
      this.render();
    }
  }

  key(e) {
    if (!ownKey(e)) return;
    // T C E L M R / 1–6 pick a kind, ] [ R turn, Escape drops the selection (chooser.js).
    if (this.chooser?.key(e)) return;
    if (e.key === "Escape") {
      this.ui.closeStack();
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
    this.chooser.deselect();
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
    this.ui.renderReplay();
    if (!state) {
      const req = ++this.replayReq;
      try {
        state = this.local ? await this.local.game(n) : await api.game(this.id, n);
      } catch (e) {
        this.fail(e);
        return;
      }
      if (req !== this.replayReq || this.replayPly !== n) return;
      this.replayCache.set(key, state);
    }
    this.view = state;
    this.render();
  }

  // ------------------------------------------------------------ drawing

  render() {
    if (!this.ui || !this.live) return;
    this.ui.render();
    const s = this.live;
    this.notifier.update(s, s.status === "ongoing" && !s.ai_thinking && this.seats().includes(s.to_move));
  }
}
