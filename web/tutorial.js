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
import { api, staticSite } from "./api.js";
import { createLocalGame } from "./localgame.js";
import { Geometry } from "./board.js";
import { storedIds, loadOnce, learnFrame, listItem, LearnView } from "./learnview.js";

const PROGRESS_KEY = "punct:learn";
// The forms of a move (docs/NOTATION.md), in any letter case; the server checks the rest.
const NOTATION = /^(pass|[TCELMR]@[A-Q]\d{1,2}\/\d|[A-Q]\d{1,2}-[A-Q]\d{1,2}\/\d)$/i;

/** The lessons this browser has done (ids), kept in localStorage. */
export const progress = storedIds(PROGRESS_KEY, "done");

// The list and the board never change while the page is open.
const loadList = loadOnce(() => Promise.all([api.lessons(), api.board()])
  .then(([list, board]) => ({ lessons: list.lessons, geom: new Geometry(board) })));
const loadLesson = loadOnce((id) => api.lesson(id));

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
  const frame = learnFrame(root, { nav: "learn", area: "tutorial", failKey: "tutorial.load_failed" });
  const main = frame.main;

  /** The first-game box: a game against the AI at level 1, White. */
  const firstGame = (textKey) => {
    const say = h("p", { class: "message", role: "alert" });
    const button = h("button", {
      type: "button", class: "primary", "data-testid": "first-game",
      onclick: async () => {
        button.disabled = true;
        say.textContent = "";
        try {
          // A static copy of the site plays it in the page (localgame.js).
          if (staticSite) {
            const id = await createLocalGame({ level: 1, side: "white" });
            if (!frame.closed) navigate(`/game/${id}`);
            return;
          }
          const created = await api.createGame({ mode: "ai", level: 1, side: "white", variant: "standard" });
          remember(created);
          if (!frame.closed) navigate(`/game/${created.id}`);
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
    const done = progress.all();
    return h("ol", { class: "learn-list lesson-list", "data-testid": "lesson-list" }, lessons.map((l, i) => listItem({
      href: `/learn/${l.id}`, testid: `lesson-link-${l.id}`, n: i + 1, name: lessonText(l, "title"),
      done: done.has(l.id), mark: "done", current: l.id === current ? "step" : null, tick: t("tutorial.done_mark"),
    })));
  };

  const progressText = (lessons) =>
    t("tutorial.progress", { done: lessons.filter((l) => progress.all().has(l.id)).length, count: lessons.length });

  // ------------------------------------------------------------ the overview

  function overview(lessons, unknown) {
    const done = progress.all();
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

    // The position (the lesson's, or the one after a try) with the lesson's marks.
    const draw = (state, opts) => view.picker.setState(state, {
      marks: lesson.marks, side: lesson.to_move, counted: lesson.counted, ...opts,
    });
    const fresh = (best = null) => draw(lesson.state, { interactive: true, best });
    const view = new LearnView(frame, geom, {
      prefix: "lesson", tryAgain: t("tutorial.try_again"), judge: (move) => judge(move), fresh,
    });
    const { picker, retry } = view;
    const say = (kind, head, text) => view.say(kind, head, text);
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
    if (gameBox) show(gameBox, progress.all().has(lesson.id));
    const list = h("div", { class: "lesson-list-slot" });
    const progressLine = h("p", { class: "small", "data-testid": "lesson-progress" });
    const renderList = () => {
      list.replaceChildren(lessonList(lessons, lesson.id));
      progressLine.textContent = progressText(lessons);
    };
    renderList();

    const judge = async (move) => {
      const latest = view.newTry();
      // Text that cannot be notation is answered here, without asking.
      if (!NOTATION.test(move.trim())) {
        say("illegal", t("tutorial.feedback.illegal"), t("tutorial.bad_notation", { move }));
        return;
      }
      const answer = await view.send(latest, () => api.tryLesson(lesson.id, move), t("tutorial.checking"), (e) => {
        if (e.code === "bad_move") say("illegal", t("tutorial.feedback.illegal"), t("tutorial.bad_notation", { move }));
        else say("illegal", "", errorText(e));
      });
      if (!answer) return;
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
      } else if (String(answer.code).startsWith("tutorial.wrong.")) {
        // Legal, but not the kind of move the lesson is about (an addition
        // in a lesson on moving): said so, the board left as it was.
        picker.setInteractive(true);
        say("wrong", t("tutorial.feedback.wrong"), message);
      } else {
        picker.setInteractive(true);
        say("illegal", t("tutorial.feedback.illegal"), message);
      }
    };

    picker.board.setLabel(lessonText(lesson, "title"));

    const hint = h("details", { class: "lesson-hint", "data-testid": "lesson-hint" },
      h("summary", {}, t("tutorial.hint")), h("p", {}, lessonText(lesson, "hint")));

    view.place({
      attrs: { "data-lesson": lesson.id },
      head: [
        h("p", { class: "learn-number" }, t("tutorial.lesson_number", { n: index + 1, count: lessons.length })),
        h("h1", { "data-testid": "lesson-title" }, lessonText(lesson, "title")),
        h("p", { class: "lesson-goal", "data-testid": "lesson-goal" }, lessonText(lesson, "goal")),
        h("p", { class: "small" }, t("tutorial.you_play"), lesson.marks.length ? ` ${t("tutorial.marked")}` : ""),
      ],
      panel: [
        h("div", { class: "row buttons learn-actions" }, retry, showMe),
        hint,
        gameBox,
        h("div", { class: "row lesson-nav" }, prev || h("span"), next || h("span")),
      ],
      asideLabel: t("tutorial.lessons"),
      aside: [
        h("h2", {}, h("a", { href: "/learn", "data-nav": "", "data-testid": "lesson-overview" }, t("tutorial.all_lessons"))),
        progressLine, list,
      ],
    });
    fresh();
  }

  (async () => {
    try {
      const { lessons, geom } = await loadList();
      if (frame.closed) return;
      const known = lessons.find((l) => l.id === lessonId);
      if (!lessonId || !known) {
        overview(lessons, lessonId && !known ? lessonId : null);
        return;
      }
      const lesson = await loadLesson(lessonId);
      if (frame.closed) return;
      lessonScreen(lessons, geom, lesson);
    } catch (e) {
      frame.fail(e);
    }
  })();

  return { destroy: () => frame.destroy() };
}
