// The page's messages (an error, a note) in a box of its own over the
// page, so that a message never pushes the layout down; a click on it or
// on its × dismisses it. The text element keeps data-testid="message".

import { h } from "./dom.js";
import { t } from "./i18n.js";

export class Toast {
  constructor() {
    this.text = h("div", { class: "message", "data-testid": "message", role: "alert", onclick: () => this.say("") });
    this.close = h("button", { type: "button", class: "toast-close", "aria-label": t("game.toast.dismiss"), onclick: () => this.say("") }, "×");
    this.el = h("div", { class: "toast" }, this.text, this.close);
    this.el.hidden = true;
  }

  say(text) {
    this.text.textContent = text || "";
    this.el.hidden = !text;
  }
}
