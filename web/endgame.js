// The end of a game: the result for the person at this screen ("You won",
// "You lost", "Draw", or who won for a spectator) with the reason in
// words, a rated game's new ratings and their changes ("White 1512
// (+12)"), and what to do next: a rematch (colours swapped; online the
// opponent accepts), a new game, the rematch's link once it has begun,
// and the game on the analysis board (/analysis?game=ID).

import { h, show, other, tSide, edgeName } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { ratingWithChange, categoryName } from "./ratings.js";

/** Pauses between asks while a finished rated game's ratings are being worked out (ms). */
const RATING_WAITS = [500, 1000, 2000, 4000, 8000];

/** The reason of a result (`state.result`) in plain words. */
export function reasonText(result) {
  const winner = result.winner || null;
  const loser = winner ? other(winner) : null;
  const c = result.central || {};
  const count = { white: c.white, black: c.black };
  switch (result.reason) {
    case "connection": {
      const [a, b] = (result.sides || []).map(edgeName);
      return tSide("game.reason.connection", winner, { a, b });
    }
    case "central count":
      return winner
        ? tSide("game.reason.central", winner, count)
        : t("game.reason.central_tie", count);
    case "no connection":
      return t("game.reason.no_connection");
    case "resignation":
      return loser ? tSide("game.reason.resignation", loser) : "";
    case "agreement":
      return t("game.reason.agreement");
    case "time":
      return loser ? tSide("game.reason.time", loser) : "";
    case "abandonment":
      return loser ? tSide("game.reason.abandonment", loser) : "";
    case "aborted":
      return result.side ? tSide("game.reason.aborted", result.side) : "";
    default:
      return result.score ? t("game.reason.recorded", { score: result.score }) : "";
  }
}

/** How the game ended for the person at this screen, holding `seats`: won, lost, draw or decided (watching). */
export function outcome(result, seats) {
  if (result.reason === "aborted") return "aborted";
  if (!result.winner) return "draw";
  if (seats.length === 1) return seats[0] === result.winner ? "won" : "lost";
  return "decided";
}

/** The headline for the person at this screen, holding `seats`. */
export function headline(result, seats) {
  switch (outcome(result, seats)) {
    case "aborted":
      return t("game.end.aborted");
    case "draw":
      return t("game.end.draw");
    case "won":
      return t("game.end.won");
    case "lost":
      return t("game.end.lost");
    default:
      return tSide("game.end.wins", result.winner);
  }
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
    this.rematchBtn = btn("rematch", t("game.end.rematch"), () => this.onRematch("offer"), "primary");
    this.acceptBtn = btn("accept-rematch", t("game.end.accept_rematch"), () => this.onRematch("accept"), "primary");
    this.declineBtn = btn("decline-rematch", t("game.end.decline_rematch"), () => this.onRematch("decline"));
    this.rematchLink = h("a", { class: "button", "data-testid": "rematch-link", "data-nav": "" }, t("game.end.go_to_rematch"));
    this.newGame = h("a", { href: "/", class: "button", "data-nav": "", "data-testid": "new-game" }, t("game.end.new_game"));
    // The finished game on the analysis board (analysisboard.js): its moves, a tree to try others in, the engine.
    this.analyseLink = h("a", {
      class: "button", "data-nav": "", "data-testid": "analyse-game", title: t("analysisboard.analyse_game_title"),
    }, t("analysisboard.analyse_game"));
    this.rating = h("p", { class: "end-rating", "data-testid": "result-rating" });
    show(this.rating, false);
    this.ratingFor = null; // the game whose ratings are asked for or shown
    this.el = h("div", { class: "result-banner", "data-testid": "result-banner", role: "status" },
      h("div", { class: "end-head" }, this.title, this.score),
      this.reason, this.rating, this.note,
      h("div", { class: "row buttons" }, this.rematchBtn, this.acceptBtn, this.declineBtn, this.rematchLink, this.newGame, this.analyseLink));
    show(this.el, false);
  }

  /**
   * The new ratings of rated game `id` and their changes, from `GET
   * /api/games/{id}/rating`; asked again a few times while they are not
   * worked out yet (a side without a rating, both null).
   */
  async showRating(id) {
    this.ratingFor = id;
    for (let i = 0; ; i++) {
      let answer;
      try {
        answer = await api.gameRating(id);
      } catch {
        answer = null; // the result stands without the ratings
      }
      if (this.ratingFor !== id) return;
      if (answer && answer.rated && (answer.white || answer.black)) {
        const sides = ["white", "black"].filter((side) => answer[side]).map((side) => {
          const r = answer[side];
          return h("span", { class: "end-rating-side", "data-testid": `rating-${side}`, "data-change": String(Math.round(r.change || 0)) },
            tSide("game.end.rating", side, { rating: ratingWithChange(r.rating, r.change, r.provisional) }));
        });
        const parts = [h("span", { class: "end-rating-category" }, t("game.end.rated", { category: categoryName(answer.category) }))];
        for (const side of sides) parts.push(" · ", side);
        this.rating.replaceChildren(...parts);
        show(this.rating, true);
        return;
      }
      if (!answer || !answer.rated || i >= RATING_WAITS.length) return;
      await new Promise((r) => setTimeout(r, RATING_WAITS[i]));
      if (this.ratingFor !== id) return;
    }
  }

  update(s, seats, busy) {
    const over = s.status === "over" && !!s.result;
    show(this.el, over);
    if (!over) {
      if (this.ratingFor) {
        this.ratingFor = null;
        show(this.rating, false);
      }
      return;
    }
    if (s.rated && this.ratingFor !== s.id) this.showRating(s.id);
    const r = s.result;
    this.title.textContent = headline(r, seats);
    this.el.dataset.outcome = outcome(r, seats);
    // An aborted game has no result to show.
    this.score.textContent = r.reason === "aborted" ? "" : r.score;
    this.reason.textContent = reasonText(r);
    this.analyseLink.setAttribute("href", `/analysis?game=${encodeURIComponent(s.id)}`);
    const notes = [];
    if (s.assisted) notes.push(t("game.end.assisted"));
    const player = seats.length > 0;
    const offeredBy = s.rematch_offer;
    const theirOffer = player && offeredBy && !seats.includes(offeredBy);
    const ourOffer = player && offeredBy && seats.includes(offeredBy) && s.mode === "online";
    if (theirOffer) notes.push(tSide("game.end.rematch_offer", offeredBy));
    else if (ourOffer) notes.push(t("game.end.rematch_offered_note"));
    this.note.textContent = notes.join(" ");
    show(this.note, notes.length > 0);
    const started = !!s.rematch;
    show(this.rematchBtn, player && !started && !theirOffer);
    this.rematchBtn.disabled = busy || !!ourOffer;
    this.rematchBtn.textContent = ourOffer ? t("game.end.rematch_offered") : t("game.end.rematch");
    show(this.acceptBtn, !!theirOffer && !started);
    show(this.declineBtn, !!theirOffer && !started);
    this.acceptBtn.disabled = this.declineBtn.disabled = busy;
    show(this.rematchLink, started);
    if (started) {
      this.rematchLink.setAttribute("href", `/game/${s.rematch}`);
      this.rematchLink.textContent = player ? t("game.end.go_to_rematch") : t("game.end.watch_rematch");
    }
  }
}
