// The start screen, the site's front door: the game's name, what it is
// in a line and a picture of a game (a real board, board.js, drawn from a
// position the page's own rules make), then the three ways in as big
// buttons — play the AI, play someone (online, the lobby, at one screen),
// learn the game (rules, lessons, puzzles). Each opens its settings right
// under it (the player's name, signed in the account's; the AI's level,
// colour, variant, time control, rated); one is open at a time. Below: the
// lobby, the lists of this browser's games and of games to watch
// (lists.js), and the tools (opening a record file, the analysis board,
// the board editor). A static copy of the site offers what needs no
// server: the AI and two players at one screen.

import { api, staticSite } from "./api.js";
import { h, gameMemory, nameProblem, playerName } from "./dom.js";
import { lobbyPanel } from "./lobby.js";
import { gameLists, clockText } from "./lists.js";
import { t, errorText } from "./i18n.js";
import { siteNav } from "./nav.js";
import { session } from "./session.js";
import { createLocalGame } from "./localgame.js";
import { Board, Geometry, svg } from "./board.js";
import * as engine from "./engine.js";

/** The AI's levels: [level, name, what it does] (texts read when the screen is drawn). */
export function aiLevels() {
  return [
    [1, t("start.level.1"), t("start.level.1.about")],
    [2, t("start.level.2"), t("start.level.2.about")],
    [3, t("start.level.3"), t("start.level.3.about")],
    [4, t("start.level.4"), t("start.level.4.about")],
  ];
}

/** The time controls offered: value → the request's `clock`. */
const CLOCK_OF = new Map([
  ["none", null],
  ["rt-3-2", { type: "realtime", initial: 180, increment: 2 }],
  ["rt-5-3", { type: "realtime", initial: 300, increment: 3 }],
  ["rt-10-5", { type: "realtime", initial: 600, increment: 5 }],
  ["rt-30-20", { type: "realtime", initial: 1800, increment: 20 }],
  ["cor-1", { type: "correspondence", days: 1 }],
  ["cor-3", { type: "correspondence", days: 3 }],
  ["cor-7", { type: "correspondence", days: 7 }],
]);

/** The clock select's groups: [label, [values]] (a null label: no group). */
function clockGroups() {
  const of = (type) => [...CLOCK_OF].filter(([, c]) => c && c.type === type).map(([v]) => v);
  return [
    [null, ["none"]],
    [t("start.clock.group.realtime"), of("realtime")],
    [t("start.clock.group.correspondence"), of("correspondence")],
  ];
}

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

/**
 * The picture on the front page: a game in its middle (40 moves of a
 * game between the AI's levels 3 and 4: stacks, bridges and chains
 * across the board), the position made by the page's own rules.
 */
const PICTURE_MOVES = [
  "R@D2/0", "R@D6/5", "E@E7/0", "M@E8/2", "C@H3/2", "E@O8/2", "H3-H9/1", "D6-F8/1", "R@E10/3", "E@D7/2",
  "M@B9/2", "E@F12/0", "E@E12/4", "R@G13/0", "L@G15/4", "L@J17/0", "T@E2/5", "E@D5/1", "E2-E7/2", "M@D11/2",
  "C@J3/2", "L@F3/0", "M@G4/5", "F3-F8/1", "T@B2/5", "J17-J8/2", "L@P9/0", "T@L8/2", "E@N6/1", "C@P10/1",
  "B9-P9/0", "T@P11/1", "P9-P9/5", "T@A5/4", "D2-D9/3", "D5-J11/0", "T@E3/2", "T@C6/5", "N6-E6/2", "T@N7/0",
];

