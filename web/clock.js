// The clocks of a timed game, as the server keeps them: each side's time
// left when its turn began, and since when the side to move's clock runs
// (server time). The page only counts down for display; the server alone
// decides a flag fall. Server time is estimated from the live socket's
// `time` messages.

import { h, tSide } from "./dom.js";
import { t } from "./i18n.js";

const LOW_MS = 20_000; // real time: warn below 20 s
const LOW_DAY_MS = 6 * 3600_000; // correspondence: below 6 hours

/** "4:59", "0:07.3", "2 d 5 h", "5 h 12 min" */
export function formatClock(ms, type) {
  ms = Math.max(0, ms);
  if (type === "correspondence" || ms >= 3600_000 * 10) {
    const d = Math.floor(ms / 86400_000);
    const hours = Math.floor((ms % 86400_000) / 3600_000);
    const min = Math.floor((ms % 3600_000) / 60_000);
    if (d > 0) return t("game.clock.days_hours", { days: d, hours });
    if (hours > 0) return t("game.clock.hours_minutes", { hours, minutes: min });
  }
  const total = ms / 1000;
  const m = Math.floor(total / 60);
  const s = total - m * 60;
  if (ms < 10_000) return `${m}:${s.toFixed(1).padStart(4, "0")}`;
  return `${m}:${String(Math.floor(s)).padStart(2, "0")}`;
}

/** The time control in words: "3+2", "3 days per move". */
export function controlText(clock) {
  if (!clock) return "";
  if (clock.type === "correspondence") return t("game.clock.per_move", { count: clock.days });
  const min = clock.initial / 60;
  return `${Number.isInteger(min) ? min : min.toFixed(1)}+${clock.increment}`;
}

export class Clocks {
  /** els: {white, black} elements to fill; onLow(side): a side's time turned low */
  constructor(els, { onLow } = {}) {
    this.els = els;
    this.onLow = onLow || (() => {});
    this.offset = 0; // server time − this browser's time
    this.clock = null;
    this.warned = new Set();
    this.timer = null;
  }

  /** A `time` message of the live socket: the server's clock now. */
  serverTime(now) {
    this.offset = now - Date.now();
  }

  /** Time left for `side` now, by the state's clock. */
  left(side) {
    const c = this.clock;
    const stored = c[`${side}_ms`] ?? 0;
    if (c.running !== side || c.since == null) return stored;
    return stored - (Date.now() + this.offset - c.since);
  }

  update(state) {
    const c = state.clock || null;
    this.clock = c && state.status === "ongoing" ? c : c && { ...c, running: null };
    if (!this.els) return;
    for (const side of ["white", "black"]) {
      const el = this.els[side];
      if (!el) continue;
      el.hidden = !c;
      el.dataset.control = c ? c.type : "";
    }
    clearInterval(this.timer);
    this.timer = null;
    if (!c) return;
    this.render();
    if (this.clock.running) this.timer = setInterval(() => this.render(), 200);
  }

  render() {
    const c = this.clock;
    if (!c) return;
    for (const side of ["white", "black"]) {
      const el = this.els[side];
      if (!el) continue;
      const ms = this.left(side);
      const running = c.running === side;
      const low = ms < (c.type === "correspondence" ? LOW_DAY_MS : LOW_MS);
      el.replaceChildren(h("span", { class: "clock-time" }, formatClock(ms, c.type)));
      el.classList.toggle("running", running);
      el.classList.toggle("low", low && running);
      el.dataset.ms = String(Math.max(0, Math.round(ms)));
      el.setAttribute("aria-label", tSide(running ? "game.clock.label_running" : "game.clock.label", side, { time: formatClock(ms, c.type) }));
      if (running && low && !this.warned.has(side)) {
        this.warned.add(side);
        this.onLow(side);
      }
    }
  }

  destroy() {
    clearInterval(this.timer);
  }
}
