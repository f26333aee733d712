// What the tutorial (tutorial.js) and the puzzles (puzzles.js) share: the
// ids this browser has done (localStorage), loads made once, the screen's
// frame (the site header, a status line for a failed load), a list of
// lessons or puzzles with ticks, and the view of one lesson or puzzle: a
// board with a move picker (picker.js) whose every move the server judges,
// the judge's message, a "try again" button, and the layout (head, board,
// panel and list side by side on wide screens, stacked on phones; style.css
// `.learn-*`).

import { h, show } from "./dom.js";
import { t, errorText } from "./i18n.js";
import { siteNav } from "./nav.js";
import { Picker } from "./picker.js";

/**
 * Ids (lessons done, puzzles solved) kept in localStorage under `key` as
 * `{[field]: [ids]}`, and in this page's memory where storage is disabled.
 */
export function storedIds(key, field) {
  return {
    session: new Set(),
    all() {
      let stored = [];
      try {
        stored = JSON.parse(localStorage.getItem(key) || "{}")[field] || [];
      } catch {
        /* storage disabled or garbled: this page's memory only */
      }
      return new Set([...stored, ...this.session]);
    },
    add(id) {
      this.session.add(id);
      this.save([...this.all()]);
    },
    clear() {
      this.session.clear();
      this.save([]);
    },
    save(ids) {
      try {
        localStorage.setItem(key, JSON.stringify({ [field]: ids }));
      } catch {
        /* storage disabled: remembered until the page closes */
      }
    },
  };
}

/**
 * `load(key)` made once per key while the page is open (the lists, the
 * lessons and the board never change); a failed load is tried again next time.
 */
export function loadOnce(load) {
  const loads = new Map();
  return (key = "") => {
    if (!loads.has(key)) {
      loads.set(key, load(key).catch((e) => {
        loads.delete(key);
        throw e;
      }));
    }
    return loads.get(key);
  };
}

/**
 * A learning screen's frame: the site header (`nav`: the link marked as
 * here) over `main` (class and data-testid `area`), which starts with a
 * status line that says `failKey`'s text when loading fails. `closed`
 * turns true on destroy(), which also ends the view's picker.
 */
export function learnFrame(root, { nav, area, failKey }) {
  const main = h("div", { class: area, "data-testid": area });
  const status = h("p", { class: "learn-status", role: "status" });
  main.append(status);
  root.replaceChildren(siteNav(nav), main);
  const frame = {
    main,
    closed: false,
    picker: null,
    fail(e) {
      if (frame.closed) return;
      status.textContent = t(failKey, { error: errorText(e) });
      status.classList.add("error");
    },
    destroy() {
      frame.closed = true;
      frame.picker?.destroy();
    },
  };
  return frame;
}

/**
 * One item of a list of lessons or puzzles: a link with its number, its
 * name and, when done, a tick (`tick`: its label). `mark`: the data
 * attribute that says whether it is done (data-done, data-solved);
 * `current`: the aria-current value of the one shown (null: another).
 */
export function listItem({ href, testid, n, name, done, mark, current, tick }) {
  return h("li", { class: done ? "done" : null },
    h("a", {
      href, "data-nav": "", "data-testid": testid, [`data-${mark}`]: String(done), "aria-current": current,
    },
    h("span", { class: "learn-n" }, String(n)),
    h("span", { class: "learn-name" }, name),
    done ? h("span", { class: "tick", title: tick, "aria-label": tick }, "✓") : null));
}

/**
 * The view of one lesson or puzzle in `frame`: the picker (`picker`),
 * the judge's message (`say`), the "try again" button (`retry`, shown
 * after a try) and the layout (`place`).
 *
 * prefix: "lesson" | "puzzle", for the data-testids `${prefix}-feedback`,
 * `-message` and `-retry`; tryAgain: the retry button's text; judge(move):
 * sends a move to the server (a piece of the learner's that cannot move
 * sends a turn in place, so the judge says why); fresh(): the position to
 * try from, drawn again by the retry button.
 */
export class LearnView {
  constructor(frame, geom, { prefix, tryAgain, judge, fresh }) {
    this.frame = frame;
    this.pending = 0;
    this.feedbackHead = h("strong", { class: "feedback-head" });
    this.feedbackText = h("span", { class: "feedback-text", "data-testid": `${prefix}-message` });
    this.feedback = h("div", {
      class: "learn-feedback", "data-testid": `${prefix}-feedback`, role: "status", "aria-live": "polite",
    }, this.feedbackHead, " ", this.feedbackText);
    show(this.feedback, false);
    this.retry = h("button", {
      type: "button", "data-testid": `${prefix}-retry`,
      onclick: () => {
        this.say("", "", "");
        show(this.retry, false);
        fresh();
      },
    }, tryAgain);
    show(this.retry, false);
    this.picker = new Picker(geom, {
      onMove: (move) => judge(move),
      onBlocked: (piece) => {
        const n = geom.rotations(piece.kind);
        judge(`${piece.punct}-${piece.punct}/${(piece.rotation + 1) % n}`);
      },
    });
    frame.picker = this.picker;
  }

  /** The judge's message: `kind` (data-result: right, wrong, illegal, …), a head and the text; all empty hides it. */
  say(kind, head, text) {
    this.feedback.dataset.result = kind;
    this.feedbackHead.textContent = head;
    this.feedbackText.textContent = text;
    show(this.feedback, !!(head || text));
    // On a phone the message may be below the fold.
    if (head || text) this.feedback.scrollIntoView?.({ block: "nearest" });
  }

  /**
   * A new try: the answers of those before it will be dropped. Returns a
   * function that says whether this try is still the latest (and the screen open).
   */
  newTry() {
    const n = ++this.pending;
    return () => !this.frame.closed && n === this.pending;
  }

  /**
   * Sends try `latest` (from newTry) with `post()`: the picker waits and
   * `checking` shows meanwhile. The answer; null when the try is no longer
   * the latest, or when sending failed (then the picker takes moves again
   * and `failed(e)` says why).
   */
  async send(latest, post, checking, failed) {
    this.picker.setInteractive(false);
    this.say("checking", "", checking);
    let answer;
    try {
      answer = await post();
    } catch (e) {
      if (!latest()) return null;
      this.picker.setInteractive(true);
      failed(e);
      return null;
    }
    return latest() ? answer : null;
  }

  /**
   * Shows the view in the frame: `attrs` (the view's own data-*), `head`,
   * the board, the panel (the reserve, the controls, the message, `panel`'s
   * parts, a typed move) and the aside (`asideLabel`, `aside`'s parts).
   */
  place({ attrs, head, panel, asideLabel, aside }) {
    const p = this.picker;
    const main = this.frame.main;
    main.replaceChildren(h("div", { class: "learn-view", ...attrs },
      h("section", { class: "learn-head" }, head),
      h("section", { class: "learn-board", "data-testid": "board-area" }, p.board.el),
      h("section", { class: "learn-panel" }, p.reserveEl, p.controlsEl, this.feedback, panel, p.typedEl),
      h("nav", { class: "learn-aside", "aria-label": asideLabel }, aside)));
    main.style.setProperty("--board-aspect", p.board.aspect.toFixed(4));
  }
}
