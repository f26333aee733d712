// The game screen's chat: phrases of a fixed set only, shown in the
// reader's language whoever said them (chat.phrase.<code>), and a button
// for each for a player seated in an online game. No free text (docs/API.md,
// "The chat"): the server keeps the codes, each page words them.

import { h, show } from "./dom.js";
import { t } from "./i18n.js";

/** The phrases' codes, in the order of their buttons. */
const PHRASES = ["good_luck", "have_fun", "good_game", "thank_you", "well_played", "rematch"];
/** Phrases a seat says in one game at most (the server's chat.rs). */
const PER_SIDE = 12;

export class Chat {
  /** `say(code)` sends a phrase (the controller's act). */
  constructor(say) {
    this.lines = h("ol", { class: "chat-lines", "data-testid": "chat-lines", "aria-live": "polite" });
    this.phraseBtns = PHRASES.map((code) => h("button", {
      type: "button", class: "small-button", "data-testid": `chat-${code}`, onclick: () => say(code),
    }, t(`chat.phrase.${code}`)));
    this.buttons = h("div", { class: "chat-phrases", role: "group", "aria-label": t("chat.say") }, ...this.phraseBtns);
    this.el = h("section", { class: "panel chat", "data-testid": "chat" },
      h("h2", {}, t("chat.title")), this.lines, this.buttons);
    this.shown = -1;
  }

  /** Draws state `s`'s chat for a page holding `seats`; `busy` while an action is on its way. */
  update(s, seats, busy) {
    const said = s.chat || [];
    const seat = s.mode === "online" && seats.length === 1 ? seats[0] : null;
    show(this.el, s.mode === "online" && (said.length > 0 || !!seat));
    show(this.buttons, !!seat);
    const full = said.filter((l) => l.side === seat).length >= PER_SIDE;
    for (const b of this.phraseBtns) b.disabled = busy || full;
    if (said.length === this.shown) return;
    this.shown = said.length;
    this.lines.replaceChildren(...said.map((l) => {
      const name = (s.players && s.players[l.side] && s.players[l.side].name) || t(`side.${l.side}`);
      return h("li", { "data-side": l.side, "data-phrase": l.phrase },
        h("span", { class: `chat-who ${l.side}` }, name), " ", h("span", { class: "chat-phrase" }, t(`chat.phrase.${l.phrase}`)));
    }));
    if (!said.length) this.lines.replaceChildren(h("li", { class: "empty" }, t("chat.empty")));
  }
}
