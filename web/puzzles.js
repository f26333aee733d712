// The puzzles (/puzzles and /puzzles/{id}): positions from games between
// the computer's levels, each proven by trying every move (docs/PUZZLES.md):
// win in one, stop the opponent's win, win in two. The overview shows the
// puzzle of the day and the puzzles by kind (solved ones marked: this
// browser remembers them); a puzzle shows the board with a move picker
// (picker.js). The server judges each move (POST /api/learn/puzzles/{id}/try
// with the learner's moves so far), answers a win in two's first move with
// the opponent's most stubborn reply, and shows a wrong move's refutation.

import { h, show, tSide } from "./dom.js";
import { t, errorText, currentLang, listOf } from "./i18n.js";
import { api } from "./api.js";
import { Geometry } from "./board.js";
import { storedIds, loadOnce, learnFrame, listItem, LearnView } from "./learnview.js";

const SOLVED_KEY = "punct:puzzles";

/** The puzzles this browser has solved (ids), kept in localStorage. */
const solved = storedIds(SOLVED_KEY, "solved");

// The list and the board never change while the page is open.
const loadList = loadOnce(() => Promise.all([api.puzzles(), api.board()])
  .then(([list, board]) => ({ list, geom: new Geometry(board) })));

const kindKey = (kind) => kind.replace(/-/g, "_");

/** "White to play and win in one move." (puzzles.task.<kind>.<side>) */
function taskText(p) {
  return tSide(`puzzles.task.${kindKey(p.kind)}`, p.side);
}

/** A date of the API (YYYY-MM-DD, UTC) in the language shown. */
function dateText(date) {
  const [y, m, d] = date.split("-").map(Number);
  try {
    return new Intl.DateTimeFormat(currentLang(), { dateStyle: "long", timeZone: "UTC" })
      .format(new Date(Date.UTC(y, m - 1, d)));
  } catch {
    return date;
  }
}

/**
 * The judge's message: puzzles.solved, puzzles.stopped, or a message about
 * the opponent (puzzles.good.reply, puzzles.wrong.*), whose sentences
 * come in a form for each side (the params' `side`).
 */
function judgeText(answer) {
  const params = answer.params || {};
  if (params.side) return tSide(answer.code, params.side, params);
  return t(answer.code, params);
}

/** The solution in words: every first move, and for a win in two the line after each. */
function solutionText(p) {
  const list = (moves) => listOf(moves, "disjunction"); // any one of them solves it
  if (p.kind === "win-in-two") {
    const them = p.side === "white" ? "black" : "white";
    return p.lines.map((l) => tSide("puzzles.solution.line", them, {
      first: l.first, reply: l.reply, wins: list(l.wins), count: l.wins.length,
    }));
  }
  return [t(`puzzles.solution.${kindKey(p.kind)}`, { moves: list(p.solutions), count: p.solutions.length })];
}

