// The start screen: new games (against the AI, at one screen, online),
// opening a record file, and the recent games.

import { api } from "./api.js";
import { h, gameMemory } from "./dom.js";

const LEVELS = [
  [1, "beginner", "looks one move ahead and picks among its five favourites; misses threats"],
  [2, "casual", "looks one move ahead, always takes a win and blocks an immediate threat"],
  [3, "club", "searches two plies over its 16 most promising moves, with tactics"],
  [4, "strongest", "deepening alpha-beta over pruned candidates, using all its time"],
];

export function startScreen(root, navigate) {
  let closed = false;
  const message = h("div", { class: "message", "data-testid": "message", role: "alert" });
  const say = (text) => { message.textContent = text || ""; };

  const option = (value, label, selected = false) => h("option", { value, selected }, label);
  const variant = h("select", { "data-testid": "variant" },
    option("standard", "Standard: never add in the central hexagon"),
    option("basic", "Basic: only the first piece avoids the centre"));
  const level = h("select", { "data-testid": "ai-level" },
    LEVELS.map(([n, name]) => option(n, `${n} · ${name}`, n === 2)));
  const levelInfo = h("p", { class: "small", "data-testid": "ai-level-description" });
  const describeLevel = () => { levelInfo.textContent = LEVELS[level.value - 1][2]; };
  level.addEventListener("change", describeLevel);
  describeLevel();
  const colour = h("select", { "data-testid": "ai-color" },
    option("white", "White (moves first)"), option("black", "Black"), option("random", "Random"));

  const buttons = [];
  const button = (testid, label, onclick) => {
    const b = h("button", { type: "button", "data-testid": testid, onclick }, label);
    buttons.push(b);
    return b;
  };

  /**
   * Creates a game and opens it. Our seat's token (and, online, the invite
   * for the other seat) stay in this browser, not in the address.
   */
  async function create(body) {
    say("");
    buttons.forEach((b) => { b.disabled = true; });
    try {
      const created = await api.createGame({ ...body, variant: variant.value });
      remember(created);
      if (!closed) navigate(`/game/${created.id}`);
      return created;
    } catch (e) {
      say(e.message);
      return null;
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
    }
  }

  /** Keeps our seat's token and the invite of a new game in this browser. */
  function remember(created) {
    const token = created.seats[created.you];
    if (token) gameMemory.add(created.id, token);
    if (created.invite) gameMemory.setInvite(created.id, created.invite.code);
  }

  const file = h("input", { type: "file", accept: ".pgn,.txt,text/plain", "data-testid": "open-record" });
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    say("");
    try {
      const created = await api.importRecord(await f.text());
      remember(created);
      if (!closed) navigate(`/game/${created.id}`);
    } catch (e) {
      say(e.message);
    } finally {
      file.value = "";
    }
  });

  const recent = h("ul", { class: "recent", "data-testid": "recent-games" }, h("li", { class: "small" }, "Loading…"));
  api.listGames(20).then(({ games }) => {
    const mine = gameMemory.all();
    const items = games.map((g) => {
      // Games started in this browser open in our seat (its token is in
      // this browser's storage); others as spectators.
      const href = `/game/${g.id}`;
      const mode = g.mode === "ai" ? `vs AI level ${g.ai ? g.ai.level : "?"}` : g.mode === "hotseat" ? "one screen" : "online";
      const state = g.status === "ongoing" ? "ongoing" : `over ${g.result || ""}`;
      return h("li", {}, h("a", { href, "data-nav": "", "data-game": g.id }, g.id),
        ` · ${mode} · ${g.variant} · ${g.ply} plies · ${state}${mine[g.id] ? " · your game" : ""}`);
    });
    recent.replaceChildren(...(items.length ? items : [h("li", { class: "small" }, "No games yet.")]));
  }, (e) => {
    recent.replaceChildren(h("li", { class: "small" }, "Could not load the games."));
    say(e.message);
  });

  root.replaceChildren(h("div", { class: "start", "data-testid": "start" },
    h("header", { class: "start-header" }, h("h1", {}, "PÜNCT"),
      h("p", {}, "Kris Burm's connection game of the GIPF project: add and move pieces of three dots, jump and bridge, and join two opposite sides of the board.")),
    message,
    h("section", { class: "panel" },
      h("h2", {}, "New game"),
      h("div", { class: "settings" },
        h("label", {}, "Variant ", variant),
        h("label", {}, "Your colour (against the AI, or your seat online) ", colour)),
      h("div", { class: "cards" },
        h("div", { class: "card" },
          h("h3", {}, "Play the computer"),
          h("label", {}, "Level ", level), levelInfo,
          h("p", {}, button("start-ai", "Play the AI", () => create({ mode: "ai", level: +level.value, side: colour.value })))),
        h("div", { class: "card" },
          h("h3", {}, "Two players, one screen"),
          h("p", { class: "small" }, "Take turns at this device."),
          button("start-hotseat", "Start a hot-seat game", () => create({ mode: "hotseat" }))),
        h("div", { class: "card" },
          h("h3", {}, "Play online"),
          h("p", { class: "small" }, "The game opens with a link to send to your opponent."),
          button("start-online", "Create an online game", () => create({ mode: "online", side: colour.value }))))),
    h("section", { class: "panel" },
      h("h2", {}, "Open a record"),
      h("label", {}, "A game record (.pgn) to replay and continue at one screen: ", file)),
    h("section", { class: "panel" }, h("h2", {}, "Recent games"), recent)));

  return { destroy() { closed = true; } };
}
