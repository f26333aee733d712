// The puzzles (/puzzles and /puzzles/{id}): positions from games between
// the computer's levels, each proven by trying every move (docs/PUZZLES.md):
// win in one, stop the opponent's win, win in two. The overview shows the
// puzzle of the day and the puzzles by kind (solved ones marked: this
// browser remembers them); a puzzle shows the board with a move picker
// (picker.js). The server judges each move (POST /api/learn/puzzles/{id}/try
// with the learner's moves so far), answers a win in two's first move with
// the opponent's most stubborn reply, and shows a wrong move's refutation.

import { h, show, tSide } from "./dom.js";
import { t, errorText, currentLang } from "./i18n.js";
import { siteNav } from "./nav.js";
import { api, ApiError } from "./api.js";
import { Geometry } from "./board.js";
import { Picker } from "./picker.js";

const SOLVED_KEY = "punct:puzzles";

/** The puzzles this browser has solved (ids), kept in localStorage. */
const solved = {
  session: new Set(),
  all() {
    let stored = [];
    try {
      stored = JSON.parse(localStorage.getItem(SOLVED_KEY) || "{}").solved || [];
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
      localStorage.setItem(SOLVED_KEY, JSON.stringify({ solved: ids }));
    } catch {
      /* storage disabled: remembered until the page closes */
    }
  },
};

async function ask(method, path, body) {
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
function loadList() {
  listOnce ??= Promise.all([ask("GET", "/api/learn/puzzles"), api.board()])
    .then(([list, board]) => ({ list, geom: new Geometry(board) }))
    .catch((e) => {
      listOnce = null;
      throw e;
    });
  return listOnce;
}

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
  const list = (moves) => moves.join(", ");
  if (p.kind === "win-in-two") {
    const them = p.side === "white" ? "black" : "white";
    return p.lines.map((l) => tSide("puzzles.solution.line", them, {
      first: l.first, reply: l.reply, wins: list(l.wins), count: l.wins.length,
    }));
  }
  return [t(`puzzles.solution.${kindKey(p.kind)}`, { moves: list(p.solutions), count: p.solutions.length })];
}

