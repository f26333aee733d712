// The game screen: board, reserves, moves, replay, offers, analysis.
// Whatever the rules decide (legal moves, movability, reserves, results)
// is read from the server's state; the page only asks.

import { api, LiveSocket } from "./api.js";
import { h, show, other, gameMemory, playerName, tSide } from "./dom.js";
import { t, has, errorText } from "./i18n.js";
import { siteNav } from "./nav.js";
import { Board, Geometry, pieceIcon } from "./board.js";
import { StackView } from "./stack.js";
import { Key } from "./key.js";
import { sound } from "./sound.js";
import { Toast } from "./toast.js";
import { PlayerBar, roleOf } from "./playerbar.js";
import { countedCells, lastPieceWarning } from "./central.js";
import { TapConfirm } from "./touch.js";
import { animateLastMove } from "./anim.js";
import { Notifier } from "./notify.js";
import { gameLayout, storedFlip, storeFlip } from "./layout.js";
import { indexMoves, moveAt, selectionOverlay, bestDrawing, topPieceAt, cellChoice, turnSelection } from "./moves.js";
import { Analysis } from "./analysis.js";
import { EndOfGame, headline, reasonText } from "./endgame.js";
import { Clocks } from "./clock.js";
import { Players } from "./players.js";
import { attachKeyboard, pieceKeys } from "./kbd.js";
import { GameVoice, PositionText } from "./announce.js";

/**
 * The state's `notice` (a word for the players the server does not store)
 * from its code: game.notice.<code>, with a form per side when it names
 * one; the server's English for a code this page does not know.
 */
function noticeText(s) {
  if (!s.notice) return "";
  const side = s.notice_params && s.notice_params.side;
  const key = `game.notice.${s.notice_code}`;
  if (side && has(`${key}.${side}`)) return tSide(key, side);
  if (has(key)) return t(key);
  return s.notice;
}

/** `invite`: an invite code from the address, claimed before the game shows. */
export function gameScreen(root, id, { invite = null } = {}, navigate) {
  const screen = new GameScreen(root, id, invite, navigate);
  screen.start();
  return screen;
}

/**
 * A link to pass on: the full address, wrapped to fit a phone and
 * selected whole by one tap or click (to copy by hand), and a copy button.
 */
