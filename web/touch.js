// Playing by touch: a finger covers the cell it taps, so on a touch
// screen the first tap on a legal target only shows the piece there (the
// ghost) with a confirm button; a second tap on the same cell or the
// button plays it. With a mouse a click plays at once. Whether the
// person uses touch is read from the pointer: `(pointer: coarse)` at
// first, then each pointerdown's pointerType.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export class TapConfirm {
  /** onConfirm(): play the waiting move; onCancel(): drop it */
  constructor({ onConfirm, onCancel }) {
    this.touch = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
    this.cell = null; // the cell tapped once, waiting for its confirmation
    this.text = h("span", { class: "confirm-text", "data-testid": "confirm-text" });
    this.confirmBtn = h("button", { type: "button", class: "primary", "data-testid": "confirm-move", onclick: () => onConfirm() }, t("game.confirm.play"));
    this.cancelBtn = h("button", { type: "button", "data-testid": "cancel-move", onclick: () => onCancel() }, t("game.confirm.cancel"));
    this.el = h("div", { class: "confirm-bar", "data-testid": "confirm-bar" }, this.text, this.confirmBtn, this.cancelBtn);
    this.el.hidden = true;
  }

  /** Every pointerdown on the board: a finger or a mouse. */
  pointer(type) {
    if (type === "touch") this.touch = true;
    else if (type === "mouse") this.touch = false;
  }

  /**
   * A tap or click on a legal target `cell`: whether to play now. By
   * touch the first tap on a cell only marks it (and answers false).
   */
  ready(cell) {
    if (!this.touch || this.cell === cell) {
      this.cell = null;
      return true;
    }
    this.cell = cell;
    return false;
  }

  clear() {
    this.cell = null;
  }

  /** Shows the bar for the waiting move (`move`: its notation; `legal`: at the rotation now). */
  render(move, legal) {
    this.el.hidden = !this.cell || !move;
    if (this.el.hidden) return;
    this.text.textContent = legal ? t("game.confirm.ask", { move }) : t("game.confirm.illegal", { move });
    this.confirmBtn.disabled = !legal;
  }
}