export function puzzlesScreen(root, navigate, id) {
  let closed = false;
  let picker = null;
  const main = h("div", { class: "puzzles", "data-testid": "puzzles" });
  const status = h("p", { class: "puzzles-status", role: "status" });
  main.append(status);
  root.replaceChildren(siteNav("puzzles"), main);

  const fail = (e) => {
    if (closed) return;
    status.textContent = t("puzzles.load_failed", { error: errorText(e) });
    status.classList.add("error");
  };

  const progressText = (list) => t("puzzles.progress", {
    solved: list.puzzles.filter((p) => solved.all().has(p.id)).length, count: list.count,
  });

  /** The puzzles of one kind, numbered in the whole list's order. */
  const kindList = (list, kind, current) => {
    const done = solved.all();
    return h("ol", { class: "puzzle-list", "data-testid": `puzzle-list-${kind}` },
      list.puzzles.map((p, i) => ({ p, n: i + 1 })).filter(({ p }) => p.kind === kind).map(({ p, n }) => {
        const isSolved = done.has(p.id);
        return h("li", { class: isSolved ? "solved" : null },
          h("a", {
            href: `/puzzles/${p.id}`, "data-nav": "", "data-testid": `puzzle-link-${p.id}`,
            "data-solved": String(isSolved), "aria-current": p.id === current ? "page" : null,
          },
          h("span", { class: "puzzle-n" }, String(n)),
          h("span", { class: "puzzle-name" }, tSide("puzzles.item", p.side)),
          isSolved ? h("span", { class: "tick", title: t("puzzles.solved_mark"), "aria-label": t("puzzles.solved_mark") }, "✓") : null));
      }));
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
    let pending = 0;

    const feedbackHead = h("strong", { class: "feedback-head" });
    const feedbackText = h("span", { class: "feedback-text", "data-testid": "puzzle-message" });
    const feedback = h("div", { class: "puzzle-feedback", "data-testid": "puzzle-feedback", role: "status", "aria-live": "polite" },
      feedbackHead, " ", feedbackText);
    show(feedback, false);
    const say = (kind, head, text) => {
      feedback.dataset.result = kind;
      feedbackHead.textContent = head;
      feedbackText.textContent = text;
      show(feedback, !!(head || text));
      if (head || text) feedback.scrollIntoView?.({ block: "nearest" });
    };
    const solution = h("div", { class: "puzzle-solution", "data-testid": "puzzle-solution" });
    show(solution, false);

    const draw = (state, opts) => picker.setState(state, { side: puzzle.side, ...opts });
    const fresh = (best = null) => {
      moves = [];
      main.dataset.lastTry = "";
      draw(puzzle.state, { interactive: true, best });
    };

    const retry = h("button", {
      type: "button", "data-testid": "puzzle-retry",
      onclick: () => {
        say("", "", "");
        show(retry, false);
        fresh();
      },
    }, t("puzzles.try_again"));
    show(retry, false);
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
      const askNo = ++pending;
      const tried = [...moves, move];
      picker.setInteractive(false);
      say("checking", "", t("puzzles.checking"));
      let answer;
      try {
        answer = await ask("POST", `/api/learn/puzzles/${encodeURIComponent(puzzle.id)}/try`, { moves: tried });
      } catch (e) {
        if (closed || askNo !== pending) return;
        picker.setInteractive(true);
        say("illegal", t("puzzles.feedback.illegal"), errorText(e));
        return;
      }
      if (closed || askNo !== pending) return;
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

    picker = new Picker(geom, {
      onMove: (move) => judge(move),
      onBlocked: (piece) => {
        const n = geom.rotations(piece.kind);
        judge(`${piece.punct}-${piece.punct}/${(piece.rotation + 1) % n}`);
      },
    });
    picker.board.setLabel(taskText(puzzle));

    const daily = dailyDate && h("p", { class: "puzzle-daily-badge", "data-testid": "puzzle-daily-badge" },
      t("puzzles.daily.badge", { date: dateText(dailyDate) }));
    main.replaceChildren(h("div", { class: "puzzle-view", "data-puzzle": puzzle.id, "data-kind": puzzle.kind },
      h("section", { class: "puzzle-head" },
        daily || null,
        h("p", { class: "puzzle-number" }, t("puzzles.number", { n: puzzle.number, count: puzzle.count }), " · ",
          t(`puzzles.kind.${kindKey(puzzle.kind)}.title`), " ", solvedMark),
        h("h1", { "data-testid": "puzzle-task" }, taskText(puzzle)),
        h("p", { class: "small" }, t(`puzzles.kind.${kindKey(puzzle.kind)}.about`))),
      h("section", { class: "puzzle-board", "data-testid": "board-area" }, picker.board.el),
      h("section", { class: "puzzle-panel" },
        picker.reserveEl,
        picker.controlsEl,
        feedback,
        h("div", { class: "row buttons puzzle-actions" }, retry, showSolution, next),
        solution,
        picker.typedEl),
      h("nav", { class: "puzzle-aside", "aria-label": t("puzzles.heading") },
        h("h2", {}, h("a", { href: "/puzzles", "data-nav": "", "data-testid": "puzzle-overview" }, t("puzzles.all"))),
        progressLine, listSlot)));
    main.style.setProperty("--board-aspect", picker.board.aspect.toFixed(4));
    fresh();
  }

  (async () => {
    try {
      const { list, geom } = await loadList();
      if (closed) return;
      if (!id) {
        const daily = await ask("GET", "/api/learn/puzzles/daily").catch(() => null);
        if (!closed) overview(list, daily, null);
        return;
      }
      if (!list.puzzles.some((p) => p.id === id)) {
        const daily = await ask("GET", "/api/learn/puzzles/daily").catch(() => null);
        if (!closed) overview(list, daily, id);
        return;
      }
      const puzzle = await ask("GET", `/api/learn/puzzles/${encodeURIComponent(id)}`);
      if (closed) return;
      const dailyDate = new URLSearchParams(location.search).get("daily");
      puzzleScreen(list, geom, puzzle, /^\d{4}-\d{2}-\d{2}$/.test(dailyDate || "") ? dailyDate : null);
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
