// The lobby's parts on the start screen (drawn here, driven by lobby.js):
// quick pairing by time control, the open seeks (one line each, updated
// one at a time so focus stays where it is), the challenges offered to
// the player and made by them, and the form for a seek of one's own (or,
// signed in, a challenge to a named player).

import { h, show, tSide, other } from "./dom.js";
import { clockText } from "./lists.js";
import { t } from "./i18n.js";

/** The time controls of quick pairing (values of the start screen's clock picker). */
export const QUICK = ["rt-3-2", "rt-5-3", "rt-10-5", "rt-30-20", "cor-1", "cor-3"];

const variantName = (v) => (v === "basic" ? t("lobby.variant.basic") : t("lobby.variant.standard"));

/** The colour the viewer would play in `seek` (the seeker's own for one's own seek); null: drawn. */
function viewerSide(seek, own) {
  if (seek.side !== "white" && seek.side !== "black") return null;
  return own ? seek.side : other(seek.side);
}

/** A seek's line: who, rating, time control, variant, rated or casual, colour, and its button. */
export function seekLine(seek, { own, ours, onAccept, onCancel }) {
  const name = seek.name || t("lobby.seek.anonymous");
  const side = viewerSide(seek, own || ours);
  const meta = [clockText(seek.clock), variantName(seek.variant),
    seek.rated ? t("lobby.seek.rated") : t("lobby.seek.casual")];
  let action;
  if (own) {
    action = h("button", {
      type: "button", class: "small-button", "data-testid": "cancel-seek",
      "aria-label": t("lobby.seek.cancel_label", { clock: meta[0] }), onclick: () => onCancel(seek.id, action),
    }, t("lobby.seek.cancel"));
  } else if (!ours) {
    action = h("button", {
      type: "button", "data-testid": "accept-seek",
      "aria-label": t("lobby.seek.accept_label", { name, clock: meta[0] }), onclick: () => onAccept(seek.id, action),
    }, t("lobby.seek.accept"));
  }
  return h("li", { class: `seek-line${own || ours ? " own" : ""}`, "data-seek": seek.id, "data-own": own ? "" : null },
    h("span", { class: "seek-who" },
      h("span", { class: "seek-name" }, name),
      seek.bot && h("span", { class: "bot-mark", title: t("lobby.seek.bot_about") }, t("lobby.seek.bot")),
      seek.rating != null && h("span", { class: "seek-rating" }, String(seek.rating)),
      (own || ours) && h("span", { class: "seek-yours" }, t("lobby.seek.yours"))),
    h("span", { class: "seek-meta" },
      meta.join(" · "), " · ",
      h("span", { class: "seek-side" },
        side && h("span", { class: `swatch ${side}`, "aria-hidden": "true" }),
        side ? tSide("lobby.seek.you_play", side) : t("lobby.seek.random"))),
    action && h("span", { class: "seek-action" }, action));
}

/**
 * A challenge's line: from whom (incoming: accept, decline) or to whom
 * (outgoing: withdraw), with its time control, variant, rated or casual
 * and colour.
 */
export function challengeLine(seek, { incoming, onAccept, onDecline, onCancel }) {
  const who = incoming ? seek.name : seek.to;
  const side = viewerSide(seek, !incoming);
  const meta = [clockText(seek.clock), variantName(seek.variant),
    seek.rated ? t("lobby.seek.rated") : t("lobby.seek.casual")];
  const button = (testid, text, label, fn, cls) => {
    const b = h("button", { type: "button", class: cls, "data-testid": testid, "aria-label": label,
      onclick: () => fn(seek.id, b) }, text);
    return b;
  };
  const actions = incoming
    ? [button("accept-challenge", t("lobby.challenge.accept"),
      t("lobby.challenge.accept_label", { name: who, clock: meta[0] }), onAccept, ""),
    button("decline-challenge", t("lobby.challenge.decline"),
      t("lobby.challenge.decline_label", { name: who }), onDecline, "small-button")]
    : [button("cancel-challenge", t("lobby.seek.cancel"),
      t("lobby.challenge.cancel_label", { name: who }), onCancel, "small-button")];
  return h("li", { class: "seek-line challenge-line", "data-seek": seek.id,
    "data-incoming": incoming ? "" : null },
  h("span", { class: "seek-who" },
    h("span", { class: "seek-name" }, incoming
      ? t("lobby.challenge.from", { name: who })
      : t("lobby.challenge.to", { name: who })),
    incoming && seek.rating != null && h("span", { class: "seek-rating" }, String(seek.rating))),
  h("span", { class: "seek-meta" },
    meta.join(" · "), " · ",
    h("span", { class: "seek-side" },
      side && h("span", { class: `swatch ${side}`, "aria-hidden": "true" }),
      side ? tSide("lobby.seek.you_play", side) : t("lobby.seek.random"))),
  h("span", { class: "seek-action" }, actions));
}

