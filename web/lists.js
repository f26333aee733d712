// The start screen's game lists: "My games" (the games this browser holds
// a seat in) and "Watch" (games between people being played now).
//
// Which seats we hold is not in a game summary. The page remembers them
// with the seat's token (gameMemory entry `seats`) when it creates a game;
// for games it got otherwise (an invite claimed, a seat's link opened) it
// asks the server once (`GET /api/games/{id}` with the token answers `you`)
// and remembers the answer.

import { api } from "./api.js";
import { h, show, other, gameMemory, tSide, tNodes } from "./dom.js";
import { localGameSummaries } from "./localgame.js";
import { staticSite } from "./api.js";
import { t, currentLang, errorText } from "./i18n.js";

/** The most games "My games" asks about (the server's limit for `ids`). */
const MY_GAMES_MAX = 200;
/** Lines shown before "Show all". */
const MY_GAMES_SHOWN = 12;
/** Seat look-ups per load (each one a full game state). */
const LOOKUPS_PER_LOAD = 10;
/** The lists are loaded again this often while the start screen is open. */
const REFRESH_MS = 30000;

/** A time control in words: "5 min + 3 s", "3 days a move", "no clock". */
export function clockText(clock) {
  if (!clock || clock.type === "none") return t("start.clock.off");
  if (clock.type === "realtime") {
    const whole = clock.initial % 60 === 0;
    const p = { minutes: clock.initial / 60, seconds: clock.initial, increment: clock.increment };
    if (clock.increment) return whole ? t("start.clock.minutes_plus", p) : t("start.clock.seconds_plus", p);
    return whole ? t("start.clock.minutes", p) : t("start.clock.seconds", p);
  }
  if (clock.type === "correspondence") return t("start.clock.days", { count: clock.days });
  return "";
}

/** A game's start as a short date and time, in the page's language. */
function when(ms) {
  try {
    return new Intl.DateTimeFormat(currentLang(), { dateStyle: "short", timeStyle: "short" }).format(new Date(ms));
  } catch {
    return new Date(ms).toLocaleString();
  }
}

/** The player of `side` in a summary: a name, "AI level N" or "Anonymous". */
function playerText(g, side) {
  const p = g.players && g.players[side];
  if (p && p.ai) return t("start.list.ai", { level: g.ai ? g.ai.level : "?" });
  return (p && p.name) || t("start.list.anonymous");
}

/** The seats this browser holds in a game (null: not known yet). */
function seatsOf(entry) {
  if (!entry) return null;
  if (Array.isArray(entry.seats)) return entry.seats;
  return null;
}

/** Who we play against, in a few words. */
function opponentText(g, seats) {
  if (g.mode === "hotseat") return t("start.list.one_screen");
  if (g.mode === "ai") return t("start.list.vs_ai", { level: g.ai ? g.ai.level : "?" });
  if (g.invite_open && seats && seats.length === 1) return t("start.list.waiting");
  if (seats && seats.length === 1) return t("start.list.vs", { name: playerText(g, other(seats[0])) });
  return t("start.list.players", { white: playerText(g, "white"), black: playerText(g, "black") });
}

const WINNER = { "1-0": "white", "0-1": "black" };

/** A variant other than the standard one, in a word. */
const variantText = (v) => (v === "basic" ? t("start.list.basic") : v);

/**
 * The game's state from our seats' point of view: [text, class].
 * Over: "you won", "you lost", "draw" (or "White won" when we hold both
 * seats or do not know ours); going on: "your turn", "their turn" or
 * "White to move".
 */
function stateText(g, seats) {
  const one = seats && seats.length === 1 ? seats[0] : null;
  if (g.status === "over") {
    const winner = WINNER[g.result];
    const score = (g.result || "?").replaceAll("1/2", "½");
    if (g.result === "*") return [t("start.list.aborted"), "over aborted"];
    if (!winner) return [t("start.list.draw", { score }), "over"];
    if (one) {
      return winner === one
        ? [t("start.list.you_won", { score }), "over won"]
        : [t("start.list.you_lost", { score }), "over lost"];
    }
    return [tSide("start.list.won", winner, { score }), "over"];
  }
  if (!g.to_move) return ["", ""];
  if (one) {
    if (g.to_move === one) return [t("start.list.your_turn"), "your-turn"];
    return [g.mode === "ai" ? t("start.list.ai_turn") : t("start.list.their_turn"), "their-turn"];
  }
  return [tSide("start.list.to_move", g.to_move), ""];
}

