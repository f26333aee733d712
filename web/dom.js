// A tiny helper to build HTML elements without innerHTML, so text from the
// server (messages, moves) is always inserted as text; and the helpers for
// texts that name a side, an edge of the board or hold elements.

import { t } from "./i18n.js";

/**
 * h("button", {class: "x", "data-testid": "pass", onclick: f}, "Pass")
 * Attributes that are null, undefined or false are left out; `true` sets an
 * empty attribute; keys starting with "on" add event listeners.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  el.append(...children.flat(Infinity).filter((c) => c != null && c !== false));
  return el;
}

/** Shows or hides an element (the `hidden` attribute, styled in style.css). */
export function show(el, visible) {
  el.hidden = !visible;
}

/** "white" → "White" (for names that are not words of a language). */
export function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : "";
}

/** A side's name on its own: "White", "Black" (side.white, side.black). */
export function sideName(side) {
  return t(`side.${side}`);
}

/**
 * A sentence that names a side, in its form for `side`: `key.white` or
 * `key.black` (languages inflect the name, so each side has its own
 * sentence rather than a name put into one).
 */
export function tSide(key, side, params = {}) {
  return t(`${key}.${side === "black" ? "black" : "white"}`, params);
}

/** The server's names of the board's sides (GET /api/board `pairs`, a result's `sides`) → keys edge.*. */
const EDGE_KEYS = {
  "column A": "edge.column_a",
  "column Q": "edge.column_q",
  "row 1": "edge.row_1",
  "row 17": "edge.row_17",
  "side J2–P8": "edge.side_j2_p8",
  "side B10–H16": "edge.side_b10_h16",
};

/** A side of the board in the language shown ("column A"). */
export function edgeName(name) {
  return EDGE_KEYS[name] ? t(EDGE_KEYS[name]) : name;
}

/**
 * A text with elements in it: t(key, params) whose placeholders named in
 * `nodes` become those elements (or strings), as a list for h()'s children.
 * tNodes("game.analysis.best", {move: h("strong", {}, "E@C5/2")})
 */
export function tNodes(key, nodes, params = {}) {
  const mark = "\u0001";
  const marked = { ...params };
  for (const name of Object.keys(nodes)) marked[name] = `${mark}${name}${mark}`;
  return t(key, marked).split(mark)
    .map((part, i) => (i % 2 ? nodes[part] : part))
    .filter((part) => part !== "" && part != null);
}

export const other = (side) => (side === "white" ? "black" : "white");

/**
 * The seats this browser holds: game id → {token, invite} (`invite`: the
 * code for the opponent's seat, kept by the creator until it is claimed).
 * Tokens live here and never in the address bar (docs/API.md, "Seats and
 * tokens"). Older entries are plain token strings. When the browser
 * refuses storage, this page still remembers until it is closed.
 */
export const gameMemory = {
  session: new Map(),
  all() {
    let stored = {};
    try {
      stored = JSON.parse(localStorage.getItem("punct:games") || "{}") || {};
    } catch {
      /* storage disabled or garbled: the session's memory only */
    }
    const games = {};
    for (const [id, v] of Object.entries(stored)) {
      games[id] = typeof v === "string" ? { token: v } : v;
    }
    for (const [id, v] of this.session) games[id] = v;
    return games;
  },
  get(id) {
    return this.all()[id] || null;
  },
  save(id, entry) {
    const games = this.all();
    delete games[id];
    if (entry) {
      games[id] = entry;
      this.session.set(id, entry);
    } else {
      this.session.delete(id);
    }
    try {
      // Keep the newest 200 (objects keep insertion order).
      for (const old of Object.keys(games).slice(0, -200)) delete games[old];
      localStorage.setItem("punct:games", JSON.stringify(games));
    } catch {
      /* storage may be disabled; then only this page remembers */
    }
  },
  /** Our seat's token for game `id` (replacing an older one, keeping the invite). */
  add(id, token) {
    const old = this.get(id) || {};
    this.save(id, { ...old, token });
  },
  setInvite(id, invite) {
    const old = this.get(id);
    if (old) this.save(id, { ...old, invite: invite || undefined });
  },
  forget(id) {
    this.save(id, null);
  },
};

/** The longest name the server takes, in characters of its NFC form. */
const NAME_MAX = 40;
/** Variation selectors: fine after a visible character, alone they show nothing. */
const SELECTOR = /^[\uFE00-\uFE0F\u180B-\u180D\u180F\u{E0100}-\u{E01EF}]$/u;
/** Invisible and formatting characters: Cf, the Hangul fillers, U+034F, U+17B4, U+17B5. */
const HIDDEN = /^[\p{Cf}\u115F\u1160\u3164\uFFA0\u034F\u17B4\u17B5]$/u;

/**
 * Why the server would refuse the (trimmed) `name`, or "": the rules of
 * docs/API.md ("name"), checked here to say so before anything is sent.
 */
export function nameProblem(name) {
  const nfc = name.normalize("NFC");
  if ([...nfc].length > NAME_MAX) return t("start.name.too_long", { max: NAME_MAX });
  let afterVisible = false;
  for (const c of nfc) {
    if (/^[\p{Cc}"\\]$/u.test(c)) return t("start.name.bad_char");
    const hidden = HIDDEN.test(c) || (c !== " " && /^\p{White_Space}$/u.test(c)) ||
      (SELECTOR.test(c) && !afterVisible);
    // Named by its code point: the character itself would show nothing, or turn the text.
    if (hidden) return t("start.name.hidden_char", { char: `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}` });
    afterVisible = c !== " " && !SELECTOR.test(c);
  }
  return "";
}

/** The display name this browser's player chose (sent when creating or joining a game). */
export const playerName = {
  get() {
    try {
      return localStorage.getItem("punct:name") || "";
    } catch {
      return "";
    }
  },
  set(name) {
    try {
      if (name) localStorage.setItem("punct:name", name);
      else localStorage.removeItem("punct:name");
    } catch {
      /* storage disabled: the name is asked again next time */
    }
  },
};

// How the person last acted on the page, so that a prompt says "tap",
// "click" or "press" as they do: each pointer's type, and a key that
// activates a control.
let lastInput = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches ? "tap" : "click";
if (typeof document !== "undefined") {
  document.addEventListener("pointerdown", (e) => { lastInput = e.pointerType === "mouse" ? "click" : "tap"; }, true);
  document.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") lastInput = "key"; }, true);
}

/** "click", "tap" or "key": how the person last acted (for the words of a prompt). */
export const inputWay = () => lastInput;