/** The actions' icons: line drawings on a 24-unit square, in the text's colour. */
const ICONS = {
  // The AI: a chip.
  ai: ["M7 7h10v10H7z", "M10 3v4M14 3v4M10 17v4M14 17v4M3 10h4M3 14h4M17 10h4M17 14h4"],
  // Someone: two people.
  people: ["M9 11a3.2 3.2 0 1 0 0-6.4 3.2 3.2 0 0 0 0 6.4z", "M3 20c0-3.6 2.7-6 6-6s6 2.4 6 6",
    "M15.5 11a2.8 2.8 0 1 0 0-5.6", "M17.5 14.3c2 .7 3.5 2.7 3.5 5.7"],
  // Learning: an open book.
  learn: ["M12 6.5C10 5 7 4.5 3.5 5v13c3.5-.5 6.5 0 8.5 1.5 2-1.5 5-2 8.5-1.5V5C17 4.5 14 5 12 6.5z", "M12 6.5v13"],
  // Opened or closed: a chevron.
  more: ["M6 9l6 6 6-6"],
};

function icon(name, cls = "home-icon") {
  const el = svg("svg", { class: cls, viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" });
  for (const d of ICONS[name]) svg("path", { d }, el);
  return el;
}

/**
 * Draws the front page's picture into `slot`: the board in the middle of
 * a game, read-only (an empty board when the page's rules cannot run
 * here). Answers the board (for destroy), or null when `gone()`.
 */
async function drawPicture(slot, gone) {
  const [info, view] = await Promise.all([
    api.board(),
    engine.ask({ op: "view", variant: "standard", moves: PICTURE_MOVES }),
  ]);
  if (gone()) return null;
  const board = new Board(new Geometry(info), { onCell() {}, onHover() {}, onWheel: () => false });
  board.el.setAttribute("data-testid", "home-board");
  board.el.classList.add("home-board");
  board.setPosition(view && !view.error ? { ...view, last_move: null } : { pieces: [], stacks: {} }, {});
  board.setLabel(t("start.picture"));
  slot.style.setProperty("--home-board-aspect", board.aspect.toFixed(3));
  slot.replaceChildren(board.el);
  slot.dataset.ready = "true";
  return board;
}

export function startScreen(root, navigate) {
  let closed = false;
  const message = h("div", { class: "message", "data-testid": "message", role: "alert" });
  const say = (text) => { message.textContent = text || ""; };

  const option = (value, label, selected = false) => h("option", { value, selected }, label);
  const variant = h("select", { "data-testid": "variant" },
    option("standard", t("start.variant.standard")),
    option("basic", t("start.variant.basic")));
  const levels = aiLevels();
  const level = h("select", { "data-testid": "ai-level" },
    levels.map(([n, name]) => option(n, t("start.level.option", { level: n, name }), n === 2)));
  const levelInfo = h("p", { class: "small", "data-testid": "ai-level-description" });
  const describeLevel = () => { levelInfo.textContent = levels[level.value - 1][2]; };
  level.addEventListener("change", describeLevel);
  describeLevel();
  const colour = h("select", { "data-testid": "ai-color" },
    option("white", t("start.colour.white")), option("black", t("start.colour.black")),
    option("random", t("start.colour.random")));

  const nameField = h("input", {
    type: "text", "data-testid": "player-name", maxlength: 40, autocomplete: "nickname",
    placeholder: t("start.name.placeholder"), value: playerName.get(), spellcheck: "false",
  });
  // Saved as it is typed (when the server would take it); a problem is said when leaving the field.
  nameField.addEventListener("input", () => {
    const n = nameField.value.trim();
    if (!nameProblem(n)) playerName.set(n);
  });
  nameField.addEventListener("change", () => say(nameProblem(nameField.value.trim())));

  const clockValue = clockMemory.get();
  const clockOption = (v) => option(v, v === "none" ? t("start.clock.none") : clockText(CLOCK_OF.get(v)), v === clockValue);
  const clock = h("select", { "data-testid": "time-control" },
    clockGroups().map(([label, values]) => (label
      ? h("optgroup", { label }, values.map(clockOption))
      : values.map(clockOption))));

  // A rated game (online or against the AI): signed in, with a clock (its category comes from the clock).
  const rated = h("input", { type: "checkbox", "data-testid": "rated", "aria-describedby": "rated-help" });
  const ratedHelp = h("span", { class: "small", id: "rated-help" });
  const ratedBox = h("div", { class: "rated-setting" }, h("label", { class: "check" }, rated, ` ${t("start.rated.label")}`), ratedHelp);
  const updateRated = () => {
    const signedIn = !!session.user;
    const timed = clock.value !== "none";
    rated.disabled = !signedIn || !timed;
    if (rated.disabled) rated.checked = false;
    ratedHelp.textContent = !signedIn ? t("start.rated.signed_out") : timed ? t("start.rated.about") : t("start.rated.no_clock");
  };
  updateRated();
  clock.addEventListener("change", () => {
    clockMemory.set(clock.value);
    updateRated();
  });

  const buttons = [];
  const button = (testid, label, onclick, cls = null) => {
    const b = h("button", { type: "button", class: cls, "data-testid": testid, onclick }, label);
    buttons.push(b);
    return b;
  };

  /**
   * Creates a game and opens it. Our seat's token (and, online, the invite
   * for the other seat) stay in this browser, not in the address.
   */
  async function create(body) {
    // Signed in, a seat is the account's and shows its name.
    const player = session.user ? "" : nameField.value.trim();
    const problem = nameProblem(player);
    say(problem);
    if (problem) {
      nameField.focus();
      return null;
    }
    if (!session.user) playerName.set(player);
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
      say(errorText(e));
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

  /** A game against the AI on the server (timed, rated, or asked for). */
  const serverAi = () => create({ mode: "ai", level: +level.value, side: colour.value, ...(rated.checked ? { rated: true } : {}) });

  /** "Play the AI": in this browser when casual and untimed and the page's module runs, else on the server. */
  async function playAi() {
    if (staticSite) return local(+level.value);
    if (rated.checked || clock.value !== "none" || !(await engine.available())) return serverAi();
    return local(+level.value);
  }

  /** A game kept and played in this browser (localgame.js): against AI `level`, or (null) at one screen. */
  async function local(aiLevel) {
    buttons.forEach((b) => { b.disabled = true; });
    try {
      const id = await createLocalGame({
        variant: variant.value, level: aiLevel, side: colour.value, name: session.user?.name || playerName.get() || null,
      });
      if (!closed) navigate(`/game/${id}`);
    } catch (e) {
      say(errorText(e));
    } finally {
      buttons.forEach((b) => { b.disabled = false; });
    }
  }

  const recordMessage = h("div", { class: "message", "data-testid": "record-message", role: "alert" });
  const file = h("input", { type: "file", accept: ".pgn,.txt,text/plain", "data-testid": "open-record" });
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    recordMessage.textContent = "";
    try {
      const created = await api.importRecord(await f.text());
      remember(created);
      if (!closed) navigate(`/game/${created.id}`);
    } catch (e) {
      recordMessage.textContent = errorText(e);
    } finally {
      file.value = "";
    }
  });

  const lists = gameLists();
  // "/?challenge=NAME" (a profile's Challenge): the lobby's form set to challenge them.
  const challenge = new URLSearchParams(window.location.search).get("challenge");
  // A static copy of the site has no lobby (no server to meet on).
  const lobby = staticSite ? null : lobbyPanel({
    clocks: CLOCK_OF, clockGroups, challenge, navigate: (path) => { if (!closed) navigate(path); },
  });

  // A label: its words, then the field (a space between them).
  const label = (attrs, text, ...fields) => h("label", attrs, `${text} `, ...fields);
  // Signed in, the account's name instead of the name field.
  const nameSettingFor = (user) => (user
    ? h("p", { class: "name-setting", "data-testid": "playing-as" }, t("start.name.account", { name: user.name }))
    : label({ class: "name-setting" }, t("start.name.label"), nameField,
      h("span", { class: "small" }, t("start.name.help"))));
  let nameSetting = nameSettingFor(session.user);
  const stopSession = session.onChange((user) => {
    if (closed) return;
    const fresh = nameSettingFor(user);
    nameSetting.replaceWith(fresh);
    nameSetting = fresh;
    updateRated();
  });

  // The settings of a new game, shared by the AI's and someone's: shown
  // in whichever of the two is open.
  const colourSetting = label({}, t("start.colour.label"), colour);
  const settings = h("div", { class: "home-settings" },
    colourSetting,
    staticSite ? null : label({}, t("start.clock.label"), clock),
    label({ class: "home-variant" }, t("start.variant.label"), variant),
    staticSite ? null : ratedBox,
    nameSetting);

  // Against the AI: casual and untimed, the game is played by the page
  // itself (localgame.js) and goes on with the network gone; timed or
  // rated, on the server, where no client can influence it.
  const aiSlot = h("div", { class: "home-slot" });
  const aiPanel = [
    h("div", { class: "home-level" }, label({}, t("start.level.label"), level), levelInfo),
    aiSlot,
    h("p", { class: "home-go" }, button("start-ai", t("start.ai.start"), () => playAi(), "home-start")),
    staticSite ? null : h("p", { class: "small home-where", "data-testid": "ai-where" }, t("start.ai.about_here")),
    staticSite ? null : h("p", { class: "small home-where" }, t("start.ai.server_about"), " ",
      button("start-ai-server", t("start.ai.server_button"), () => serverAi(), "home-server")),
  ];

  /** One way to play someone: its title, a line about it and its button. */
  const way = (title, about, action) => h("div", { class: "home-way" },
    h("h3", {}, title), h("p", { class: "small" }, about), action);
  const toLobby = () => {
    if (!lobby) return;
    lobby.element.setAttribute("tabindex", "-1");
    lobby.element.scrollIntoView({ behavior: "smooth", block: "start" });
    lobby.element.focus({ preventScroll: true });
  };
  const peopleSlot = h("div", { class: "home-slot" });
  const peoplePanel = [
    peopleSlot,
    h("div", { class: "home-ways" },
      staticSite ? null : way(t("start.online.title"), t("start.online.about"),
        button("start-online", t("start.online.button"), () => create({
          mode: "online", side: colour.value, ...(rated.checked ? { rated: true } : {}),
        }))),
      way(t("start.hotseat.title"), t("start.hotseat.about"),
        button("start-hotseat", t("start.hotseat.button"), () => (staticSite ? local(null) : create({ mode: "hotseat" })))),
      staticSite ? null : way(t("start.lobby.title"), t("start.lobby.about"),
        h("button", { type: "button", "data-testid": "to-lobby", onclick: toLobby }, t("start.lobby.button")))),
  ];

  /** A way to learn: a big link with a line about it. */
  const learnLink = (href, testid, title, about) => h("li", {},
    h("a", { href, "data-nav": "", class: "home-learn-link", "data-testid": testid },
      h("strong", {}, title), h("span", {}, about)));
  const learnPanel = [h("ul", { class: "home-learn" },
    learnLink("/rules", "home-rules", t("nav.rules"), t("start.learn.rules")),
    learnLink("/learn", "home-lessons", t("rules.more.learn"), t("start.learn.lessons")),
    learnLink("/puzzles", "home-puzzles", t("nav.puzzles"), t("start.learn.puzzles")))];

  // The three ways in: a big button each, its settings opened under it.
  const actions = [
    { id: "ai", title: t("start.ai.button"), about: t("start.action.ai"), body: aiPanel, slot: aiSlot },
    { id: "people", title: t("start.action.people"), about: t(staticSite ? "start.action.people_here" : "start.action.people_about"), body: peoplePanel, slot: peopleSlot },
    { id: "learn", title: t("start.action.learn"), about: t("start.action.learn_about"), body: learnPanel, slot: null },
  ].map((a) => {
    a.button = h("button", {
      type: "button", id: `home-${a.id}`, class: `home-action home-action-${a.id}`, "data-testid": `home-${a.id}`,
      "aria-expanded": "false", "aria-controls": `home-${a.id}-panel`, onclick: () => choose(a.id),
    }, icon(a.id), h("span", { class: "home-action-text" },
      h("span", { class: "home-action-title" }, a.title), h("span", { class: "home-action-about" }, a.about)),
    icon("more", "home-chevron"));
    a.panel = h("div", {
      class: "home-panel", id: `home-${a.id}-panel`, role: "region", "aria-labelledby": `home-${a.id}`,
      "data-testid": `home-${a.id}-panel`, hidden: true,
    }, a.body);
    // (each button in a heading, as an accordion's are: the page's outline names the three ways in)
    a.group = h("div", { class: "home-group", "data-action": a.id }, h("h2", { class: "home-action-heading" }, a.button), a.panel);
    return a;
  });
  const messageHome = h("div", { class: "home-message" }, message);
  aiSlot.append(settings); // in the page (hidden) until a way in is opened

  /** Opens the action `id` (closing the others), or closes it when open. */
  function choose(id) {
    const open = actions.find((a) => a.id === id && a.button.getAttribute("aria-expanded") !== "true");
    for (const a of actions) {
      a.button.setAttribute("aria-expanded", String(a === open));
      a.panel.hidden = a !== open;
      a.group.classList.toggle("open", a === open);
    }
    say("");
    if (open?.slot) open.slot.append(settings);
    // Two at one screen, the only way here without a server, has no colour to choose.
    colourSetting.hidden = staticSite && open?.id === "people";
    (open?.slot ? open.panel : messageHome).append(message);
    // The opened settings in sight (a long panel: its top).
    if (open) open.group.scrollIntoView({ block: "nearest" });
  }

  const picture = h("div", { class: "home-picture", "data-testid": "home-picture" });
  let pictureBoard = null;
  drawPicture(picture, () => closed).then((b) => { pictureBoard = b; }, () => { picture.dataset.ready = "failed"; });

  const hero = h("section", { class: "home-hero", "aria-labelledby": "home-title" },
    h("div", { class: "home-head" },
      h("h1", { id: "home-title", class: "home-title" }, "PÜNCT"),
      h("p", { class: "home-lead" }, t("start.intro"))),
    picture,
    h("div", { class: "home-actions", "data-testid": "home-actions" }, actions.map((a) => a.group), messageHome));

  const tools = h("section", { class: "panel home-tools", "aria-labelledby": "home-tools-title" },
    h("h2", { id: "home-tools-title" }, t("start.tools.title")),
    // The boards that need no game: they run on the page's own rules.
    h("p", { class: "start-tools" },
      h("a", { href: "/analysis", "data-nav": "", "data-testid": "to-analysis" }, t("title.analysis")), " · ",
      h("a", { href: "/editor", "data-nav": "", "data-testid": "to-editor" }, t("title.editor"))),
    staticSite ? null : h("h3", {}, t("start.record.title")),
    staticSite ? null : label({ class: "home-record" }, t("start.record.label"), file),
    recordMessage);

  root.replaceChildren(siteNav("play"), h("div", { class: "start", "data-testid": "start" },
    hero,
    h("div", { class: "start-main" },
      h("div", { class: "start-new" }, lobby ? lobby.element : lists.myGames),
      h("div", { class: "start-lists" }, lobby ? lists.myGames : null, staticSite ? null : lists.watch, tools))));

  return {
    destroy() {
      closed = true;
      stopSession();
      lists.destroy();
      lobby?.destroy();
      pictureBoard?.resize?.disconnect();
    },
  };
}
