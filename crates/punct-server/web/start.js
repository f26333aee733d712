// The start screen: the player's name, new games (against the AI, at one
// screen, online) with a time control, opening a record file, and the
// lists of this browser's games and of games to watch (lists.js).

import { api } from "./api.js";
import { h, gameMemory, playerName } from "./dom.js";
import { gameLists } from "./lists.js";

const LEVELS = [
  [1, "beginner", "looks one move ahead and picks among its five favourites; misses threats"],
  [2, "casual", "looks one move ahead, always takes a win and blocks an immediate threat"],
  [3, "club", "searches two plies over its 16 most promising moves, with tactics"],
  [4, "strongest", "deepening alpha-beta over pruned candidates, using all its time"],
];

/** The time controls offered: [value, label, the request's `clock`]. */
const CLOCKS = [
  ["none", "No clock", null],
  ["Real time: minutes each, plus seconds for every move", [
    ["rt-3-2", "3 min + 2 s", { type: "realtime", initial: 180, increment: 2 }],
    ["rt-5-3", "5 min + 3 s", { type: "realtime", initial: 300, increment: 3 }],
    ["rt-10-5", "10 min + 5 s", { type: "realtime", initial: 600, increment: 5 }],
    ["rt-30-20", "30 min + 20 s", { type: "realtime", initial: 1800, increment: 20 }],
  ]],
  ["Correspondence: days for each move", [
    ["cor-1", "1 day a move", { type: "correspondence", days: 1 }],
    ["cor-3", "3 days a move", { type: "correspondence", days: 3 }],
    ["cor-7", "7 days a move", { type: "correspondence", days: 7 }],
  ]],
];
const CLOCK_OF = new Map(CLOCKS.flatMap((c) => (Array.isArray(c[1]) ? c[1] : [c])).map(([v, , clock]) => [v, clock]));

/** The time control chosen last in this browser. */
const clockMemory = {
  get() {
    try {
      const v = localStorage.getItem("punct:clock");
      return CLOCK_OF.has(v) ? v : "none";
    } catch {
      return "none";
    }
  },
  set(v) {
    try {
      localStorage.setItem("punct:clock", v);
    } catch {
      /* storage disabled */
    }
  },
};

/** Why the server would refuse `name` (its rules, docs/API.md), or "". */
function nameProblem(name) {
  if ([...name].length > 40) return "Your name is too long: 40 characters at most.";
  // Control characters (as Rust's char::is_control), quotes and backslashes.
  if (/[\u0000-\u001f\u007f-\u009f"\\]/.test(name)) return "Your name may not contain quotes, backslashes or control characters.";
  return "";
}

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

  const nameField = h("input", {
    type: "text", "data-testid": "player-name", maxlength: 40, autocomplete: "nickname",
    placeholder: "Anonymous", value: playerName.get(), spellcheck: "false",
  });
  // Saved as it is typed (when the server would take it); a problem is said when leaving the field.
  nameField.addEventListener("input", () => {
    const n = nameField.value.trim();
    if (!nameProblem(n)) playerName.set(n);
  });
  nameField.addEventListener("change", () => say(nameProblem(nameField.value.trim())));

  const clockValue = clockMemory.get();
  const clock = h("select", { "data-testid": "time-control" },
    CLOCKS.map(([value, label]) => (Array.isArray(label)
      ? h("optgroup", { label: value }, label.map(([v, l]) => option(v, l, v === clockValue)))
      : option(value, label, value === clockValue))));
  clock.addEventListener("change", () => clockMemory.set(clock.value));

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
    const player = nameField.value.trim();
    const problem = nameProblem(player);
    say(problem);
    if (problem) {
      nameField.focus();
      return null;
    }
    playerName.set(player);
    const timeControl = CLOCK_OF.get(clock.value) || null;
    buttons.forEach((b) => { b.disabled = true; });
    try {
      // No clock: the field is left out (a server without clocks takes that too).
      const created = await api.createGame({
        ...body,
        variant: variant.value,
        ...(player ? { name: player } : {}),
        ...(timeControl ? { clock: timeControl } : {}),
      });
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

  /**
   * Keeps our seat's token, which seats it holds (for "My games") and the
   * invite of a new game in this browser.
   */
  function remember(created) {
    const token = created.seats[created.you];
    if (!token) return;
    const seats = ["white", "black"].filter((side) => created.seats[side]);
    const entry = { ...gameMemory.get(created.id), token, seats };
    if (created.invite) entry.invite = created.invite.code;
    gameMemory.save(created.id, entry);
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

  const lists = gameLists();

  const newGame = h("section", { class: "panel new-game" },
    h("h2", {}, "New game"),
    h("div", { class: "settings" },
      h("label", { class: "name-setting" }, "Your name ", nameField,
        h("span", { class: "small" }, "Shown to your opponents and written into the game records.")),
      h("label", {}, "Variant ", variant),
      h("label", {}, "Clock ", clock),
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
        button("start-online", "Create an online game", () => create({ mode: "online", side: colour.value })))));
  const openRecord = h("section", { class: "panel open-record" },
    h("h2", {}, "Open a record"),
    h("label", {}, "A game record (.pgn) to replay and continue at one screen: ", file));

  root.replaceChildren(h("div", { class: "start", "data-testid": "start" },
    h("header", { class: "start-header" }, h("h1", {}, "PÜNCT"),
      h("p", {}, "Kris Burm's connection game of the GIPF project: add and move pieces of three dots, jump and bridge, and join two opposite sides of the board.")),
    message,
    h("div", { class: "start-main" },
      h("div", { class: "start-new" }, newGame, openRecord),
      h("div", { class: "start-lists" }, lists.myGames, lists.watch))));

  return {
    destroy() {
      closed = true;
      lists.destroy();
    },
  };
}
