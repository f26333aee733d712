// The game screen's view: builds the screen's parts (board, bars,
// controls, panels) and draws the game controller's state into them
// (game.js GameScreen, `ctrl` here: the live game, the position shown,
// the seats, what may be done). Every button hands its action to the
// controller; the board is the controller's move chooser (chooser.js).

import { api } from "./api.js";
import { h, show, other, gameMemory, tSide, inputWay } from "./dom.js";
import { t, has } from "./i18n.js";
import { siteNav } from "./nav.js";
import { StackView } from "./stack.js";
import { Key } from "./key.js";
import { sound } from "./sound.js";
import { PlayerBar, roleOf } from "./playerbar.js";
import { countedCells, lastPieceWarning } from "./central.js";
import { gameLayout, moveControls } from "./layout.js";
import { bestDrawing } from "./moves.js";
import { Analysis } from "./analysis.js";
import { EndOfGame, headline, reasonText } from "./endgame.js";
import { Clocks } from "./clock.js";
import { Players } from "./players.js";
import { PositionText } from "./announce.js";
import { turnControls } from "./chooser.js";
import { Chat } from "./chat.js";
import { Tabs } from "./tabs.js";

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

/** The screen while the game loads (`toast`: the controller's messages). */
export function loadingView(root, toast) {
  root.replaceChildren(h("div", { class: "game loading", "data-testid": "game" },
    siteNav("play"), h("p", { "data-testid": "game-loading" }, t("game.loading")), toast.el));
}

/**
 * The loading screen after a failed load: what went wrong in place of
 * "Loading…", and a way back to the start.
 */
export function loadFailedView(root, why) {
  root.querySelector('[data-testid="game-loading"]')?.replaceWith(
    h("h1", { class: "load-failed", "data-testid": "game-load-failed", role: "alert" }, why));
  root.firstChild.append(h("p", {}, h("a", { href: "/", "data-nav": "" }, t("game.back_to_start"))));
}

/**
 * The record's download: the server's for its games; for a game played
 * in this browser (localgame.js) written by the page's rules when asked.
 */
