// The tutorial (/learn and /learn/{lesson}): short lessons, each a real
// position in which the learner, playing White, makes one move that shows
// one rule or idea. The lessons and the judge are the server's
// (GET /api/learn/lessons, POST /api/learn/lessons/{id}/try): the page
// draws the position with a move picker (picker.js), sends the move, and
// shows the judge's message (tutorial.* texts with the answer's params),
// the position after a legal move and, when the judge names one, the
// opponent's answer that shows what was missed. Progress is kept in this
// browser; at the end a first game against the AI at level 1.

import { h, show, gameMemory } from "./dom.js";
import { t, errorText } from "./i18n.js";
import { siteNav } from "./nav.js";
import { api, ApiError } from "./api.js";
import { Geometry } from "./board.js";
import { Picker } from "./picker.js";

const PROGRESS_KEY = "punct:learn";
// The forms of a move (docs/NOTATION.md), in any letter case; the server checks the rest.
const NOTATION = /^(pass|[TCELMR]@[A-Q]\d{1,2}\/\d|[A-Q]\d{1,2}-[A-Q]\d{1,2}\/\d)$/i;

/** The lessons this browser has done (ids), kept in localStorage. */
export const progress = {
  session: new Set(),
  done() {
    let stored = [];
    try {
      stored = JSON.parse(localStorage.getItem(PROGRESS_KEY) || "{}").done || [];
    } catch {
      /* storage disabled or garbled: this page's memory only */
    }
    return new Set([...stored, ...this.session]);
  },
  add(id) {
    this.session.add(id);
    this.save([...this.done()]);
  },
  clear() {
    this.session.clear();
    this.save([]);
  },
  save(done) {
    try {
      localStorage.setItem(PROGRESS_KEY, JSON.stringify({ done }));
    } catch {
      /* storage disabled: remembered until the page closes */
    }
  },
};

async function learn(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError("network", `cannot reach the server (${e.message})`);
  }
  const data = await res.json().catch(() => null);
  if (!res.ok || !data) {
    if (data && data.error) throw ApiError.from(data.error, res.status);
    throw new ApiError("http", `the server answered ${res.status}`, res.status, { status: res.status });
  }
  return data;
}

// The list and the board never change while the page is open.
let listOnce = null;
const lessonCache = new Map();
function loadList() {
  listOnce ??= Promise.all([learn("GET", "/api/learn/lessons"), api.board()])
    .then(([list, board]) => ({ lessons: list.lessons, geom: new Geometry(board) }))
    .catch((e) => {
      listOnce = null;
      throw e;
    });
  return listOnce;
}
function loadLesson(id) {
  if (!lessonCache.has(id)) {
    lessonCache.set(id, learn("GET", `/api/learn/lessons/${encodeURIComponent(id)}`).catch((e) => {
      lessonCache.delete(id);
      throw e;
    }));
  }
  return lessonCache.get(id);
}

/** A lesson's words: part "title", "goal" or "hint" (tutorial.lesson.<id>.<part>). */
function lessonText(lesson, part) {
  return t(`tutorial.lesson.${lesson.id}.${part}`);
}

/**
 * The judge's message (docs/API.md, the tutorial's lessons): the lesson's
 * tutorial.lesson.<id>.done, tutorial.illegal.<reason> (the rule the move
 * breaks) or tutorial.wrong.<what> (what a legal move misses), with the
 * answer's params.
 */
function judgeText(lesson, answer) {
  const params = answer.params || {};
  const [area, group, ...rest] = String(answer.code).split(".");
  const name = rest.join(".");
  if (area !== "tutorial") return t(answer.code, params);
  if (group === "illegal") return t(`tutorial.illegal.${name}`, params);
  if (group === "wrong") return t(`tutorial.wrong.${name}`, params);
  return t(`tutorial.lesson.${lesson.id}.done`, params);
}

/** Keeps the new game's seat in this browser (as the start screen does). */
function remember(created) {
  const token = created.seats[created.you];
  if (!token) return;
  gameMemory.save(created.id, { ...gameMemory.get(created.id), token, seats: [created.you] });
}