/** The line of game `g` in "My games". */
function myGameLine(g, seats) {
  const [state, stateClass] = stateText(g, seats);
  const meta = [t("start.list.moves", { count: g.ply })];
  if (g.clock) meta.push(clockText(g.clock));
  if (g.variant !== "standard") meta.push(variantText(g.variant));
  meta.push(when(g.created));
  return h("li", { class: "game-line", "data-game": g.id, "data-status": g.status },
    h("a", { href: `/game/${g.id}`, "data-nav": "", "data-game": g.id },
      h("span", { class: "game-who" }, opponentText(g, seats)),
      state && h("span", { class: `game-state ${stateClass}`.trim() }, state),
      h("span", { class: "game-meta" }, meta.join(" · "))));
}

/** The line of game `g` in "Watch". */
function watchLine(g, mine) {
  const meta = [t("start.list.moves", { count: g.ply })];
  if (g.clock !== undefined) meta.push(clockText(g.clock));
  if (g.variant !== "standard") meta.push(variantText(g.variant));
  if (mine) meta.push(t("start.list.your_game"));
  const player = (side) => [h("span", { class: `swatch ${side}`, "aria-hidden": "true" }), playerText(g, side)];
  return h("li", { class: "game-line", "data-game": g.id },
    h("a", { href: `/game/${g.id}`, "data-nav": "", "data-game": g.id },
      h("span", { class: "game-who" },
        tNodes("start.list.players", { white: player("white"), black: player("black") })),
      g.to_move && h("span", { class: "game-state" }, tSide("start.list.to_move", g.to_move)),
      h("span", { class: "game-meta" }, meta.join(" · "))));
}

/**
 * The side the account `name` holds in summary `g`, or null: a seat an
 * account holds shows the account's name (and its `{side}_user` is set).
 */
export function sideOf(g, name) {
  for (const side of ["white", "black"]) {
    const p = g.players && g.players[side];
    if (p && !p.ai && p.name === name && g[`${side}_user`] !== null) return side;
  }
  return null;
}

/**
 * The line of game `g` in a player's list (profile.js), from the player
 * `name`'s side: their colour, the opponent, won / lost / draw or who is
 * to move, and moves, clock, variant, rated or not and the date.
 */
export function playerGameLine(g, name) {
  const side = sideOf(g, name);
  const player = (s) => [h("span", { class: `swatch ${s}`, "aria-hidden": "true" }), playerText(g, s)];
  const who = side
    ? [h("span", { class: `swatch ${side}`, role: "img", "aria-label": t(`profile.games.as.${side}`) }),
      g.invite_open ? t("profile.games.open_seat") : t("start.list.vs", { name: playerText(g, other(side)) })]
    : tNodes("start.list.players", { white: player("white"), black: player("black") });
  let state = "";
  let cls = "";
  if (g.status === "over") {
    const winner = WINNER[g.result];
    const score = (g.result || "?").replaceAll("1/2", "½");
    // An ended game without a result (`*`) was aborted.
    if (g.result === "*") [state, cls] = [t("start.list.aborted"), "over aborted"];
    else if (!winner) [state, cls] = [t("start.list.draw", { score }), "over"];
    else if (side) [state, cls] = winner === side ? [t("profile.games.won", { score }), "over won"] : [t("profile.games.lost", { score }), "over lost"];
    else [state, cls] = [tSide("start.list.won", winner, { score }), "over"];
  } else if (g.to_move && !(side && g.invite_open)) {
    state = tSide("start.list.to_move", g.to_move);
  }
  const meta = [t("start.list.moves", { count: g.ply })];
  if (g.clock !== undefined) meta.push(clockText(g.clock));
  if (g.variant !== "standard") meta.push(variantText(g.variant));
  meta.push(g.rated ? t("profile.games.rated") : t("profile.games.casual"));
  meta.push(when(g.created));
  return h("li", { class: "game-line", "data-game": g.id, "data-status": g.status, "data-side": side },
    h("a", { href: `/game/${g.id}`, "data-nav": "", "data-game": g.id },
      h("span", { class: "game-who" }, who),
      state && h("span", { class: `game-state ${cls}`.trim() }, state),
      h("span", { class: "game-meta" }, meta.join(" · "))));
}

const info = (text) => h("li", { class: "small empty" }, text);