function downloadLink(c) {
  const a = h("a", { href: c.local ? "#" : api.recordUrl(c.id), download: `punct-${c.id}.pgn`, "data-testid": "download-record" }, t("game.download"));
  if (c.local) {
    a.addEventListener("click", async (e) => {
      e.preventDefault();
      const text = await c.local.recordText();
      const file = h("a", { href: URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" })), download: `punct-${c.id}.pgn` });
      file.click();
      setTimeout(() => URL.revokeObjectURL(file.href), 10000);
    });
  }
  return a;
}

export class GameView {
  /** ctrl: game.js GameScreen, whose chooser, geometry and toast are made; the view is placed in `root`. */
  constructor(ctrl, root) {
    this.ctrl = ctrl;
    this.geom = ctrl.geom;
    this.chooser = ctrl.chooser;
    this.board = ctrl.chooser.board;
    this.pinned = null; // the cell whose stack is shown when nothing is hovered
    this.build(root);
  }

  destroy() {
    this.analysis.destroy();
    this.clocks.destroy();
    this.playersBox.destroy();
    this.legend.destroy();
    sound.dropButton(this.muteBtn);
  }

  // ------------------------------------------------------------ layout

  build(root) {
    const c = this.ctrl;
    const btn = (testid, label, onclick, extra = {}) =>
      h("button", { type: "button", "data-testid": testid, onclick, ...extra }, label);
    // The board in words (announce.js).
    this.words = new PositionText(this.geom);
    // Each side's bar: who, reserve, central count, clock slot (playerbar.js).
    this.bars = {};
    for (const side of ["white", "black"]) {
      this.bars[side] = new PlayerBar(side, this.geom, {
        onPick: (s, kind) => c.pickKind(s, kind),
        onCentral: (s) => c.toggleCounting(s),
      });
    }
    this.barSlots = { top: h("div", { class: "bar-slot top" }), bottom: h("div", { class: "bar-slot bottom" }) };

    this.status = h("div", { class: "status", "data-testid": "status", "aria-live": "polite" });
    this.connection = h("span", { class: "connection", "data-testid": "connection" });
    this.endgame = new EndOfGame({
      onRematch: (action) => c.rematch(action),
      navigate: c.navigate,
    });
    this.notice = h("div", { class: "notice", "data-testid": "notice" });
    // Offers and requests as everyone sees them (spectators included).
    this.offers = h("div", { class: "offers", "data-testid": "offers", "aria-live": "polite" });
    this.playersBox = new Players({
      onName: (name) => c.setName(name),
      onClaimWin: () => c.act("abandon", {}),
    });
    // Each side's clock, in its bar (filled by clock.js; hidden in untimed games).
    this.clocks = new Clocks({ white: this.bars.white.clock, black: this.bars.black.clock }, { onLow: (side) => c.lowTime(side) });

    this.turn = turnControls(this.chooser, { label: t("game.rotate"), title: t("game.rotate_title"), caption: t("game.rotation") });
    this.passBtn = btn("pass", t("game.pass"), () => c.sendMove("pass"));
    this.moveInput = h("input", {
      type: "text", "data-testid": "move-input", placeholder: t("game.move_input.placeholder"),
      autocomplete: "off", autocapitalize: "off", spellcheck: "false", "aria-label": t("game.move_input.label"),
      onkeydown: async (e) => {
        const text = this.moveInput.value.trim();
        if (e.key === "Enter" && text && await c.sendMove(text)) this.moveInput.value = "";
      },
    });
    this.selInfo = h("span", { class: "sel-info" });

    this.takebackBtn = btn("takeback", t("game.takeback"), () => c.act("takeback", { action: "request" }));
    this.drawBtn = btn("offer-draw", t("game.draw.offer"), () => c.act("draw", { action: "offer" }));
    this.resignBtn = btn("resign", t("game.resign"), () => c.resign());
    this.abortBtn = btn("abort", t("game.abort"), () => c.abort());
    this.drawPrompt = h("div", { class: "prompt" }, h("span", { class: "prompt-text" }),
      btn("accept-draw", t("game.draw.accept"), () => c.act("draw", { action: "accept" })),
      btn("decline-draw", t("game.draw.decline"), () => c.act("draw", { action: "decline" })));
    this.takebackPrompt = h("div", { class: "prompt" }, h("span", { class: "prompt-text" }),
      btn("accept-takeback", t("game.takeback.accept"), () => c.act("takeback", { action: "accept" })),
      btn("decline-takeback", t("game.takeback.decline"), () => c.act("takeback", { action: "decline" })));

    this.moveList = h("div", { class: "move-list", "data-testid": "move-list" });
    this.slider = h("input", {
      type: "range", min: 0, max: 0, value: 0, step: 1, "data-testid": "replay-slider", "aria-label": t("game.replay.slider"),
      oninput: () => c.showPly(+this.slider.value),
    });
    this.prevBtn = btn("replay-prev", "◀", () => c.step(-1), { title: t("game.replay.prev_title"), "aria-label": t("game.replay.prev") });
    this.nextBtn = btn("replay-next", "▶", () => c.step(1), { title: t("game.replay.next_title"), "aria-label": t("game.replay.next") });
    this.liveBtn = btn("back-to-live", t("game.replay.live"), () => c.showPly(c.live.ply));
    this.replayLabel = h("span", { class: "replay-label", "data-testid": "replay-label" });

    this.invitePanel = h("section", { class: "panel invite", "data-testid": "invite" });
    show(this.invitePanel, false);
    this.renewInviteBtn = btn("renew-invite", t("game.invite.renew"), () => c.renewInvite(), {
      class: "small-button", title: t("game.invite.renew_title"),
    });
    this.renewBtn = btn("renew-token", t("game.seat.renew"), () => c.renewToken(), {
      class: "small-button", title: t("game.seat.renew_title"),
    });
    this.seatLink = h("div", { class: "seat-link" });
    show(this.seatLink, false);

    this.chat = new Chat((phrase) => c.act("chat", { phrase }));
    this.stack = new StackView({ onToggle: () => this.renderOverlay() });
    this.legend = new Key(this.geom.pairs); // the key to the board's symbols
    this.warning = h("div", { class: "warning", "data-testid": "last-piece-warning", role: "status" });
    show(this.warning, false);
    this.flipBtn = btn("flip-board", t("game.flip"), () => c.flip(), {
      class: c.flipped ? "tool active" : "tool", "aria-pressed": String(c.flipped), title: t("game.flip_title"),
    });
    this.muteBtn = sound.muteButton();
    this.analysis = new Analysis(c.id, {
      onChange: () => this.renderBoard(),
      onPly: (n) => c.showPly(n),
      onError: (e) => c.fail(e),
    });
    this.actions = h("div", { class: "row buttons actions" }, this.takebackBtn, this.drawBtn, this.abortBtn, this.resignBtn);
    // The side column's panels, one at a time (at 1366 × 768 one under the
    // other put the moves and the review below the fold).
    this.tabs = new Tabs("side", [
      {
        id: "moves", label: t("game.panel.moves"), content: [h("section", { class: "panel moves-panel" },
          h("div", { class: "row" }, h("h2", {}, t("game.moves")), this.replayLabel),
          this.moveList,
          h("div", { class: "row" }, downloadLink(c)))],
      },
      { id: "analysis", label: t("game.panel.analysis"), content: [this.analysis.el] },
      {
        id: "players", label: t("game.panel.players"), content: [
          h("section", { class: "panel" }, this.playersBox.el, h("div", { class: "row buttons seat" }, this.renewBtn), this.seatLink),
          this.chat.el],
      },
      { id: "board", label: t("game.panel.board"), content: [this.stack.el, this.words.el] },
    ], { label: t("game.panel.label") });

    this.el = gameLayout({
      home: siteNav("play"), // the site's header, slim in the top bar (style.css "site nav")
      status: this.status,
      tools: [this.connection, this.legend.button, this.flipBtn, this.muteBtn],
      toast: c.toast.el,
      board: this.board.el,
      boardExtras: [this.legend.panel],
      barTop: this.barSlots.top,
      barBottom: this.barSlots.bottom,
      controls: [
        // What the opponent asks, to answer: first under the board, by
        // the status line, on every layout (on a phone the side panels
        // are far below).
        this.drawPrompt, this.takebackPrompt, this.playersBox.awayRow, this.notice, this.offers,
        ...moveControls({
          turn: this.turn, selInfo: this.selInfo, passBtn: this.passBtn,
          confirm: this.chooser.confirm.el, warning: this.warning, moveInput: this.moveInput,
        }),
        // A player's actions stay in sight with the move's controls, and
        // the steps through the game with them, whichever tab is shown.
        this.actions,
        h("div", { class: "row replay" }, this.prevBtn, this.slider, this.nextBtn, this.liveBtn)],
      side: [this.endgame.el, this.invitePanel, this.tabs.el],
    });
    // The board's proportions, for the layout to give it all the room it can use.
    this.el.style.setProperty("--board-aspect", this.board.aspect.toFixed(4));
    root.replaceChildren(this.el);
  }

  // ------------------------------------------------------------ told by the controller

  /** A player came or went (the live socket's presence message). */
  presence(msg) {
    this.playersBox.presence(msg);
  }

  /** The server's clock (the live socket's), for the game clocks. */
  serverTime(now) {
    this.clocks.serverTime(now);
  }

  /** The board was turned round (the controller's `flipped`). */
  flipped() {
    const on = this.ctrl.flipped;
    this.flipBtn.setAttribute("aria-pressed", String(on));
    this.flipBtn.classList.toggle("active", on);
    this.board.setFlipped(on);
  }

  /** While a new invite link is asked for, its button waits. */
  renewingInvite(on) {
    this.renewInviteBtn.disabled = on;
  }

  /** While a new seat link is asked for, its button waits. */
  renewing(on) {
    this.renewBtn.disabled = on;
  }

  /** The seat's new link (the old one no longer works). */
  showSeatLink(url) {
    this.seatLink.replaceChildren(
      h("p", { class: "small" }, t("game.seat.new_link")),
      linkRow(url, "seat-link", "copy-seat-link", (text) => this.ctrl.say(text)),
      h("p", { class: "small", "data-testid": "renew-note" }, t("game.seat.old_link_void")));
    show(this.seatLink, true);
  }

  /** The cell chosen last: its stack is shown when nothing is hovered. */
  pin(cell) {
    this.pinned = cell;
  }

  /** Shows `cell`'s stack (on a phone the sheet opens). */
  openStack(cell) {
    this.pinned = cell;
    this.stack.open(true);
    this.renderStack();
  }

  /** Lets the stack's sheet go (on a phone). */
  closeStack() {
    if (this.stack.isOpen) this.stack.open(false);
  }

  // ------------------------------------------------------------ rendering

  render() {
    const c = this.ctrl;
    const v = c.view;
    const d = this.el.dataset;
    d.ply = v.ply;
    d.version = v.version;
    d.toMove = v.to_move || "";
    d.status = v.status;
    d.replay = String(c.replayPly != null);
    d.seats = c.seats().join(" ");
    this.renderStatus();
    this.renderControls();
    this.renderReserves();
    this.renderMoves();
    this.renderReplay();
    this.renderBoard();
    this.renderStack();
    this.analysis.update(c.live, v, c.replayPly != null);
    this.words.update(v); // the position in words, when open (announce.js)
  }

  renderStatus() {
    const c = this.ctrl;
    const s = c.live;
    if (!s) return;
    const seats = c.seats();
    let text;
    let full = null; // the whole text, where the line keeps to a part (shown on pointing)
    if (c.replayPly != null) {
      text = t("game.status.replay", { ply: c.replayPly, count: s.ply });
    } else if (s.status === "over") {
      // The reason is in the result's banner: the top bar keeps to the headline.
      if (s.result) {
        const title = headline(s.result, seats);
        text = t("game.status.over_result", { headline: title });
        full = t("game.status.over_reason", { headline: title, reason: reasonText(s.result) });
      } else {
        text = t("game.status.over");
      }
    } else {
      const mover = s.to_move;
      const open = s.invite_open;
      if (s.ai_thinking) text = tSide("game.status.ai_thinking", mover);
      else if (s.ai && s.ai.side === s.to_move) text = tSide("game.status.ai_soon", mover);
      else if (s.mode === "hotseat" && seats.length) text = tSide("game.status.hotseat", mover);
      // Asked something by the opponent: the status line says what.
      else if (s.mode === "online" && s.draw_offer && seats.includes(other(s.draw_offer))) text = tSide("game.draw.offered", s.draw_offer);
      else if (s.mode === "online" && s.takeback_request && seats.includes(other(s.takeback_request))) text = this.takebackText(s.takeback_request);
      else if (seats.includes(s.to_move)) text = tSide(open ? "game.status.your_turn_alone" : "game.status.your_turn", mover);
      else if (seats.length && open) text = tSide("game.status.waiting_join", mover);
      else if (seats.length) text = tSide("game.status.waiting", mover);
      else if (open) text = `${tSide("game.status.to_move", mover)} ${tSide("game.status.seat_open", open)}`;
      else text = tSide("game.status.spectating", mover);
    }
    this.status.textContent = text;
    this.status.title = full || text;
    this.connection.textContent = c.connected ? t("game.connection.live") : t("game.connection.down");
    this.connection.classList.toggle("down", !c.connected);
  }

  renderControls() {
    const c = this.ctrl;
    const s = c.live;
    if (!s) return;
    const seats = c.seats();
    const player = seats.length > 0;
    const ongoing = s.status === "ongoing";
    const mine = c.canMove();
    // Players, offers and requests.
    this.playersBox.update(s, seats);
    const notice = noticeText(s);
    this.notice.textContent = notice;
    show(this.notice, !!notice);
    this.endgame.update(s, seats, c.busy);
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
    this.takebackBtn.disabled = c.busy || s.ply === 0 || (s.takeback_request && seats.includes(s.takeback_request));
    this.takebackBtn.textContent = s.mode === "online"
      ? (s.takeback_request && seats.includes(s.takeback_request) ? t("game.takeback.asked") : t("game.takeback.ask"))
      : t("game.takeback");
    // A game on this device (localgame.js): its AI takes no draw offers, and
    // there is no seat link to renew.
    show(this.drawBtn, player && ongoing && !alone && !s.local);
    const myOffer = s.draw_offer && seats.includes(s.draw_offer) && s.mode !== "hotseat";
    this.drawBtn.disabled = c.busy || !!myOffer;
    this.drawBtn.textContent = myOffer ? t("game.draw.pending") : t("game.draw.offer");
    show(this.resignBtn, player && ongoing);
    show(this.renewBtn, player && !s.local);
    const said = this.chat.shown;
    this.chat.update(s, seats, c.busy);
    if (said >= 0 && this.chat.shown > said) this.tabs.mark("players");
    // A game that has ended: its review first, once (then the player's choice).
    if (s.status === "over" && !this.reviewChosen) {
      this.reviewChosen = true;
      this.tabs.select("analysis");
    }
    this.renderInvite();
    this.resignBtn.disabled = c.busy;
    // "Click again", "Tap again" or "Press again", as the first was done.
    this.resignBtn.textContent = c.resignArmed ? t(`game.resign.confirm.${inputWay()}`) : t("game.resign");
    this.resignBtn.classList.toggle("armed", c.resignArmed);
    // Only while the server says the game may still be aborted.
    show(this.abortBtn, player && ongoing && !!s.abortable);
    this.abortBtn.disabled = c.busy;
    this.abortBtn.textContent = c.abortArmed ? t(`game.abort.confirm.${inputWay()}`) : t("game.abort");
    this.abortBtn.classList.toggle("armed", c.abortArmed);
    // Moving: the turn control and the typed move are a player's, while
    // the game goes on (a spectator or a finished game has no use for them).
    const moving = player && ongoing;
    show(this.turn.button, moving);
    show(this.turn.box, moving);
    show(this.moveInput, moving);
    show(this.passBtn, mine && this.chooser.legal.pass);
    this.moveInput.disabled = !moving || c.replayPly != null;
    this.renderSelection(false);
  }

  /**
   * A takeback asked by `side`, with the moves it undoes: its last move
   * and any reply after it, e.g. "White asks to take back White's move
   * 12. E@C5/2 and the reply G5-G9/4."
   */
  takebackText(side) {
    const s = this.ctrl.live;
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

  /**
   * While the other seat waits for its player, its holder sees the links to
   * pass on (`renewed`: the invite link has just been replaced).
   */
  renderInvite(renewed = false) {
    const c = this.ctrl;
    const s = c.live;
    const open = s.invite_open;
    const waiting = !!open && c.seats().length > 0;
    const key = waiting ? open : "";
    if (this.inviteKey === key && !renewed) return;
    this.inviteKey = key;
    show(this.invitePanel, waiting);
    if (!waiting) {
      // Claimed (or not ours to pass on): the code is of no more use here.
      if (!open && gameMemory.get(c.id)?.invite) gameMemory.setInvite(c.id, null);
      this.invitePanel.replaceChildren();
      return;
    }
    const url = (path) => new URL(path, location.origin).href;
    const code = gameMemory.get(c.id)?.invite;
    const say = (text) => c.say(text);
    this.invitePanel.replaceChildren(
      h("h2", {}, tSide("game.invite.waiting", open)),
      ...(code
        ? [h("p", {}, tSide("game.invite.send", open)),
          linkRow(url(`/game/${c.id}#invite=${code}`), "invite-link", "copy-invite", say)]
        : [h("p", {}, t("game.invite.elsewhere"))]),
      ...(renewed ? [h("p", { class: "small", "data-testid": "invite-renewed" }, t("game.invite.renewed"))] : []),
      // Also where the code is not kept here: a new one replaces it, and shows.
      h("div", { class: "row buttons" }, this.renewInviteBtn),
      h("p", { class: "small" }, t("game.invite.watch_at")),
      linkRow(url(`/game/${c.id}`), "spectate-link", "copy-spectate", say));
  }

  /** The selection's rotation turned: the selected kind's icon turns too. */
  renderTurn() {
    if (this.chooser.sel?.type === "add") this.renderReserves();
    this.renderSelection();
  }

  /** The rotation display, the selection line, the confirm bar and the ghost (cheap: on R, wheel, hover). */
  renderSelection(withOverlay = true) {
    const c = this.ctrl;
    const ch = this.chooser;
    const sel = ch.sel;
    const kind = ch.selectedKind();
    this.turn.render(c.flipped);
    const touch = ch.confirm.touch;
    this.selInfo.textContent = !sel ? (c.canMove() ? t("game.select.pick") : "")
      : sel.type === "add" ? t(touch ? "game.select.adding_tap" : "game.select.adding_click", { kind })
        : t(touch ? "game.select.moving_tap" : "game.select.moving_click", { kind, from: sel.piece.punct });
    if (sel) this.stack.open(false);
    ch.renderConfirm();
    // Adding one's last piece ends the game: say what decides it then.
    const warn = sel && sel.type === "add" ? lastPieceWarning(c.live, c.live.to_move) : "";
    this.warning.textContent = warn;
    show(this.warning, !!warn);
    ch.voice.selection(sel, ch.legal, c.live.version); // said when it changed (announce.js)
    if (withOverlay) this.renderOverlay();
  }

  renderReserves() {
    const c = this.ctrl;
    const s = c.view;
    const seats = c.seats();
    const mine = c.canMove();
    const sel = this.chooser.sel && this.chooser.sel.type === "add" ? this.chooser.sel : null;
    for (const side of ["white", "black"]) {
      const moving = side === s.to_move;
      this.bars[side].render({
        state: s, role: roleOf(s, side, seats), canPick: mine && moving,
        legalKinds: moving ? new Set(this.chooser.legal.adds.keys()) : new Set(), sel: moving ? sel : null,
        counting: c.counting === side, flipped: c.flipped,
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
    const c = this.ctrl;
    const s = c.live;
    const key = `${s.version}:${c.shownPly()}`;
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
        type: "button", class: i + 1 === c.shownPly() ? "mv current" : "mv", "data-ply": i + 1,
        onclick: () => c.showPly(i + 1),
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
    const c = this.ctrl;
    const s = c.live;
    const n = c.shownPly();
    this.slider.max = String(s.ply);
    this.slider.value = String(n);
    this.prevBtn.disabled = n <= 0;
    this.nextBtn.disabled = n >= s.ply;
    show(this.liveBtn, c.replayPly != null);
    this.replayLabel.textContent = c.replayPly != null ? t("game.replay.at", { ply: n, count: s.ply }) : t("game.replay.plies", { count: s.ply });
    this.renderMoves();
    this.renderStatus();
  }

  renderBoard() {
    const c = this.ctrl;
    const v = c.view;
    this.board.setPosition(v, {
      // One's own pieces that may move now get a ring (none are dimmed), until one is picked.
      movable: this.chooser.movable(),
      lifted: this.chooser.lifted(),
      counted: c.counting ? { side: c.counting, cells: countedCells(v, this.geom, c.counting) } : null,
    });
    this.renderOverlay();
  }

  renderOverlay() {
    const v = this.ctrl.view;
    // A tapped target waiting for its confirmation keeps the ghost in place.
    const o = this.chooser.overlay();
    // A tapped cell stays highlighted while its stack is shown in the sheet.
    if (!o.hover && this.stack.isOpen) o.hover = this.pinned;
    const best = this.analysis.bestFor(v.position);
    if (best) o.best = bestDrawing(v, best);
    this.board.setOverlay(o);
  }

  renderStack() {
    this.stack.show(this.chooser.hover || this.pinned, this.ctrl.view, this.geom);
  }
}
