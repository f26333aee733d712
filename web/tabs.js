// Tabs: one panel shown at a time under a row of tab buttons (the WAI-ARIA
// tabs pattern: arrow keys, Home and End move between the tabs, the
// selected one alone in the Tab order). The game screen's side column uses
// them so that the moves, the analysis and the players each get the whole
// column instead of a page to scroll through.

import { h } from "./dom.js";

let made = 0; // tab sets made on this page, for unique ids

export class Tabs {
  /**
   * items: [{id, label, content: [elements]}]; `name` labels the tab list
   * and prefixes the testids (`${name}-tab-${id}`, `${name}-panel-${id}`).
   */
  constructor(name, items, { label = "" } = {}) {
    const n = ++made;
    this.tabs = new Map();
    this.bar = h("div", { class: "tab-bar", role: "tablist", "aria-label": label });
    this.bar.addEventListener("keydown", (e) => this.onKey(e));
    const panels = items.map(({ id, label: text, content }) => {
      const tabId = `tabs${n}-${id}`;
      const button = h("button", {
        type: "button", role: "tab", id: `${tabId}-tab`, class: "tab", "aria-controls": `${tabId}-panel`,
        "data-testid": `${name}-tab-${id}`, "data-tab": id, onclick: () => this.select(id),
      }, h("span", { class: "tab-label" }, text));
      const panel = h("div", {
        role: "tabpanel", id: `${tabId}-panel`, class: `tab-panel tab-${id}`, "aria-labelledby": `${tabId}-tab`,
        "data-testid": `${name}-panel-${id}`,
      }, content);
      this.bar.append(button);
      this.tabs.set(id, { button, panel });
      return panel;
    });
    this.el = h("div", { class: "tabs", "data-testid": name }, this.bar, panels);
    this.selected = null;
    this.select(items[0].id);
  }

  /** Shows tab `id`'s panel (`focus`: and moves the focus to its tab). */
  select(id, { focus = false } = {}) {
    const chosen = this.tabs.get(id);
    if (!chosen) return;
    this.selected = id;
    this.el.dataset.selected = id;
    for (const [key, tab] of this.tabs) {
      const on = key === id;
      tab.button.setAttribute("aria-selected", String(on));
      tab.button.tabIndex = on ? 0 : -1;
      tab.panel.hidden = !on;
    }
    chosen.button.classList.remove("news");
    if (focus) chosen.button.focus();
  }

  /** Marks tab `id` as having something new, until it is shown. */
  mark(id) {
    const tab = this.tabs.get(id);
    if (tab && this.selected !== id) tab.button.classList.add("news");
  }

  onKey(e) {
    const ids = [...this.tabs.keys()];
    const at = ids.indexOf(this.selected);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: ids.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.select(ids[(to + ids.length) % ids.length], { focus: true });
  }
}
