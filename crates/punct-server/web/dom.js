// A tiny helper to build HTML elements without innerHTML, so text from the
// server (messages, moves) is always inserted as text.

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

/** "white" → "White" */
export function cap(s) {
  return s ? s[0].toUpperCase() + s.slice(1) : "";
}

export const other = (side) => (side === "white" ? "black" : "white");

/** Games created in this browser: id → token of our seat (for the recent list). */
export const gameMemory = {
  all() {
    try {
      return JSON.parse(localStorage.getItem("punct:games") || "{}");
    } catch {
      return {};
    }
  },
  add(id, token) {
    try {
      const games = this.all();
      delete games[id];
      games[id] = token;
      // Keep the newest 200 (objects keep insertion order).
      for (const old of Object.keys(games).slice(0, -200)) delete games[old];
      localStorage.setItem("punct:games", JSON.stringify(games));
    } catch {
      /* storage may be disabled; then we just do not remember */
    }
  },
};