/**
 * The two lists, loaded now and every REFRESH_MS while the screen shows.
 * Answers {myGames, watch} (the elements) and destroy().
 */
export function gameLists() {
  let closed = false;
  let showAll = false;
  const asked = new Set(); // games whose seats were looked up on this screen

  const myList = h("ul", { class: "game-list" }, info(t("start.list.loading")));
  const more = h("button", { type: "button", class: "small-button", "data-testid": "my-games-more", hidden: true }, "");
  let lastGames = [];
  more.addEventListener("click", () => {
    showAll = true;
    render(lastGames);
  });
  const myGames = h("section", { class: "panel lists-panel", "data-testid": "my-games" },
    h("h2", {}, t("start.list.mine")), myList, more);

  const watchList = h("ul", { class: "game-list" }, info(t("start.list.loading")));
  const watch = h("section", { class: "panel lists-panel", "data-testid": "watch-games" },
    h("h2", {}, t("start.list.watch")),
    h("p", { class: "small" }, t("start.list.watch_about")),
    watchList);

  /** Asks the server which seats our tokens hold, for games we do not know it of. */
  async function lookUpSeats(games) {
    const memory = gameMemory.all();
    const todo = games
      .filter((g) => memory[g.id] && memory[g.id].token && !seatsOf(memory[g.id]) && !asked.has(g.id))
      .slice(0, LOOKUPS_PER_LOAD);
    let learnt = false;
    for (const g of todo) {
      if (closed) return learnt;
      asked.add(g.id);
      const token = memory[g.id].token;
      let state;
      try {
        state = await api.game(g.id, null, token);
      } catch {
        continue; // asked again on the next screen
      }
      // Keep it only if the token is still the one we asked with.
      const now = gameMemory.get(g.id);
      if (now && now.token === token && Array.isArray(state.you)) {
        gameMemory.save(g.id, { ...now, seats: state.you });
        learnt = true;
      }
    }
    return learnt;
  }

  let mineBusy = false;
  async function loadMine() {
    if (mineBusy) return;
    mineBusy = true;
    try {
      // Newest first: the memory keeps the order games came in.
      const ids = Object.keys(gameMemory.all()).reverse().slice(0, MY_GAMES_MAX);
      // The games against the AI played on this device (localgame.js).
      const local = localGameSummaries();
      if (!ids.length && !local.length) {
        myList.replaceChildren(info(t("start.list.none")));
        show(more, false);
        return;
      }
      let games = [];
      try {
        if (ids.length) ({ games } = await api.myGames(ids));
      } catch (e) {
        // Offline, this device's own games still show.
        if (!local.length) {
          if (!closed) myList.replaceChildren(info(t("start.list.mine_failed", { error: errorText(e) })));
          return;
        }
      }
      if (closed) return;
      games = [...games, ...local];
      // Games the server no longer has are simply not in the answer.
      games.sort((a, b) => b.created - a.created || (a.id < b.id ? -1 : 1));
      render(games);
      if (await lookUpSeats(games)) render(games);
    } finally {
      mineBusy = false;
    }
  }

  function render(games) {
    if (closed) return;
    lastGames = games;
    if (!games.length) {
      myList.replaceChildren(info(t("start.list.none")));
      show(more, false);
      return;
    }
    const memory = gameMemory.all();
    const shown = showAll ? games : games.slice(0, MY_GAMES_SHOWN);
    myList.replaceChildren(...shown.map((g) => myGameLine(g, seatsOf(memory[g.id]) ?? g.you ?? null)));
    more.textContent = t("start.list.show_all", { count: games.length });
    show(more, shown.length < games.length);
  }

  async function loadWatch() {
    let games;
    try {
      ({ games } = await api.watchGames(20));
    } catch (e) {
      if (!closed) watchList.replaceChildren(info(t("start.list.watch_failed", { error: errorText(e) })));
      return;
    }
    if (closed) return;
    const memory = gameMemory.all();
    watchList.replaceChildren(...(games.length
      ? games.map((g) => watchLine(g, !!memory[g.id]))
      : [info(t("start.list.nobody"))]));
  }

  const load = () => {
    if (closed || document.hidden) return;
    loadMine();
    if (!staticSite) loadWatch();
  };
  load();
  const timer = setInterval(load, REFRESH_MS);
  document.addEventListener("visibilitychange", load);

  return {
    myGames,
    watch,
    destroy() {
      closed = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", load);
    },
  };
}
