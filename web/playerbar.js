// A side's bar on the game screen: who plays it, its reserve (the kinds to
// pick, with how many are left), its running central count (a toggle
// that highlights the counted dots on the board) and the slot for its
// clock (`<span class="clock" data-testid="clock-white">`, filled by
// clock.js, hidden while it has nothing to show).

import { h, sideName, tSide } from "./dom.js";
import { t } from "./i18n.js";
import { pieceIcon, svg, hexPoints } from "./board.js";
import { reserveLeft } from "./central.js";

export const KINDS = ["T", "C", "E", "L", "M", "R"];

/** A kind's name in words (kind.T …): "triangle", "straight, PÜNCT in the centre". */
export function kindName(kind) {
  return t(`kind.${kind}`);
}

/** Who plays `side`, in a word or two ("you", "AI level 2", a name). */
export function roleOf(state, side, seats) {
  const p = state.players ? state.players[side] : null;
  const name = p && p.name ? p.name : "";
  if (state.ai && state.ai.side === side) return t("game.bar.ai", { level: state.ai.level });
  if (state.invite_open === side) return t("game.bar.invited");
  if (seats.includes(side)) {
    if (state.mode === "hotseat") return name || t("game.players.this_screen");
    return name ? t("game.players.name_you", { name }) : t("game.players.you");
  }
  // A person's seat without a name: "Anonymous", as in the players' panel.
  if (state.mode === "online") return name || t("game.players.anonymous");
  return name;
}

export class PlayerBar {
  /** onPick(side, kind): a reserve kind chosen; onCentral(side): the count's toggle */
  constructor(side, geom, { onPick, onCentral }) {
    this.side = side;
    this.geom = geom;
    this.buttons = KINDS.map((kind) => h("button", {
      type: "button", class: "kind", "data-testid": `reserve-${side}-${kind}`, "data-kind": kind,
      title: t("game.bar.kind_title", { kind, name: kindName(kind) }), onclick: () => onPick(side, kind),
    }));
    this.label = h("span", { class: "who", "data-testid": `bar-name-${side}` });
    this.left = h("span", { class: "left", "data-testid": `reserve-left-${side}` });
    this.central = h("button", {
      type: "button", class: "central-count", "data-testid": `central-${side}`, "aria-pressed": "false",
      onclick: () => onCentral(side),
    });
    this.clock = h("span", { class: "clock", "data-testid": `clock-${side}` });
    this.clock.hidden = true;
    this.el = h("div", { class: `player-bar reserve ${side}`, "data-side": side, "data-testid": `player-${side}` },
      h("div", { class: "bar-head" }, h("span", { class: `swatch ${side}`, "aria-hidden": "true" }), this.label,
        this.left, this.central, this.clock),
      h("div", { class: "kinds" }, this.buttons));
    this.iconKey = "";
  }

  /**
   * state: the position shown; role: roleOf(); canPick: the person may add
   * a piece of this side now; legalKinds: Set of kinds with a legal
   * addition; sel: the selected addition {kind, rot} or null; counting:
   * the central count is highlighted; flipped: the board is turned.
   */
  render({ state, role, canPick, legalKinds, sel, counting, flipped }) {
    const side = this.side;
    const total = reserveLeft(state, side);
    this.label.textContent = role ? t("game.bar.label", { side: sideName(side), role }) : sideName(side);
    this.left.textContent = t("game.bar.left", { count: total });
    this.left.title = tSide("game.bar.reserve_title", side, { count: total });
    this.el.classList.toggle("to-move", state.to_move === side);
    this.el.classList.toggle("last-piece", total === 1);
    const count = state.central ? state.central[side] : 0;
    const mark = svg("svg", { class: "hexmark", viewBox: "-11 -11 22 22", "aria-hidden": "true" });
    svg("polygon", { points: hexPoints([0, 0], 10) }, mark);
    this.central.replaceChildren(mark, h("span", { class: "n" }, String(count)));
    this.central.title = tSide("game.bar.central_title", side, { count });
    this.central.setAttribute("aria-label", tSide("game.bar.central_label", side, { count }));
    this.central.setAttribute("aria-pressed", String(!!counting));
    this.central.classList.toggle("active", !!counting);
    const iconKey = `${flipped}:${sel ? `${sel.kind}/${sel.rot}` : ""}`;
    this.buttons.forEach((b, i) => {
      const kind = KINDS[i];
      const n = state.reserves[side][kind] || 0;
      const selected = !!(sel && sel.kind === kind);
      // Icons are redrawn only when the board turns or the selection rotates.
      if (iconKey !== this.iconKey || !b.firstChild) {
        b.replaceChildren(pieceIcon(this.geom, kind, selected ? sel.rot : 0, side, flipped), h("span", { class: "count" }, ""));
      }
      b.lastChild.textContent = String(n);
      b.disabled = !(canPick && legalKinds.has(kind));
      b.classList.toggle("selected", selected);
      b.classList.toggle("empty", n === 0);
      b.setAttribute("aria-label", tSide("game.bar.kind_label", side, { kind, name: kindName(kind), count: n }));
    });
    this.iconKey = iconKey;
  }
}