export function tutorialScreen(root, navigate, lessonId) {
  let closed = false;
  let picker = null;
  const main = h("div", { class: "tutorial", "data-testid": "tutorial" });
  const status = h("p", { class: "tutorial-status", role: "status" });
  main.append(status);
  root.replaceChildren(siteNav("learn"), main);

  const fail = (e) => {
    if (closed) return;
    status.textContent = t("tutorial.load_failed", { error: errorText(e) });
    status.classList.add("error");
  };

  /** The first-game box: a game against the AI at level 1, White. */
  const firstGame = (textKey) => {
    const say = h("p", { class: "message", role: "alert" });
    const button = h("button", {
      type: "button", class: "primary", "data-testid": "first-game",
      onclick: async () => {
        button.disabled = true;
        say.textContent = "";
        try {
          const created = await api.createGame({ mode: "ai", level: 1, side: "white", variant: "standard" });
          remember(created);
          if (!closed) navigate(`/game/${created.id}`);
        } catch (e) {
          say.textContent = errorText(e);
          button.disabled = false;
        }
      },
    }, t("tutorial.first_game.button"));
    return h("section", { class: "first-game", "data-testid": "first-game-box" },
      h("h2", {}, t("tutorial.first_game.title")), h("p", {}, t(textKey)), button, say);
  };

  /** The list of lessons with this browser's progress (current: the lesson shown). */
  const lessonList = (lessons, current) => {
    const done = progress.done();
    return h("ol", { class: "lesson-list", "data-testid": "lesson-list" }, lessons.map((l, i) => {
      const isDone = done.has(l.id);
      return h("li", { class: isDone ? "done" : null },
        h("a", {
          href: `/learn/${l.id}`, "data-nav": "", "data-testid": `lesson-link-${l.id}`,
          "data-done": String(isDone), "aria-current": l.id === current ? "step" : null,
        },
        h("span", { class: "lesson-n" }, `${i + 1}`),
        h("span", { class: "lesson-name" }, lessonText(l, "title")),
        isDone ? h("span", { class: "tick", title: t("tutorial.done_mark"), "aria-label": t("tutorial.done_mark") }, "✓") : null));
    }));
  };

  const progressText = (lessons) =>
    t("tutorial.progress", { done: lessons.filter((l) => progress.done().has(l.id)).length, count: lessons.length });

  // ------------------------------------------------------------ the overview

  function overview(lessons, unknown) {
    const done = progress.done();
    const next = lessons.find((l) => !done.has(l.id)) || lessons[0];
    const nextIndex = lessons.indexOf(next);
    const start = h("a", {
      href: `/learn/${next.id}`, "data-nav": "", class: "button primary", "data-testid": "lesson-start",
    }, done.size === 0 ? t("tutorial.start") : t("tutorial.continue", { n: nextIndex + 1, title: lessonText(next, "title") }));
    const reset = h("button", {
      type: "button", class: "small-button", "data-testid": "lesson-reset",
      onclick: () => {
        progress.clear();
        overview(lessons, null);
      },
    }, t("tutorial.reset"));
    reset.hidden = done.size === 0;
    main.replaceChildren(h("div", { class: "tutorial-overview" },
      h("section", { class: "panel" },
        h("h1", {}, t("tutorial.heading")),
        unknown ? h("p", { class: "message", role: "alert" }, t("tutorial.unknown_lesson", { id: unknown })) : null,
        h("p", {}, t("tutorial.intro", { count: lessons.length }), " ", t("tutorial.intro_how")),
        h("p", { class: "small", "data-testid": "lesson-progress" }, progressText(lessons)),
        h("p", { class: "row buttons" }, start, reset),
        lessonList(lessons, null)),
      firstGame(done.size === lessons.length ? "tutorial.first_game.finished" : "tutorial.first_game.text")));
  }

  // ------------------------------------------------------------ one lesson

  function lessonScreen(lessons, geom, lesson) {
    const index = lesson.index;
    const last = index === lessons.length - 1;
    document.title = `PÜNCT · ${lessonText(lesson, "title")}`;

    const feedbackHead = h("strong", { class: "feedback-head" });
    const feedbackText = h("span", { class: "feedback-text", "data-testid": "lesson-message" });
    const feedback = h("div", { class: "lesson-feedback", "data-testid": "lesson-feedback", role: "status", "aria-live": "polite" },
      feedbackHead, " ", feedbackText);
    show(feedback, false);
    const say = (kind, head, text) => {
      feedback.dataset.result = kind;
      feedbackHead.textContent = head;
      feedbackText.textContent = text;
      show(feedback, !!(head || text));
      // On a phone the message may be below the fold.
      if (head || text) feedback.scrollIntoView?.({ block: "nearest" });
    };

    // The position (the lesson's, or the one after a try) with the lesson's marks.
    const draw = (state, opts) => picker.setState(state, {
      marks: lesson.marks, side: lesson.to_move, counted: lesson.counted, ...opts,
    });
    const fresh = (best = null) => draw(lesson.state, { interactive: true, best });
    const retry = h("button", {
      type: "button", "data-testid": "lesson-retry",
      onclick: () => {
        say("", "", "");
        show(retry, false);
        fresh();
      },
    }, t("tutorial.try_again"));
    show(retry, false);
    const showMe = h("button", {
      type: "button", "data-testid": "lesson-show",
      onclick: () => {
        show(retry, false);
        fresh(lesson.example);
        say("info", "", t("tutorial.shown", { move: lesson.example }));
      },
    }, t("tutorial.show_me"));
    const navLink = (l, testid, label, cls = "button") => (l
      ? h("a", { href: `/learn/${l.id}`, "data-nav": "", class: cls, "data-testid": testid }, label)
      : null);
    const prev = navLink(lessons[index - 1], "lesson-prev", `← ${t("tutorial.prev")}`);
    const next = navLink(lessons[index + 1], "lesson-next", `${t("tutorial.next")} →`);
    const gameBox = last ? firstGame("tutorial.first_game.finished") : null;
    if (gameBox) show(gameBox, progress.done().has(lesson.id));
    const list = h("div", { class: "lesson-list-slot" });
    const progressLine = h("p", { class: "small", "data-testid": "lesson-progress" });
    const renderList = () => {
      list.replaceChildren(lessonList(lessons, lesson.id));
      progressLine.textContent = progressText(lessons);
    };
    renderList();

    let pending = 0;
    const judge = async (move) => {
      const ask = ++pending;
      // Text that cannot be notation is answered here, without asking.
      if (!NOTATION.test(move.trim())) {
        say("illegal", t("tutorial.feedback.illegal"), t("tutorial.bad_notation", { move }));
        return;
      }
      picker.setInteractive(false);
      say("checking", "", t("tutorial.checking"));
      let answer;
      try {
        answer = await learn("POST", `/api/learn/lessons/${encodeURIComponent(lesson.id)}/try`, { move });
      } catch (e) {
        if (closed || ask !== pending) return;
        picker.setInteractive(true);
        if (e.code === "bad_move") say("illegal", t("tutorial.feedback.illegal"), t("tutorial.bad_notation", { move }));
        else say("illegal", "", errorText(e));
        return;
      }
      if (closed || ask !== pending) return;
      const message = judgeText(lesson, answer);
      main.dataset.lastTry = answer.correct ? "right" : "wrong";
      if (answer.correct) {
        progress.add(lesson.id);
        renderList();
        draw(answer.state, { interactive: false });
        say("right", t("tutorial.feedback.right"), message);
        show(retry, true);
        if (next) next.classList.add("primary");
        if (gameBox) show(gameBox, true);
      } else if (answer.state) {
        // Legal but not what the lesson asks: the position after it (and
        // the opponent's answer that shows why), then try again.
        draw(answer.state, { interactive: false, best: answer.reply });
        say("wrong", t("tutorial.feedback.wrong"), message);
        show(retry, true);
      } else {
        picker.setInteractive(true);
        say("illegal", t("tutorial.feedback.illegal"), message);
      }
    };

    picker = new Picker(geom, {
      onMove: (move) => judge(move),
      // A piece of the learner's that cannot move: the judge says why
      // (it is covered, say) from a turn in place.
      onBlocked: (piece) => {
        const n = geom.rotations(piece.kind);
        judge(`${piece.punct}-${piece.punct}/${(piece.rotation + 1) % n}`);
      },
    });
    picker.board.setLabel(lessonText(lesson, "title"));

    const hint = h("details", { class: "lesson-hint", "data-testid": "lesson-hint" },
      h("summary", {}, t("tutorial.hint")), h("p", {}, lessonText(lesson, "hint")));

    main.replaceChildren(h("div", { class: "tutorial-lesson", "data-lesson": lesson.id },
      h("section", { class: "lesson-head" },
        h("p", { class: "lesson-number" }, t("tutorial.lesson_number", { n: index + 1, count: lessons.length })),
        h("h1", { "data-testid": "lesson-title" }, lessonText(lesson, "title")),
        h("p", { class: "lesson-goal", "data-testid": "lesson-goal" }, lessonText(lesson, "goal")),
        h("p", { class: "small" }, t("tutorial.you_play"), lesson.marks.length ? ` ${t("tutorial.marked")}` : "")),
      h("section", { class: "lesson-board", "data-testid": "board-area" }, picker.board.el),
      h("section", { class: "lesson-panel" },
        picker.reserveEl,
        picker.controlsEl,
        feedback,
        h("div", { class: "row buttons lesson-actions" }, retry, showMe),
        hint,
        gameBox,
        h("div", { class: "row lesson-nav" }, prev || h("span"), next || h("span")),
        picker.typedEl),
      h("nav", { class: "lesson-aside", "aria-label": t("tutorial.lessons") },
        h("h2", {}, h("a", { href: "/learn", "data-nav": "", "data-testid": "lesson-overview" }, t("tutorial.all_lessons"))),
        progressLine, list)));
    main.style.setProperty("--board-aspect", picker.board.aspect.toFixed(4));
    fresh();
  }

  (async () => {
    try {
      const { lessons, geom } = await loadList();
      if (closed) return;
      const known = lessons.find((l) => l.id === lessonId);
      if (!lessonId || !known) {
        overview(lessons, lessonId && !known ? lessonId : null);
        return;
      }
      const lesson = await loadLesson(lessonId);
      if (closed) return;
      lessonScreen(lessons, geom, lesson);
    } catch (e) {
      fail(e);
    }
  })();

  return {
    destroy() {
      closed = true;
      picker?.destroy();
    },
  };
}