/**
 * The lobby's panel. `clocks`: the start screen's time controls (value →
 * clock), `clockGroups()`: its picker's groups; `on`: {quick(value),
 * cancelPool(), accept(id, button), cancel(id, button), decline(id,
 * button), create(settings)}.
 */
export function lobbyView({ clocks, clockGroups, on }) {
  const status = h("p", { class: "small lobby-status", "data-testid": "lobby-status", role: "status" },
    t("lobby.status.connecting"));
  const message = h("div", { class: "message", "data-testid": "lobby-message", role: "alert" });

  // Quick pairing.
  const note = h("p", { class: "small", "data-testid": "lobby-rated-note" });
  const quick = new Map(); // value → its button
  const cancelPool = h("button", {
    type: "button", class: "small-button", "data-testid": "pool-cancel", hidden: true, onclick: () => on.cancelPool(),
  }, t("lobby.quick.cancel"));
  const quickList = h("div", { class: "quick-pairs" }, QUICK.map((value) => {
    const b = h("button", {
      type: "button", class: "quick-pair", "data-testid": `quick-${value}`, "data-clock": value,
      onclick: () => on.quick(value),
    }, clockText(clocks.get(value)));
    quick.set(value, b);
    return b;
  }));

  // The open seeks.
  const count = h("span", { class: "small seek-count", "data-testid": "seek-count", "aria-live": "polite" });
  const list = h("ul", { class: "seek-list", "data-testid": "lobby-seeks", "aria-labelledby": "lobby-seeks-title" });
  const empty = h("li", { class: "small empty", "data-testid": "lobby-empty" }, t("lobby.seeks.none"));
  const lines = new Map(); // seek id → its li

  // Challenges, offered to the player or made by them.
  const challengeList = h("ul", { class: "seek-list", "data-testid": "lobby-challenges",
    "aria-labelledby": "lobby-challenges-title" });
  const challengeBox = h("div", { class: "lobby-challenges", hidden: true },
    h("h3", { id: "lobby-challenges-title" }, t("lobby.challenge.title")), challengeList);
  const challenges = new Map(); // id → its li

  // A seek of one's own.
  const option = (value, label) => h("option", { value }, label);
  const clockOption = (v) => option(v, v === "none" ? t("start.clock.none") : clockText(clocks.get(v)));
  const clock = h("select", { "data-testid": "seek-clock" },
    clockGroups().map(([label, values]) => (label
      ? h("optgroup", { label }, values.map(clockOption))
      : values.map(clockOption))));
  clock.value = "rt-10-5";
  const variant = h("select", { "data-testid": "seek-variant" },
    option("standard", t("lobby.create.standard")), option("basic", t("lobby.create.basic")));
  const colour = h("select", { "data-testid": "seek-colour" },
    option("random", t("start.colour.random")), option("white", t("start.colour.white")),
    option("black", t("start.colour.black")));
  const rated = h("input", { type: "checkbox", "data-testid": "seek-rated", "aria-describedby": "seek-rated-help" });
  const ratedHelp = h("span", { class: "small", id: "seek-rated-help" }, t("lobby.create.rated_help"));
  const ratedBox = h("div", { class: "seek-rated", hidden: true },
    h("label", { class: "check" }, rated, ` ${t("lobby.create.rated")}`), ratedHelp);
  const createButton = h("button", { type: "submit", "data-testid": "seek-create" }, t("lobby.create.button"));
  const opponent = h("input", { type: "text", "data-testid": "seek-opponent", maxlength: "20", autocomplete: "off",
    spellcheck: "false", placeholder: t("lobby.challenge.to_placeholder") });
  const opponentBox = h("label", { class: "seek-opponent", hidden: true },
    `${t("lobby.challenge.to_label")} `, opponent);
  opponent.addEventListener("input", () => {
    createButton.textContent = opponent.value.trim() ? t("lobby.challenge.button") : t("lobby.create.button");
  });
  let signedIn = false;
  const updateRated = () => {
    rated.disabled = !signedIn || clock.value === "none";
    if (rated.disabled) rated.checked = false;
  };
  clock.addEventListener("change", updateRated);
  const label = (text, field) => h("label", {}, `${text} `, field);
  const form = h("form", { class: "seek-form", "data-testid": "seek-form", "aria-labelledby": "lobby-create-title" },
    label(t("start.clock.label"), clock), label(t("start.variant.label"), variant),
    label(t("lobby.create.colour"), colour), ratedBox, opponentBox, h("p", {}, createButton));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const to = signedIn ? opponent.value.trim() : "";
    on.create({ clock: clock.value, variant: variant.value, side: colour.value, rated: rated.checked,
      ...(to ? { to } : {}) });
  });

  const element = h("section", { class: "panel lobby", "data-testid": "lobby", "aria-labelledby": "lobby-title" },
    h("h2", { id: "lobby-title" }, t("lobby.title")),
    h("p", { class: "small" }, t("lobby.intro")),
    status, message, challengeBox,
    h("div", { class: "lobby-parts" },
      h("div", { class: "lobby-quick" },
        h("h3", {}, t("lobby.quick.title")), note, quickList, h("p", {}, cancelPool)),
      h("div", { class: "lobby-open" },
        h("h3", { id: "lobby-seeks-title" }, t("lobby.seeks.title"), " ", count), list),
      h("div", { class: "lobby-create" },
        h("h3", { id: "lobby-create-title" }, t("lobby.create.title")), form)));

  const countNow = () => {
    count.textContent = t("lobby.seeks.count", { count: lines.size });
    if (!lines.size) list.replaceChildren(empty);
    else empty.remove();
  };

  return {
    element,
    /** The whole list again (a connection's first message). */
    setSeeks(seeks, line) {
      lines.clear();
      list.replaceChildren(...seeks.map((s) => {
        const li = line(s);
        lines.set(s.id, li);
        return li;
      }));
      countNow();
    },
    /** Adds a seek's line, or redraws it when it is there. */
    putSeek(seek, line) {
      const li = line(seek);
      const old = lines.get(seek.id);
      const hadFocus = old && old.contains(document.activeElement);
      if (old) old.replaceWith(li);
      else list.append(li);
      lines.set(seek.id, li);
      if (hadFocus) li.querySelector("button")?.focus();
      countNow();
    },
    removeSeek(id) {
      const li = lines.get(id);
      if (!li) return;
      // Focus on its button would be lost: the list's next button takes it.
      if (li.contains(document.activeElement)) {
        const next = li.nextElementSibling || li.previousElementSibling;
        (next?.querySelector("button") || quick.get(QUICK[0])).focus();
      }
      li.remove();
      lines.delete(id);
      countNow();
    },
    /** Adds or redraws a challenge's line. */
    putChallenge(id, li) {
      const old = challenges.get(id);
      if (old) old.replaceWith(li);
      else challengeList.append(li);
      challenges.set(id, li);
      show(challengeBox, true);
    },
    removeChallenge(id) {
      const li = challenges.get(id);
      if (!li) return;
      if (li.contains(document.activeElement)) (quick.get(QUICK[0])).focus();
      li.remove();
      challenges.delete(id);
      show(challengeBox, challenges.size > 0);
    },
    clearChallenges() {
      challenges.clear();
      challengeList.replaceChildren();
      show(challengeBox, false);
    },
    /** The form set to challenge `name` (from a profile's "Challenge"). */
    challenge(name) {
      opponent.value = name;
      createButton.textContent = t("lobby.challenge.button");
      form.scrollIntoView({ block: "nearest" });
      createButton.focus();
    },
    status(text) {
      status.textContent = text;
    },
    say(text) {
      message.textContent = text || "";
    },
    /** Signed in (`name`) or not: rated quick pairing and the rated box. */
    signedIn(name) {
      signedIn = !!name;
      note.textContent = name ? t("lobby.quick.rated", { name }) : t("lobby.quick.casual");
      show(ratedBox, signedIn);
      show(opponentBox, signedIn);
      updateRated();
    },
    /**
     * Quick pairing's buttons: `searching` {value, since} or null; `busy`:
     * a request on its way; `connected`: whether anything can be sent.
     */
    quickState({ searching, busy, connected }) {
      for (const [value, b] of quick) {
        const mine = searching && searching.value === value;
        b.textContent = mine
          ? t("lobby.quick.searching", { seconds: Math.floor((Date.now() - searching.since) / 1000) })
          : clockText(clocks.get(value));
        b.classList.toggle("searching", !!mine);
        b.setAttribute("aria-pressed", mine ? "true" : "false");
        b.disabled = !connected || busy || (!!searching && !mine);
      }
      show(cancelPool, !!searching);
      cancelPool.disabled = !connected;
    },
    /** Whether seeks can be made and accepted now. */
    enable(connected) {
      createButton.disabled = !connected;
      for (const b of list.querySelectorAll("button")) b.disabled = !connected;
      for (const b of challengeList.querySelectorAll("button")) b.disabled = !connected;
    },
  };
}
