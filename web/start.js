// The start screen: the player's name (signed in: the account's), new
// games (against the AI, at one screen, online, rated when signed in and
// timed) with a time control, opening a record file, and the lists of
// this browser's games and of games to watch (lists.js).

import { api, staticSite } from "./api.js";
import { h, gameMemory, nameProblem, playerName } from "./dom.js";
import { lobbyPanel } from "./lobby.js";
import { gameLists, clockText } from "./lists.js";
import { t, errorText } from "./i18n.js";
import { siteNav } from "./nav.js";
import { session } from "./session.js";
import { createLocalGame } from "./localgame.js";
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
      say(errorText(e));
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
  const newGame = h("section", { class: "panel new-game" },
    h("h2", {}, t("start.new_game")),
    h("div", { class: "settings" },
      nameSetting,
      label({}, t("start.variant.label"), variant),
      staticSite ? null : label({}, t("start.clock.label"), clock),
      label({}, t("start.colour.label"), colour),
      staticSite ? null : ratedBox),
    h("div", { class: "cards" },
      h("div", { class: "card" },
        h("h3", {}, t("start.ai.title")),
        label({}, t("start.level.label"), level), levelInfo,
        // Casual and untimed, the game is played by the page itself
        // (localgame.js) and goes on with the network gone; timed or rated,
        // on the server, where no client can influence it.
        h("p", {}, button("start-ai", t("start.ai.button"), () => playAi())),
        staticSite ? null : h("p", { class: "small", "data-testid": "ai-where" }, t("start.ai.about_here")),
        staticSite ? null : h("p", { class: "small" }, t("start.ai.server_about"), " ",
          button("start-ai-server", t("start.ai.server_button"), () => serverAi()))),
      h("div", { class: "card" },
        h("h3", {}, t("start.hotseat.title")),
        h("p", { class: "small" }, t("start.hotseat.about")),
        button("start-hotseat", t("start.hotseat.button"), () => (staticSite ? local(null) : create({ mode: "hotseat" })))),
      staticSite ? null : h("div", { class: "card" },
        h("h3", {}, t("start.online.title")),
        h("p", { class: "small" }, t("start.online.about")),
        button("start-online", t("start.online.button"), () => create({
          mode: "online", side: colour.value, ...(rated.checked ? { rated: true } : {}),
        })))));
  const openRecord = h("section", { class: "panel open-record" },
    h("h2", {}, t("start.record.title")),
    staticSite ? null : label({}, t("start.record.label"), file),
    // The boards that need no game: they run on the page's own rules.
    h("p", { class: "start-tools" },
      h("a", { href: "/analysis", "data-nav": "", "data-testid": "to-analysis" }, t("title.analysis")), " · ",
      h("a", { href: "/editor", "data-nav": "", "data-testid": "to-editor" }, t("title.editor"))));

  root.replaceChildren(siteNav("play"), h("div", { class: "start", "data-testid": "start" },
    h("header", { class: "start-header" }, h("h1", {}, "PÜNCT"),
      h("p", {}, t("start.intro"))),
    message,
    h("div", { class: "start-main" },
      h("div", { class: "start-new" }, lobby?.element, newGame, openRecord),
      h("div", { class: "start-lists" }, lists.myGames, staticSite ? null : lists.watch))));

  return {
    destroy() {
      closed = true;
      stopSession();
      lists.destroy();
      lobby?.destroy();
    },
  };
}
