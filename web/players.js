// Who plays and who is here: the players' names (an account's leading to
// its profile), whether each is
// connected (the live socket's `presence` messages), how many watch, the
// player's own name (changeable), and — in a real-time game whose
// opponent has gone — the button to claim the win.

import { h, show, other, nameProblem, playerName, sideName, tSide, tNodes } from "./dom.js";
import { t } from "./i18n.js";
import { aiLevels } from "./start.js";
import { profileHref } from "./nav.js";

/** "40 s", "3 min" */
function awayText(ms) {
  const s = Math.round(ms / 1000);
  return s < 120 ? t("game.players.seconds", { count: s }) : t("game.players.minutes", { count: Math.round(s / 60) });
}

export class Players {
  /** onName(name): set our seat's name; onClaimWin(): claim an abandoned game */
  constructor({ onName, onClaimWin }) {
    this.onName = onName;
    this.presenceMsg = null; // the last presence message, and when it came
    this.presenceAt = 0;
    this.line = h("div", { class: "players", "data-testid": "players" });
    this.watching = h("div", { class: "watching small", "data-testid": "spectators" });
    this.away = h("div", { class: "away-note", "data-testid": "away" });
    this.claimBtn = h("button", { type: "button", "data-testid": "claim-win", onclick: () => onClaimWin() }, t("game.players.claim_win"));
    this.nameInput = h("input", {
      type: "text", maxlength: 40, "data-testid": "name-input", "aria-label": t("game.players.name_label"),
      onkeydown: (e) => { if (e.key === "Enter") this.saveName(); },
    });
    this.nameForm = h("span", { class: "name-form" }, this.nameInput,
      h("button", { type: "button", "data-testid": "save-name", onclick: () => this.saveName() }, t("game.players.save_name")));
    this.nameBtn = h("button", {
      type: "button", class: "small-button", "data-testid": "set-name",
      onclick: () => {
        show(this.nameForm, true);
        show(this.nameBtn, false);
        this.nameInput.focus();
      },
    }, t("game.players.change_name"));
    show(this.nameForm, false);
    // The opponent gone and the claim: its own row, for the screen to keep in sight.
    this.awayRow = h("div", { class: "row away-row" }, this.away, this.claimBtn);
    this.el = h("div", { class: "players-box" }, this.line, this.watching,
      h("div", { class: "row name-row" }, this.nameBtn, this.nameForm));
    this.tick = setInterval(() => this.renderAway(), 1000);
  }

  saveName() {
    const name = this.nameInput.value.trim();
    // Kept for the next game only if the server takes it (it says why not).
    if (!nameProblem(name)) playerName.set(name);
    show(this.nameForm, false);
    show(this.nameBtn, true);
    this.onName(name);
  }

  /** A `presence` message of the live socket. */
  presence(msg) {
    this.presenceMsg = msg;
    this.presenceAt = Date.now();
    if (this.state) this.update(this.state, this.seats);
  }

  /** Whether `side` has a live page open, as last heard (null: not known). */
  connected(side) {
    const p = this.presenceMsg && this.presenceMsg[side];
    return p ? !!p.connected : null;
  }

  update(s, seats) {
    this.state = s;
    this.seats = seats;
    const who = (side) => {
      const p = s.players ? s.players[side] : null;
      if (s.ai && s.ai.side === side) {
        const level = aiLevels().find(([n]) => n === s.ai.level);
        const text = t("game.players.ai", { level: s.ai.level, name: level ? level[1] : "" });
        // A rated game's AI seat is the level's bot account (docs/API.md: level1 … level4).
        return s[`${side}_user`]
          ? h("a", { href: profileHref(`level${s.ai.level}`), "data-nav": "", "data-testid": `profile-link-${side}` }, text)
          : text;
      }
      if (s.invite_open === side) return t("game.players.invited");
      const name = p && p.name ? p.name : null;
      const you = seats.includes(side) && s.mode !== "hotseat";
      if (you) return name ? t("game.players.name_you", { name }) : t("game.players.you");
      // An account's seat: its name leads to the player's profile.
      if (name && s[`${side}_user`]) return h("a", { href: profileHref(name), "data-nav": "", "data-testid": `profile-link-${side}` }, name);
      // Someone who gave no name is "Anonymous" on every screen (as in the bars).
      return name || (s.mode === "hotseat" ? t("game.players.this_screen") : t("game.players.anonymous"));
    };
    const dot = (side) => {
      if ((s.ai && s.ai.side === side) || s.invite_open === side || s.mode !== "online") return null;
      const up = this.connected(side);
      if (up == null) return null;
      const label = up ? t("game.players.connected") : t("game.players.not_connected");
      // An image with a name, so screen readers say it (a title alone is not reliably read).
      return h("span", { class: up ? "presence on" : "presence off", "data-testid": `presence-${side}`, "data-connected": String(up),
        role: "img", title: label, "aria-label": label }, up ? "●" : "○");
    };
    // A bot account's seat is marked (the AI's seat says what it is already).
    const botMark = (side) => {
      const p = s.players ? s.players[side] : null;
      if (!p || !p.bot || (s.ai && s.ai.side === side)) return null;
      return [" ", h("span", { class: "badge bot", "data-testid": `bot-${side}`, title: t("lobby.seek.bot_about") }, t("profile.bot"))];
    };
    const line = (side) => h("span", { class: `player ${side}` }, dot(side), " ",
      tNodes("game.players.line", { name: h("strong", {}, who(side), botMark(side)) }, { side: sideName(side) }));
    this.line.replaceChildren(line("white"), line("black"));
    const n = this.presenceMsg ? this.presenceMsg.spectators : null;
    this.watching.textContent = n == null ? "" : n === 0 ? t("game.players.nobody_watching") : t("game.players.watching", { count: n });
    this.watching.dataset.count = n == null ? "" : String(n);
    const editing = !this.nameForm.hidden; // keep what is being typed
    // An account's seat is named by the account: nothing to change here.
    const account = seats.length > 0 && seats.every((side) => s[`${side}_user`]);
    show(this.nameBtn, seats.length > 0 && s.mode !== "hotseat" && !s.local && !editing && !account);
    if (!editing) {
      const mine = seats.length === 1 && s.players ? s.players[seats[0]].name : "";
      this.nameInput.value = mine || playerName.get();
    }
    this.renderAway();
  }

  /** The opponent's absence, and the claim button once it may count. */
  renderAway() {
    const s = this.state;
    const seats = this.seats || [];
    let text = "";
    let claim = false;
    if (s && s.status === "ongoing" && s.mode === "online" && seats.length === 1 && this.presenceMsg) {
      const opp = other(seats[0]);
      const p = this.presenceMsg[opp];
      if (p && !p.connected && p.away_ms != null) {
        const away = p.away_ms + (Date.now() - this.presenceAt);
        claim = !!(s.clock && s.clock.type === "realtime");
        text = tSide(claim ? "game.players.away_claim" : "game.players.away", opp, { time: awayText(away) });
      }
    }
    this.away.textContent = text;
    show(this.away, !!text);
    show(this.claimBtn, claim);
  }

  destroy() {
    clearInterval(this.tick);
  }
}
