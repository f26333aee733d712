// The end of a game: the result for the person at this screen ("You won",
// "You lost", "Draw", or who won for a spectator) with the reason in
// words, and what to do next: a rematch (colours swapped; online the
// opponent accepts), a new game, the rematch's link once it has begun.

import { h, show, cap, other } from "./dom.js";

/** The reason of a result (`state.result`) in plain words. */
export function reasonText(result) {
  const winner = result.winner ? cap(result.winner) : null;
  const loser = result.winner ? cap(other(result.winner)) : null;
  const c = result.central;
  const count = c ? `White ${c.white}, Black ${c.black}` : "";
  switch (result.reason) {
    case "connection":
      return `${winner} connected ${result.sides.join(" and ")}.`;
    case "central count":
      return winner
        ? `Nobody connected. After the last piece the central hexagon decides: ${count}.`
        : `Nobody connected, and the central hexagon is tied: ${count}.`;
    case "no connection":
      return "Nobody connected before the last piece: a draw.";
    case "resignation":
      return `${loser} resigned.`;
    case "agreement":
      return "Drawn by agreement.";
    case "time":
      return `${loser} ran out of time.`;
    case "abandonment":
      return `${loser} left the game.`;
    default:
      return result.text ? `${cap(result.text)}.` : "";
  }
}

/** The headline for the person at this screen, holding `seats`. */
export function headline(result, seats) {
  if (!result.winner) return "Draw";
  if (seats.length === 1) return seats[0] === result.winner ? "You won" : "You lost";
  return `${cap(result.winner)} wins`;
}

export class EndOfGame {
  /** onRematch(action): "offer" | "accept" | "decline"; navigate(url) */
  constructor({ onRematch, navigate }) {
    this.onRematch = onRematch;
    this.navigate = navigate;
    const btn = (testid, label, onclick, cls = "") =>
      h("button", { type: "button", "data-testid": testid, class: cls, onclick }, label);
    this.title = h("strong", { class: "end-title", "data-testid": "result-title" });
    this.reason = h("span", { class: "end-reason", "data-testid": "result-reason" });
    this.score = h("span", { class: "end-score" });
    this.note = h("p", { class: "end-note small" });
    this.rematchBtn = btn("rematch", "Rematch", () => this.onRematch("offer"), "primary");
    this.acceptBtn = btn("accept-rematch", "Accept the rematch", () => this.onRematch("accept"), "primary");
    this.declineBtn = btn("decline-rematch", "Decline", () => this.onRematch("decline"));
    this.rematchLink = h("a", { class: "button", "data-testid": "rematch-link", "data-nav": "" }, "Go to the rematch");
    this.newGame = h("a", { href: "/", class: "button", "data-nav": "", "data-testid": "new-game" }, "New game");
    this.el = h("div", { class: "result-banner", "data-testid": "result-banner", role: "status" },
      h("div", { class: "end-head" }, this.title, this.score),
      this.reason, this.note,
      h("div", { class: "row buttons" }, this.rematchBtn, this.acceptBtn, this.declineBtn, this.rematchLink, this.newGame));
    show(this.el, false);
  }

  update(s, seats, busy) {
    const over = s.status === "over" && !!s.result;
    show(this.el, over);
    if (!over) return;
    const r = s.result;
    const title = headline(r, seats);
    this.title.textContent = title;
    this.el.dataset.outcome = title === "You won" ? "won" : title === "You lost" ? "lost" : r.winner ? "decided" : "draw";
    this.score.textContent = r.score;
    this.reason.textContent = reasonText(r);
    const notes = [];
    if (s.assisted) notes.push("The engine's hints were used in this game.");
    const player = seats.length > 0;
    const offeredBy = s.rematch_offer;
    const theirOffer = player && offeredBy && !seats.includes(offeredBy);
    const ourOffer = player && offeredBy && seats.includes(offeredBy) && s.mode === "online";
    if (theirOffer) notes.push(`${cap(offeredBy)} offers a rematch with the colours swapped.`);
    else if (ourOffer) notes.push("Rematch offered: waiting for your opponent's answer.");
    this.note.textContent = notes.join(" ");
    show(this.note, notes.length > 0);
    const started = !!s.rematch;
    show(this.rematchBtn, player && !started && !theirOffer);
    this.rematchBtn.disabled = busy || !!ourOffer;
    this.rematchBtn.textContent = ourOffer ? "Rematch offered…" : "Rematch";
    show(this.acceptBtn, !!theirOffer && !started);
    show(this.declineBtn, !!theirOffer && !started);
    this.acceptBtn.disabled = this.declineBtn.disabled = busy;
    show(this.rematchLink, started);
    if (started) {
      this.rematchLink.setAttribute("href", `/game/${s.rematch}`);
      this.rematchLink.textContent = player ? "Go to the rematch" : "Watch the rematch";
    }
  }
}