function linkRow(url, testid, copyTestid, say) {
  const text = h("code", { class: "link", "data-testid": testid }, url);
  const copy = h("button", { type: "button", "data-testid": copyTestid }, t("game.link.copy"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = t("game.link.copied");
    } catch {
      window.getSelection()?.selectAllChildren(text);
      say(t("game.link.copy_failed"));
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
    this.flipped = storedFlip(); // the board turned round (remembered in this browser)
    this.counting = null; // the side whose central count is highlighted on the board
    this.sound = sound; // sound.js: the notifier and lowTime play through it
    this.notifier = new Notifier();
  }

  async start() {
    this.toast = new Toast(); // messages over the page, never pushing it down
    this.message = this.toast.text;
    this.root.replaceChildren(h("div", { class: "game loading", "data-testid": "game" },
      siteNav("play"), h("p", {}, t("game.loading")), this.toast.el));
    let info;
    let state;
    let note = "";
    try {
      if (this.invite) note = await this.claim();
      if (this.destroyed) return;
      [info, state] = await Promise.all([api.board(), api.game(this.id, null, this.token)]);
    } catch (e) {
      if (this.destroyed) return;
      this.say(errorText(e), e.code);
      this.root.firstChild.append(h("p", {}, h("a", { href: "/", "data-nav": "" }, t("game.back_to_start"))));
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
      note ||= t("game.seat.lost");
    }
    this.say(note);
    this.applyLive(state);
    this.socket = new LiveSocket(this.id, {
      // A spectator needs no legal moves: its states are a fraction of the size.
      spectator: !this.you.length,
      token: this.you.length ? this.token : null,
      onState: (s) => this.applyLive(s),
      onPresence: (msg) => this.playersBox.presence(msg),
      onTime: (now) => this.clocks.serverTime(now),
      onConnection: (up) => {
        this.connected = up;
        // Back online: a word about the lost connection is out of date.
        if (up && this.messageCode === "network") this.say("");
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
        return mine.you.length > 1 ? t("game.invite.own_both") : tSide("game.invite.own", mine.you[0]);
      }
    }
    try {
      const claimed = await api.claim(this.id, invite, playerName.get());
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
    this.renewBtn.disabled = true;
    try {
      const renewed = await api.renewToken(this.id, this.token);
      gameMemory.add(this.id, renewed.token);
      this.token = renewed.token;
      const url = new URL(renewed.link, location.origin).href;
      this.seatLink.replaceChildren(
        h("p", { class: "small" }, t("game.seat.new_link")),
        linkRow(url, "seat-link", "copy-seat-link", (text) => this.say(text)),
        h("p", { class: "small", "data-testid": "renew-note" }, t("game.seat.old_link_void")));
      show(this.seatLink, true);
      this.say("");
    } catch (e) {
      this.say(errorText(e), e.code);
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
    this.clocks?.destroy();
    this.playersBox?.destroy();
    this.legend?.destroy();
    this.board?.resize?.disconnect();
    this.kbd?.detach();
    if (this.muteBtn) sound.dropButton(this.muteBtn);
    this.notifier.destroy();
  }

  // ------------------------------------------------------------ layout

  build() {
    const btn = (testid, label, onclick, extra = {}) =>
      h("button", { type: "button", "data-testid": testid, onclick, ...extra }, label);
    this.board = new Board(this.geom, {
      onCell: (c) => this.clickCell(c),
      onHover: (c) => this.hoverCell(c),
      onWheel: (dy) => this.sel != null && (this.rotate(dy > 0 ? 1 : -1), true),
      onPointer: (type) => this.confirm.pointer(type),
    }, { flipped: this.flipped });
    // Keyboard play and the board in words (kbd.js, announce.js).
    this.kbd = attachKeyboard(this.board, { onActivate: (c) => this.clickCell(c), onCursor: (c) => this.hoverCell(c) });
    this.voice = new GameVoice(this.kbd);
    this.words = new PositionText(this.geom);
    // Each side's bar: who, reserve, central count, clock slot (playerbar.js).
    this.bars = {};
    this.reserves = {};
    this.reserveEls = {};
    for (const side of ["white", "black"]) {
      const bar = new PlayerBar(side, this.geom, {
        onPick: (s, kind) => this.pickKind(s, kind),
        onCentral: (s) => this.toggleCounting(s),
      });
      this.bars[side] = bar;
      this.reserves[side] = { buttons: bar.buttons, label: bar.label };
      this.reserveEls[side] = bar.el;
    }
    this.clockEls = { white: this.bars.white.clock, black: this.bars.black.clock };
    this.barSlots = { top: h("div", { class: "bar-slot top" }), bottom: h("div", { class: "bar-slot bottom" }) };

    this.status = h("div", { class: "status", "data-testid": "status", "aria-live": "polite" });
    this.connection = h("span", { class: "connection", "data-testid": "connection" });
    this.endgame = new EndOfGame({
      onRematch: (action) => this.rematch(action),
      navigate: this.navigate,
    });
    this.banner = this.endgame.el;
    this.notice = h("div", { class: "notice", "data-testid": "notice" });
    // Offers and requests as everyone sees them (spectators included).
    this.offers = h("div", { class: "offers", "data-testid": "offers", "aria-live": "polite" });
    this.playersBox = new Players({
      onName: (name) => this.setName(name),
      onClaimWin: () => this.act("abandon", {}),
    });
    this.players = this.playersBox.el;
    // Each side's clock, in its bar (filled by clock.js; hidden in untimed games).
    this.clocks = new Clocks(this.clockEls, { onLow: (side) => this.lowTime(side) });

    this.rotation = h("span", { class: "rotation", "data-testid": "rotation" }, "0");
    this.rotationIcon = h("span", { class: "rotation-icon" });
    this.rotateBtn = btn("rotate", t("game.rotate"), () => this.rotate(1), { title: t("game.rotate_title") });
    this.passBtn = btn("pass", t("game.pass"), () => this.sendMove("pass"));
    this.moveInput = h("input", {
      type: "text", "data-testid": "move-input", placeholder: t("game.move_input.placeholder"),
      autocomplete: "off", autocapitalize: "off", spellcheck: "false", "aria-label": t("game.move_input.label"),
      onkeydown: (e) => {
        if (e.key === "Enter" && this.moveInput.value.trim()) this.sendMove(this.moveInput.value.trim(), true);
      },
    });
    this.selInfo = h("span", { class: "sel-info" });

    this.takebackBtn = btn("takeback", t("game.takeback"), () => this.act("takeback", { action: "request" }));
    this.drawBtn = btn("offer-draw", t("game.draw.offer"), () => this.act("draw", { action: "offer" }));
    this.resignBtn = btn("resign", t("game.resign"), () => this.resign());
    this.drawPrompt = h("div", { class: "prompt" }, h("span", { class: "prompt-text" }),
      btn("accept-draw", t("game.draw.accept"), () => this.act("draw", { action: "accept" })),
      btn("decline-draw", t("game.draw.decline"), () => this.act("draw", { action: "decline" })));
    this.takebackPrompt = h("div", { class: "prompt" }, h("span", { class: "prompt-text" }),
      btn("accept-takeback", t("game.takeback.accept"), () => this.act("takeback", { action: "accept" })),
      btn("decline-takeback", t("game.takeback.decline"), () => this.act("takeback", { action: "decline" })));

    this.moveList = h("div", { class: "move-list", "data-testid": "move-list" });
    this.slider = h("input", {
      type: "range", min: 0, max: 0, value: 0, step: 1, "data-testid": "replay-slider", "aria-label": t("game.replay.slider"),
      oninput: () => this.showPly(+this.slider.value),
    });
    this.prevBtn = btn("replay-prev", "◀", () => this.step(-1), { title: t("game.replay.prev_title"), "aria-label": t("game.replay.prev") });
    this.nextBtn = btn("replay-next", "▶", () => this.step(1), { title: t("game.replay.next_title"), "aria-label": t("game.replay.next") });
    this.liveBtn = btn("back-to-live", t("game.replay.live"), () => this.showPly(this.live.ply));
    this.replayLabel = h("span", { class: "replay-label", "data-testid": "replay-label" });

    this.invitePanel = h("section", { class: "panel invite", "data-testid": "invite" });
    show(this.invitePanel, false);
    this.renewBtn = btn("renew-token", t("game.seat.renew"), () => this.renewToken(), {
      class: "small-button", title: t("game.seat.renew_title"),
    });
    this.seatLink = h("div", { class: "seat-link" });
    show(this.seatLink, false);

    this.stack = new StackView({ onToggle: () => this.renderOverlay() });
    this.stackView = this.stack.body;
    this.legend = new Key(this.geom.pairs); // the key to the board's symbols
    this.confirm = new TapConfirm({ onConfirm: () => this.confirmMove(), onCancel: () => this.cancel() });
    this.warning = h("div", { class: "warning", "data-testid": "last-piece-warning", role: "status" });
    show(this.warning, false);
    this.flipBtn = btn("flip-board", t("game.flip"), () => this.flip(), {
      class: this.flipped ? "tool active" : "tool", "aria-pressed": String(this.flipped), title: t("game.flip_title"),
    });
    this.muteBtn = sound.muteButton();
    this.analysis = new Analysis(this.id, {
      onChange: () => this.renderBoard(),
      onPly: (n) => this.showPly(n),
      onError: (e) => this.say(errorText(e), e.code),
    });

    this.el = gameLayout({
      home: siteNav("play"), // the site's header, slim in the top bar (style.css "site nav")
      status: this.status,
      tools: [this.connection, this.legend.button, this.flipBtn, this.muteBtn],
      toast: this.toast.el,
      board: this.board.el,
      boardExtras: [this.legend.panel],
      barTop: this.barSlots.top,
      barBottom: this.barSlots.bottom,
      controls: [
        h("div", { class: "controls" },
          this.rotateBtn, h("span", { class: "rotation-box" }, `${t("game.rotation")} `, this.rotation, this.rotationIcon),
          this.selInfo, this.passBtn),
        this.confirm.el, this.warning,
        h("div", { class: "controls" }, this.moveInput)],
      side: [
        this.banner,
        this.invitePanel,
        h("section", { class: "panel" }, this.players, this.notice, this.offers,
          this.drawPrompt, this.takebackPrompt,
          h("div", { class: "row buttons" }, this.takebackBtn, this.drawBtn, this.resignBtn),
          h("div", { class: "row buttons seat" }, this.renewBtn), this.seatLink),
        this.stack.el,
        this.words.el,
        h("section", { class: "panel" },
          h("div", { class: "row" }, h("h2", {}, t("game.moves")), this.replayLabel),
          this.moveList,
          h("div", { class: "row replay" }, this.prevBtn, this.slider, this.nextBtn),
          h("div", { class: "row" }, this.liveBtn,
            h("a", { href: api.recordUrl(this.id), download: `punct-${this.id}.pgn`, "data-testid": "download-record" }, t("game.download")))),
        this.analysis.el],
    });
    // The board's proportions, for the layout to give it all the room it can use.
    this.el.style.setProperty("--board-aspect", this.board.aspect.toFixed(4));
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
    const shown = this.view;
    this.voice?.state(wasLive, state, state.you || this.you); // the new moves in words (announce.js)
    this.live = state;
    this.legal = indexMoves(state);
    if (this.replayPly != null && this.replayPly >= state.ply) this.replayPly = null;
    if (this.replayPly == null) this.view = state;
    // A new state makes any half-made move meaningless.
    this.sel = null;
    this.confirm?.clear();
    this.resignArmed = false;
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
    if (this.board && this.view === state && shown && shown !== state) animateLastMove(this.board, shown, state);
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

  /**
   * A takeback asked by `side`, with the moves it undoes: its last move
   * and any reply after it, e.g. "White asks to take back White's move
   * 12. E@C5/2 and the reply G5-G9/4."
   */
  takebackText(side) {
    const s = this.live;
    const first = s.start.split(":")[1] === "b" ? "black" : "white";
    const mover = (i) => ((i % 2 === 0) === (first === "white") ? "white" : "black");
    let i = s.moves.length - 1;
    while (i >= 0 && mover(i) !== side) i--;
    if (i < 0) return tSide("game.takeback.asks", side);
    const num = (k) => `${Math.floor((k + (first === "black" ? 1 : 0)) / 2) + 1}${mover(k) === "white" ? "." : "…"}`;
    const replies = s.moves.slice(i + 1);
    const p = { number: num(i), move: s.moves[i], replies: replies.join(", ") };
    return tSide(replies.length ? "game.takeback.asks_move_reply" : "game.takeback.asks_move", side, p);
  }

  /** Offers, accepts or declines a rematch; the new game opens when it starts. */
  async rematch(action) {
    if (this.busy || !this.token) return;
    this.busy = true;
    this.renderControls();
    try {
      this.applyLive(await api.rematch(this.id, this.token, action));
      this.say("");
    } catch (e) {
      this.say(errorText(e), e.code);
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
      this.say(errorText(e), e.code);
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
    this.flipBtn.setAttribute("aria-pressed", String(this.flipped));
    this.flipBtn.classList.toggle("active", this.flipped);
    this.board.setFlipped(this.flipped);
    this.render();
  }

  isLegal(move) {
    return !!move && !!this.live && (this.live.legal_moves || []).includes(move);
  }

  /** A legal target clicked: played at once, or by touch first shown to confirm (touch.js). */
  play(cell) {
    if (this.confirm.ready(cell)) this.sendMove(moveAt(this.sel, cell));
    else this.renderSelection();
  }

  confirmMove() {
    const move = moveAt(this.sel, this.confirm.cell);
    this.confirm.clear();
    if (this.isLegal(move)) this.sendMove(move);
    else this.renderSelection();
  }

  /** Shows `cell`'s stack (on a phone the sheet opens). */
  openStack(cell) {
    this.pinned = cell;
    this.stack.open(true);
    this.renderStack();
  }

  // ------------------------------------------------------------ actions

  /** Sends a request over the live socket (or HTTP when it is down). */
  async act(type, fields) {
    if (this.busy) return false;
    this.busy = true;
    this.say(""); // the next action clears the last word
    this.renderControls();
    try {
      const body = { ...fields, token: this.token || "" };
      if (this.socket && this.socket.open) {
        await this.socket.request({ type, ...body });
      } else {
        const path = { move: "moves", resign: "resign", draw: "draw", takeback: "takeback", abandon: "abandon" }[type];
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
        this.say(errorText(e), e.code);
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

  pickKind(side, kind) {
    if (!this.canMove() || side !== this.live.to_move) return;
    this.say("");
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
    turnSelection(this.sel, this.geom, delta);
    if (this.sel.type === "add") this.renderReserves(); // the selected kind's icon turns too
    this.renderSelection();
  }

  clickCell(cell) {
    this.pinned = cell;
    if (!this.canMove()) {
      this.openStack(cell);
      return;
    }
    const c = cellChoice(this.sel, cell, this.legal, topPieceAt(this.view, cell), this.live.to_move);
    if (c.act === "play") this.play(cell);
    else if (c.act === "select") this.selectPiece(c.piece);
    else if (c.act === "cancel") this.cancel();
    else if (c.act === "try") this.sendMove(c.move); // the server says why not
    else {
      if (c.act === "blocked") this.say(t("game.cannot_move"));
      this.openStack(cell);
    }
  }

  hoverCell(cell) {
    if (cell === this.hover) return;
    this.hover = cell;
    this.renderOverlay();
    this.renderStack();
  }

  cancel() {
    this.sel = null;
    this.confirm.clear();
    this.render();
  }

  key(e) {
    const target = e.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // T C E L M R / 1–6 pick a kind, ] [ turn (kbd.js); R with a selection turns it below.
    if (this.live && pieceKeys(e, { pick: (k) => this.pickKind(this.live.to_move, k), rotate: (d) => this.rotate(d), selected: () => !!this.sel })) return;
    if (e.key === "r" || e.key === "R") {
      if (this.sel) {
        this.rotate(e.shiftKey ? -1 : 1);
        e.preventDefault();
      }
    } else if (e.key === "Escape") {
      if (this.sel) this.cancel();
      else if (this.stack.isOpen) this.stack.open(false);
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
        this.say(errorText(e), e.code);
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
    this.words.update(v); // the position in words, when open (announce.js)
    const s = this.live;
    this.notifier.update(s, s.status === "ongoing" && !s.ai_thinking && this.seats().includes(s.to_move));
  }

  renderStatus() {
    const s = this.live;
    if (!s || !this.status) return;
    const seats = this.seats();
    let text;
    if (this.replayPly != null) {
      text = t("game.status.replay", { ply: this.replayPly, count: s.ply });
    } else if (s.status === "over") {
      text = s.result ? t("game.status.over_result", { headline: headline(s.result, seats), reason: reasonText(s.result) })
        : t("game.status.over");
    } else {
      const mover = s.to_move;
      const open = s.invite_open;
      if (s.ai_thinking) text = tSide("game.status.ai_thinking", mover);
      else if (s.ai && s.ai.side === s.to_move) text = tSide("game.status.ai_soon", mover);
      else if (s.mode === "hotseat" && seats.length) text = tSide("game.status.hotseat", mover);
      else if (seats.includes(s.to_move)) text = tSide(open ? "game.status.your_turn_alone" : "game.status.your_turn", mover);
      else if (seats.length && open) text = tSide("game.status.waiting_join", mover);
      else if (seats.length) text = tSide("game.status.waiting", mover);
      else if (open) text = `${tSide("game.status.to_move", mover)} ${tSide("game.status.seat_open", open)}`;
      else text = tSide("game.status.spectating", mover);
    }
    this.status.textContent = text;
    this.connection.textContent = this.connected ? t("game.connection.live") : t("game.connection.down");
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
    this.playersBox.update(s, seats);
    const notice = noticeText(s);
    this.notice.textContent = notice;
    show(this.notice, !!notice);
    this.endgame.update(s, seats, this.busy);
    this.clocks.update(s);
    // What is on offer, for everyone (those who answer get buttons below).
    const offers = [];
    if (ongoing && s.draw_offer) offers.push(tSide("game.draw.offered", s.draw_offer));
    if (ongoing && s.takeback_request) offers.push(this.takebackText(s.takeback_request));
    this.offers.textContent = offers.join(" ");
    show(this.offers, offers.length > 0 && !seats.length);
    const answerDraw = ongoing && s.draw_offer && seats.includes(other(s.draw_offer));
    this.drawPrompt.querySelector(".prompt-text").textContent = answerDraw
      ? tSide("game.draw.offered", s.draw_offer) : "";
    show(this.drawPrompt, !!answerDraw);
    const answerTakeback = s.takeback_request && seats.includes(other(s.takeback_request));
    this.takebackPrompt.querySelector(".prompt-text").textContent = answerTakeback
      ? this.takebackText(s.takeback_request) : "";
    show(this.takebackPrompt, !!answerTakeback);
    // Games ended by resignation or agreement cannot be taken back (docs/API.md).
    const final = s.result && !["connection", "central count", "no connection"].includes(s.result.reason);
    // With the other seat still empty nobody could answer an offer or a request.
    const alone = !!s.invite_open;
    show(this.takebackBtn, player && !final && !alone);
    this.takebackBtn.disabled = this.busy || s.ply === 0 || (s.takeback_request && seats.includes(s.takeback_request));
    this.takebackBtn.textContent = s.mode === "online"
      ? (s.takeback_request && seats.includes(s.takeback_request) ? t("game.takeback.asked") : t("game.takeback.ask"))
      : t("game.takeback");
    show(this.drawBtn, player && ongoing && !alone);
    const myOffer = s.draw_offer && seats.includes(s.draw_offer) && s.mode !== "hotseat";
    this.drawBtn.disabled = this.busy || !!myOffer;
    this.drawBtn.textContent = myOffer ? t("game.draw.pending") : t("game.draw.offer");
    show(this.resignBtn, player && ongoing);
    show(this.renewBtn, player);
    this.renderInvite();
    this.resignBtn.disabled = this.busy;
    this.resignBtn.textContent = this.resignArmed ? t("game.resign.confirm") : t("game.resign");
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
      h("h2", {}, tSide("game.invite.waiting", open)),
      ...(code
        ? [h("p", {}, tSide("game.invite.send", open)),
          linkRow(url(`/game/${this.id}#invite=${code}`), "invite-link", "copy-invite", say)]
        : [h("p", {}, t("game.invite.elsewhere"))]),
      h("p", { class: "small" }, t("game.invite.watch_at")),
      linkRow(url(`/game/${this.id}`), "spectate-link", "copy-spectate", say));
  }

  /** The rotation display, the selection line, the confirm bar and the ghost (cheap: on R, wheel, hover). */
  renderSelection(withOverlay = true) {
    const sel = this.sel;
    const kind = sel ? (sel.type === "add" ? sel.kind : sel.piece.kind) : null;
    this.rotation.textContent = sel ? String(sel.rot) : "–";
    this.rotationIcon.replaceChildren(sel ? pieceIcon(this.geom, kind, sel.rot, this.live.to_move, this.flipped) : "");
    this.rotateBtn.disabled = !sel;
    const touch = this.confirm.touch;
    this.selInfo.textContent = !sel ? (this.canMove() ? t("game.select.pick") : "")
      : sel.type === "add" ? t(touch ? "game.select.adding_tap" : "game.select.adding_click", { kind })
        : t(touch ? "game.select.moving_tap" : "game.select.moving_click", { kind, from: sel.piece.punct });
    if (sel) this.stack.open(false);
    const move = moveAt(this.sel, this.confirm.cell);
    this.confirm.render(move, this.isLegal(move));
    // Adding one's last piece ends the game: say what decides it then.
    const warn = sel && sel.type === "add" ? lastPieceWarning(this.live, this.live.to_move) : "";
    this.warning.textContent = warn;
    show(this.warning, !!warn);
    this.voice.selection(sel, this.legal, this.live.version); // said when it changed (announce.js)
    if (withOverlay) this.renderOverlay();
  }

  renderReserves() {
    const s = this.view;
    const seats = this.seats();
    const mine = this.canMove();
    const sel = this.sel && this.sel.type === "add" ? this.sel : null;
    for (const side of ["white", "black"]) {
      const moving = side === s.to_move;
      this.bars[side].render({
        state: s, role: roleOf(s, side, seats), canPick: mine && moving,
        legalKinds: moving ? new Set(this.legal.adds.keys()) : new Set(), sel: moving ? sel : null,
        counting: this.counting === side, flipped: this.flipped,
      });
    }
    // The player's own bar goes under the board (or under the opponent's beside it).
    const blackBelow = seats.length === 1 && seats[0] === "black";
    const below = blackBelow ? this.bars.black.el : this.bars.white.el;
    const above = blackBelow ? this.bars.white.el : this.bars.black.el;
    if (above.parentNode !== this.barSlots.top) this.barSlots.top.append(above);
    if (below.parentNode !== this.barSlots.bottom) this.barSlots.bottom.append(below);
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
    this.moveList.replaceChildren(...(rows.length ? rows : [h("div", { class: "small" }, t("game.no_moves"))]));
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
    this.replayLabel.textContent = this.replayPly != null ? t("game.replay.at", { ply: n, count: s.ply }) : t("game.replay.plies", { count: s.ply });
    this.renderMoves();
    this.renderStatus();
  }

  renderBoard() {
    if (!this.board) return;
    const side = this.live.to_move;
    const v = this.view;
    this.board.setPosition(v, {
      // One's own pieces that may move now get a ring (none are dimmed), until one is picked.
      movable: this.canMove() && !this.sel ? new Set(v.pieces.filter((p) => p.movable && p.side === side)) : null,
      lifted: this.sel && this.sel.type === "move" ? this.sel.piece : null,
      counted: this.counting ? { side: this.counting, cells: countedCells(v, this.geom, this.counting) } : null,
    });
    this.renderOverlay();
  }

  renderOverlay() {
    if (!this.board) return;
    // A tapped target waiting for its confirmation keeps the ghost in place.
    const o = selectionOverlay(this.sel, this.legal, this.confirm.cell || this.hover, this.view.to_move);
    // A tapped cell stays highlighted while its stack is shown in the sheet.
    if (!o.hover && this.stack.isOpen) o.hover = this.pinned;
    const best = this.analysis.bestFor(this.view.position);
    if (best) o.best = bestDrawing(this.view, best);
    this.board.setOverlay(o);
  }

  renderStack() {
    this.stack.show(this.hover || this.pinned, this.view, this.geom);
  }
}
