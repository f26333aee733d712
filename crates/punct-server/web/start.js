// The start screen: new games (against the AI, at one screen, online),
// opening a record file, and the recent games.

import { api } from "./api.js";
import { h, show, cap, other, gameMemory } from "./dom.js";

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

  /** Creates a game, remembers our seat's token, and answers the server's "created". */
  async function create(body) {
    say("");
    buttons.forEach((b) => { b.disabled = true; });
    try {
      const created = await api.createGame({ ...body, variant: variant.value });
      const seat = created.you;
      const token = created.seats[seat];
      if (token) gameMemory.add(created.id, token);
      return created;
    } catch (e) {
      say(e.message);
      return null;
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
    }
  }

  const invite = h("div", { class: "invite", "data-testid": "invite" });
  show(invite, false);

  async function startOnline() {
    const created = await create({ mode: "online", side: colour.value });
    if (!created || closed) return;
    const them = other(created.you);
    const url = (path) => new URL(path, location.origin).href;
    const inviteUrl = url(created.links[them]);
    const copy = (text, b) => async () => {
      try {
        await navigator.clipboard.writeText(text);
        b.textContent = "Copied";
      } catch {
        say("The browser did not allow copying: select the link and copy it by hand.");
      }
    };
    const copyBtn = h("button", { type: "button", "data-testid": "copy-invite" }, "Copy");
    copyBtn.addEventListener("click", copy(inviteUrl, copyBtn));
    invite.replaceChildren(
      h("p", {}, `You play ${cap(created.you)}. Send this link to your opponent (it is their seat, ${them}):`),
      h("div", { class: "link-row" },
        h("a", { href: inviteUrl, "data-testid": "invite-link", class: "link", target: "_blank", rel: "noopener" }, inviteUrl),
        copyBtn),
      h("p", {}, "Spectators can watch at:"),
      h("div", { class: "link-row" },
        h("a", { href: url(created.links.spectate), "data-testid": "spectate-link", class: "link" }, url(created.links.spectate))),
      h("p", {}, h("a", {
        href: created.links[created.you], "data-nav": "", "data-testid": "enter-game", class: "button",
      }, `Go to the game as ${cap(created.you)}`)));
    show(invite, true);
  }

  const file = h("input", { type: "file", accept: ".pgn,.txt,text/plain", "data-testid": "open-record" });
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    say("");
    try {
      const created = await api.importRecord(await f.text());
      const token = created.seats[created.you];
      gameMemory.add(created.id, token);
      if (!closed) navigate(created.links[created.you]);
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
      // Games started in this browser open in our seat; others as spectators.
      const href = mine[g.id] ? `/game/${g.id}?token=${encodeURIComponent(mine[g.id])}` : `/game/${g.id}`;
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
          h("p", {}, button("start-ai", "Play the AI", async () => {
            const created = await create({ mode: "ai", level: +level.value, side: colour.value });
            if (created && !closed) navigate(created.links[created.you]);
          }))),
        h("div", { class: "card" },
          h("h3", {}, "Two players, one screen"),
          h("p", { class: "small" }, "Take turns at this device."),
          button("start-hotseat", "Start a hot-seat game", async () => {
            const created = await create({ mode: "hotseat" });
            if (created && !closed) navigate(created.links.white);
          })),
        h("div", { class: "card" },
          h("h3", {}, "Play online"),
          h("p", { class: "small" }, "You get a link to send to your opponent."),
          button("start-online", "Create an online game", startOnline),
          invite))),
    h("section", { class: "panel" },
      h("h2", {}, "Open a record"),
      h("label", {}, "A game record (.pgn) to replay and continue at one screen: ", file)),
    h("section", { class: "panel" }, h("h2", {}, "Recent games"), recent)));

  return { destroy() { closed = true; } };
}