export function puzzlesScreen(root, navigate, id) {
  const frame = learnFrame(root, { nav: "puzzles", area: "puzzles", failKey: "puzzles.load_failed" });
  const main = frame.main;

  const progressText = (list) => t("puzzles.progress", {
    solved: list.puzzles.filter((p) => solved.all().has(p.id)).length, count: list.count,
  });

  /** The puzzles of one kind, numbered in the whole list's order. */
  const kindList = (list, kind, current) => {
    const done = solved.all();
    return h("ol", { class: "learn-list puzzle-list", "data-testid": `puzzle-list-${kind}` },
      list.puzzles.map((p, i) => ({ p, n: i + 1 })).filter(({ p }) => p.kind === kind).map(({ p, n }) => listItem({
        href: `/puzzles/${p.id}`, testid: `puzzle-link-${p.id}`, n, name: tSide("puzzles.item", p.side),
        done: done.has(p.id), mark: "solved", current: p.id === current ? "page" : null, tick: t("puzzles.solved_mark"),
      })));
  };

  // ------------------------------------------------------------ the overview

  function overview(list, daily, unknown) {
    const done = solved.all();
    const dailyBox = daily
      ? h("section", { class: "puzzle-daily panel", "data-testid": "puzzle-daily" },
        h("h2", {}, t("puzzles.daily.heading")),
        h("p", { class: "small", "data-testid": "puzzle-daily-date" }, dateText(daily.date)),
        h("p", { class: "puzzle-daily-task" }, taskText(daily.puzzle),
          done.has(daily.puzzle.id) ? h("span", { class: "tick", "aria-label": t("puzzles.solved_mark") }, " ✓") : null),
        h("a", {
          href: `/puzzles/${daily.puzzle.id}?daily=${daily.date}`, "data-nav": "", class: "button primary",
          "data-testid": "puzzle-daily-open",
        }, t("puzzles.daily.open")))
      : null;
    const reset = h("button", {
      type: "button", class: "small-button", "data-testid": "puzzle-reset",
      onclick: () => {
        solved.clear();
        overview(list, daily, null);
      },
    }, t("puzzles.reset"));
    reset.hidden = done.size === 0;
    main.replaceChildren(h("div", { class: "puzzles-overview" },
      h("section", { class: "puzzles-intro" },
        h("h1", {}, t("puzzles.heading")),
        unknown ? h("p", { class: "message", role: "alert", "data-testid": "puzzle-unknown" }, t("puzzles.unknown", { id: unknown })) : null,
        h("p", {}, t("puzzles.intro", { count: list.count })),
        h("p", { class: "small", "data-testid": "puzzle-progress" }, progressText(list), " ", reset)),
      dailyBox,
      h("div", { class: "puzzle-kinds" }, list.kinds.map((kind) =>
        h("section", { class: "puzzle-kind panel", "data-kind": kind },
          h("h2", {}, t(`puzzles.kind.${kindKey(kind)}.title`)),
          h("p", { class: "small" }, t(`puzzles.kind.${kindKey(kind)}.about`)),
          kindList(list, kind, null))))));
  }

  // ------------------------------------------------------------ one puzzle

  function puzzleScreen(list, geom, puzzle, dailyDate) {
    document.title = `PÜNCT · ${t("puzzles.title", { n: puzzle.number })}`;
    let moves = []; // the learner's moves so far (a win in two takes two)

    const solution = h("div", { class: "puzzle-solution", "data-testid": "puzzle-solution" });
    show(solution, false);

    const draw = (state, opts) => view.picker.setState(state, { side: puzzle.side, ...opts });
    const fresh = (best = null) => {
      moves = [];
      main.dataset.lastTry = "";
      draw(puzzle.state, { interactive: true, best });
    };
    const view = new LearnView(frame, geom, {
      prefix: "puzzle", tryAgain: t("puzzles.try_again"), judge: (move) => judge(move), fresh,
    });
    const { picker, retry } = view;
    const say = (kind, head, text) => view.say(kind, head, text);

    const showSolution = h("button", {
      type: "button", "data-testid": "puzzle-show",
      onclick: () => {
        show(retry, false);
        const first = puzzle.kind === "win-in-two" ? puzzle.lines[0].first : puzzle.solutions[0];
        fresh(first);
        say("info", "", t("puzzles.shown"));
        solution.replaceChildren(h("h2", {}, t("puzzles.solution.heading")),
          ...solutionText(puzzle).map((line) => h("p", {}, line)));
        show(solution, true);
      },
    }, t("puzzles.show_solution"));
    const next = h("a", {
      href: `/puzzles/${puzzle.next}`, "data-nav": "", class: "button", "data-testid": "puzzle-next",
    }, `${t("puzzles.next")} →`);
    const listSlot = h("div", { class: "puzzle-list-slot" });
    const progressLine = h("p", { class: "small", "data-testid": "puzzle-progress" });
    const renderList = () => {
      listSlot.replaceChildren(h("h3", {}, t(`puzzles.kind.${kindKey(puzzle.kind)}.title`)),
        kindList(list, puzzle.kind, puzzle.id));
      progressLine.textContent = progressText(list);
    };
    renderList();
    const solvedMark = h("span", { class: "puzzle-solved-mark", "data-testid": "puzzle-solved-mark" }, `✓ ${t("puzzles.solved_mark")}`);
    show(solvedMark, solved.all().has(puzzle.id));

    const judge = async (move) => {
      const tried = [...moves, move];
      const answer = await view.send(view.newTry(), () => api.tryPuzzle(puzzle.id, tried), t("puzzles.checking"),
        (e) => say("illegal", t("puzzles.feedback.illegal"), errorText(e)));
      if (!answer) return;
      const message = judgeText(answer);
      main.dataset.lastTry = answer.solved ? "solved" : answer.correct ? "good" : "wrong";
      if (answer.solved) {
        solved.add(puzzle.id);
        renderList();
        show(solvedMark, true);
        draw(answer.state, { interactive: false });
        say("right", t("puzzles.feedback.right"), message);
        show(retry, true);
        next.classList.add("primary");
      } else if (answer.correct) {
        // A win in two's first move: the opponent has answered; the next move is the learner's.
        moves = tried;
        draw(answer.state, { interactive: true });
        say("good", t("puzzles.feedback.good"), message);
      } else {
        draw(answer.state, { interactive: false });
        say("wrong", t("puzzles.feedback.wrong"), message);
        show(retry, true);
      }
    };

    picker.board.setLabel(taskText(puzzle));

    const daily = dailyDate && h("p", { class: "puzzle-daily-badge", "data-testid": "puzzle-daily-badge" },
      t("puzzles.daily.badge", { date: dateText(dailyDate) }));
    view.place({
      attrs: { "data-puzzle": puzzle.id, "data-kind": puzzle.kind },
      head: [
        daily || null,
        h("p", { class: "learn-number" }, t("puzzles.number", { n: puzzle.number, count: puzzle.count }), " · ",
          t(`puzzles.kind.${kindKey(puzzle.kind)}.title`), " ", solvedMark),
        h("h1", { "data-testid": "puzzle-task" }, taskText(puzzle)),
        h("p", { class: "small" }, t(`puzzles.kind.${kindKey(puzzle.kind)}.about`)),
      ],
      panel: [
        h("div", { class: "row buttons learn-actions" }, retry, showSolution, next),
        solution,
      ],
      asideLabel: t("puzzles.heading"),
      aside: [
        h("h2", {}, h("a", { href: "/puzzles", "data-nav": "", "data-testid": "puzzle-overview" }, t("puzzles.all"))),
        progressLine, listSlot,
      ],
    });
    fresh();
  }

  (async () => {
    try {
      const { list, geom } = await loadList();
      if (frame.closed) return;
      if (!id) {
        const daily = await api.dailyPuzzle().catch(() => null);
        if (!frame.closed) overview(list, daily, null);
        return;
      }
      if (!list.puzzles.some((p) => p.id === id)) {
        const daily = await api.dailyPuzzle().catch(() => null);
        if (!frame.closed) overview(list, daily, id);
        return;
      }
      const puzzle = await api.puzzle(id);
      if (frame.closed) return;
      const dailyDate = new URLSearchParams(location.search).get("daily");
      puzzleScreen(list, geom, puzzle, /^\d{4}-\d{2}-\d{2}$/.test(dailyDate || "") ? dailyDate : null);
    } catch (e) {
      frame.fail(e);
    }
  })();

  return { destroy: () => frame.destroy() };
}
