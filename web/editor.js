// The board editor (/editor): a position set up by hand. A palette picks
// the side, the kind and its rotation; a click on a cell lays that piece
// with its PÜNCT there, at the height of the highest of its cells (flat or
// as a bridge), and the erase tool (or a right-click, a long press) takes
// a cell's top piece off. Side to move and variant are the position
// string's first fields, changed by rewriting them. Every change is the
// page's own rules' (engine.js, punct.wasm: `place`, `remove`, `view`), so
// what the board shows is a position the rules read back; a refusal is
// said in words next to the board, never dropped.
//
// The position is then used: played against the AI (POST
// /api/games/import with a record that starts from it), analysed
// (/analysis#position=…) or shared as a link (/editor#position=…), which
// opens here again. The address follows the position (replaceState).

import { h, show, sideName, tSide, gameMemory, playerName, nameProblem } from "./dom.js";
import { siteNav } from "./nav.js";
import { t, errorText } from "./i18n.js";
import { api, staticSite } from "./api.js";
import { createLocalGame } from "./localgame.js";
import * as engine from "./engine.js";
import { Board, Geometry, HEX, hexPoints, pieceIcon, svg } from "./board.js";
import { attachKeyboard, KINDS } from "./kbd.js";
import { ownKey } from "./chooser.js";
import { session } from "./session.js";

const SIDES = ["white", "black"];
const EMPTY = "standard:w:0:-";

/** The position string's fields: variant, side to move (w|b), passes, pieces. */
function fields(position) {
  const [variant, toMove, passes, pieces] = position.split(":");
  return { variant, toMove, passes, pieces };
}

/** The piece on top of `cell` in `view` (the highest whose cells hold it), or null. */
function topPiece(view, cell) {
  let top = null;
  for (const p of view.pieces) if (p.cells.includes(cell) && (!top || p.level > top.level)) top = p;
  return top;
}

/** The piece `answer` (a view after `place`) laid with its PÜNCT on `cell`: the highest there. */
function placedPiece(answer, cell) {
  let found = null;
  for (const p of answer.pieces) if (p.punct === cell && (!found || p.level > found.level)) found = p;
  return found;
}

/** The rules reader's English message, without its "invalid position string: " lead. */
function readerMessage(answer) {
  return String(answer.message || answer.error || "").replace(/^invalid position string: /, "");
}

export function editorScreen(root, navigate) {
  let closed = false;
  let geom = null;
  let board = null;
  let kbd = null;
  let view = null; // the engine's view of `position`
  let position = EMPTY;
  const undo = []; // earlier positions, the last one first to come back
  let side = "white";
  let kind = "T";
  let rot = 0;
  let erasing = false;
  let hover = null;
  let check = null; // the hovered placement as the rules see it: {key, answer}
  let chain = Promise.resolve(); // edits run one after the other, in order

  const message = h("p", {
    class: "editor-message", "data-testid": "editor-message", role: "status", "aria-live": "polite",
  });
  /** Says `text` next to the board: `tone` "refused" (an error's look) or "done". */
  const say = (text, tone = "refused") => {
    message.textContent = text || "";
    message.dataset.kind = tone;
  };

  const screen = h("div", { class: "editor", "data-testid": "editor", "data-ready": "false" });
  root.replaceChildren(siteNav(), screen);
  screen.append(h("h1", {}, t("title.editor")), h("p", { role: "status" }, t("editor.loading")));

  // ------------------------------------------------------------ the parts

  const sideButtons = SIDES.map((s) => h("button", {
    type: "button", class: "editor-side", "data-testid": `editor-side-${s}`, "data-side": s,
    onclick: () => pickSide(s),
  }, h("span", { class: `swatch ${s}`, "aria-hidden": "true" }), sideName(s)));
  const kindButtons = KINDS.map((k) => h("button", {
    type: "button", class: "kind", "data-testid": `editor-kind-${k}`, "data-kind": k, onclick: () => pickKind(k),
  }));
  const rotation = h("span", { class: "rotation", "data-testid": "editor-rotation" }, "0");
  const rotationIcon = h("span", { class: "rotation-icon" });
  const rotateBtn = h("button", {
    type: "button", "data-testid": "editor-rotate", title: t("editor.rotate_title"), onclick: () => turn(1),
  }, `⟳ ${t("editor.rotate")}`);
  const eraseBtn = h("button", {
    type: "button", class: "editor-erase", "data-testid": "editor-erase", title: t("editor.erase_title"),
    onclick: () => setErasing(!erasing),
  }, `⌫ ${t("editor.erase")}`);
  const hint = h("p", { class: "small editor-hint", "data-testid": "editor-hint" });

  const reserveRows = Object.fromEntries(SIDES.map((s) => [s, h("tr", { "data-testid": `editor-reserve-${s}` })]));
  const reserves = h("table", { class: "editor-reserves" },
    h("caption", { class: "sr-only" }, t("editor.reserves")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, h("span", { class: "sr-only" }, t("editor.reserves.side"))),
      ...KINDS.map((k) => h("th", { scope: "col" }, k)))),
    h("tbody", {}, reserveRows.white, reserveRows.black));

  const option = (value, label) => h("option", { value }, label);
  const toMove = h("select", { "data-testid": "editor-to-move", onchange: () => setPrefix({ toMove: toMove.value }) },
    option("w", sideName("white")), option("b", sideName("black")));
  const variant = h("select", { "data-testid": "editor-variant", onchange: () => setPrefix({ variant: variant.value }) },
    option("standard", t("editor.variant.standard")), option("basic", t("editor.variant.basic")));
  const undoBtn = h("button", { type: "button", "data-testid": "editor-undo", onclick: () => queue(undoLast) }, `↶ ${t("editor.undo")}`);
  const clearBtn = h("button", { type: "button", "data-testid": "editor-clear", onclick: () => queue(clearBoard) }, t("editor.clear"));
  const positionField = h("input", {
    type: "text", class: "editor-position", "data-testid": "editor-position", id: "editor-position",
    autocomplete: "off", autocapitalize: "off", spellcheck: "false",
    onkeydown: (e) => { if (e.key === "Enter") queue(loadTyped); },
  });
  const loadBtn = h("button", { type: "button", "data-testid": "editor-load", onclick: () => queue(loadTyped) }, t("editor.position.load"));

  const level = h("select", { "data-testid": "editor-level" },
    [1, 2, 3, 4].map((n) => option(n, t("start.level.option", { level: n, name: t(`start.level.${n}`) }))));
  level.value = "2";
  const playSide = h("select", { "data-testid": "editor-play-side" },
    option("white", sideName("white")), option("black", sideName("black")));
  let playSideChosen = false; // until chosen, the person plays the side to move
  playSide.addEventListener("change", () => { playSideChosen = true; });
  const playBtn = h("button", { type: "button", class: "primary", "data-testid": "editor-play", onclick: () => play() }, t("editor.play"));
  const playNote = h("p", { class: "small editor-play-note", "data-testid": "editor-play-note", id: "editor-play-note" });
  const analyseBtn = h("button", { type: "button", "data-testid": "editor-analyse", onclick: () => analyse() }, t("editor.analyse"));
  const shareBtn = h("button", { type: "button", "data-testid": "editor-share", onclick: () => share() }, t("editor.share"));
  const shareLink = h("code", { class: "link", "data-testid": "editor-share-link" });
  const shareRow = h("div", { class: "link-row editor-share-row" }, h("span", { class: "sr-only" }, t("editor.share.label")), shareLink);
  show(shareRow, false);

  const label = (text, field) => h("label", {}, h("span", {}, text), field);

  // ------------------------------------------------------------ loading

  async function start() {
    let info;
    try {
      info = await api.board();
    } catch (e) {
      if (closed) return;
      screen.replaceChildren(h("h1", {}, t("title.editor")), message);
      say(errorText(e));
      return;
    }
    if (closed) return;
    geom = new Geometry(info);
    board = new Board(geom, {
      onCell: (cell) => act(cell),
      onHover: (cell) => hoverCell(cell),
      onWheel: (dy) => !erasing && (turn(dy > 0 ? 1 : -1), true),
    });
    board.el.classList.add("editor-board");
    board.setLabel(t("editor.board_label"));
    // A right-click, or a long press on a touch screen, takes the cell's top piece off.
    board.hitsLayer.addEventListener("contextmenu", (e) => {
      const c = e.target.closest && e.target.closest("[data-cell]");
      if (!c) return;
      e.preventDefault();
      const cell = board.route(e, c.dataset.cell);
      queue(() => erase(cell));
    });
    kbd = attachKeyboard(board, { onActivate: (cell) => act(cell), onCursor: (cell) => hoverCell(cell) });

    // The position of the address (a shared link), read by the rules.
    const asked = new URLSearchParams(location.hash.slice(1)).get("position");
    let first = null;
    if (asked) {
      first = await engine.ask({ op: "view", position: asked });
      if (closed) return;
      if (first.error) {
        const failed = first;
        first = await engine.ask({ op: "view", position: EMPTY });
        if (!first.error) say(t("editor.bad_link", { message: readerMessage(failed) }));
      }
    } else {
      first = await engine.ask({ op: "view", position: EMPTY });
    }
    if (closed) return;
    if (first.error) {
      screen.replaceChildren(h("h1", {}, t("title.editor")), message);
      say(t("editor.unavailable", { message: first.message || first.error }));
      screen.dataset.ready = "failed";
      return;
    }
    build();
    display(first, { remember: false });
    screen.dataset.ready = "true";
  }

  function build() {
    const palette = h("section", { class: "panel editor-palette", "aria-labelledby": "editor-palette-title" },
      h("h2", { id: "editor-palette-title" }, t("editor.palette")),
      h("div", { class: "editor-sides", role: "group", "aria-label": t("editor.side.label") }, sideButtons),
      h("div", { class: "editor-kinds", role: "group", "aria-label": t("editor.kinds.label") }, kindButtons),
      h("div", { class: "controls editor-tools" },
        rotateBtn, h("span", { class: "rotation-box" }, t("editor.rotation"), " ", rotation, rotationIcon), eraseBtn),
      hint,
      h("h3", { class: "editor-reserves-title" }, t("editor.reserves")),
      reserves);
    const setup = h("section", { class: "panel editor-setup", "aria-labelledby": "editor-setup-title" },
      h("h2", { id: "editor-setup-title" }, t("editor.position.title")),
      h("div", { class: "editor-fields" }, label(t("editor.to_move"), toMove), label(t("editor.variant"), variant)),
      h("div", { class: "controls" }, undoBtn, clearBtn),
      h("label", { class: "editor-position-label", for: "editor-position" }, t("editor.position.label")),
      h("div", { class: "controls editor-position-row" }, positionField, loadBtn));
    const use = h("section", { class: "panel editor-use", "aria-labelledby": "editor-use-title" },
      h("h2", { id: "editor-use-title" }, t("editor.use.title")),
      h("div", { class: "editor-fields" }, label(t("editor.play.level"), level), label(t("editor.play.side"), playSide)),
      h("div", { class: "controls" }, playBtn, analyseBtn, shareBtn),
      playNote,
      shareRow);
    screen.replaceChildren(h("div", { class: "editor-view" },
      h("header", { class: "editor-head" }, h("h1", {}, t("title.editor")), h("p", { class: "small" }, t("editor.intro"))),
      h("section", { class: "editor-board-box", "data-testid": "board-area", "aria-label": t("editor.board_region") }, board.el),
      h("div", { class: "editor-panel" }, message, palette, h("div", { class: "editor-more" }, setup, use))));
    screen.style.setProperty("--board-aspect", board.aspect.toFixed(4));
  }

  // ------------------------------------------------------------ drawing

  /** Shows `answer` (a view) as the position now; `remember`: the one before can be undone. */
  function display(answer, { remember = true } = {}) {
    if (remember && answer.position !== position) undo.push(position);
    view = answer;
    position = answer.position;
    check = null;
    screen.dataset.position = position;
    const f = fields(position);
    toMove.value = f.toMove.toLowerCase();
    variant.value = f.variant.toLowerCase();
    if (!playSideChosen) playSide.value = f.toMove.toLowerCase() === "b" ? "black" : "white";
    positionField.value = position;
    undoBtn.disabled = undo.length === 0;
    clearBtn.disabled = view.pieces.length === 0;
    board.setPosition(view, {});
    drawPalette();
    drawOverlay();
    judgePlay();
    shareLink.textContent = shareUrl();
    // The address follows the position (a reload or a bookmark keeps it).
    history.replaceState(history.state, "", `/editor#position=${encodeURIComponent(position)}`);
  }

  function shareUrl() {
    return `${location.origin}/editor#position=${encodeURIComponent(position)}`;
  }

  function drawPalette() {
    for (const b of sideButtons) {
      const on = b.dataset.side === side;
      b.classList.toggle("selected", on);
      b.setAttribute("aria-pressed", String(on));
    }
    const reserve = (view && view.reserves[side]) || {};
    kindButtons.forEach((b, i) => {
      const k = KINDS[i];
      const n = reserve[k] ?? 0;
      const on = !erasing && k === kind;
      b.replaceChildren(pieceIcon(geom, k, on ? rot : 0, side), h("span", { class: "count" }, String(n)));
      b.classList.toggle("selected", on);
      b.classList.toggle("empty", n === 0);
      b.setAttribute("aria-pressed", String(on));
      b.setAttribute("aria-label", t("editor.kind", { kind: k, name: t(`rules.kind.${k}.name`), count: n }));
    });
    kindButtons[0].parentElement.dataset.side = side;
    rotation.textContent = String(rot);
    rotationIcon.replaceChildren(pieceIcon(geom, kind, rot, side));
    rotateBtn.disabled = erasing;
    eraseBtn.classList.toggle("active", erasing);
    eraseBtn.setAttribute("aria-pressed", String(erasing));
    for (const s of SIDES) {
      const counts = (view && view.reserves[s]) || {};
      reserveRows[s].replaceChildren(
        h("th", { scope: "row" }, h("span", { class: `swatch ${s}`, "aria-hidden": "true" }), sideName(s)),
        ...KINDS.map((k) => h("td", { "data-kind": k, "data-count": counts[k] ?? 0 }, String(counts[k] ?? 0))));
    }
    drawHint();
  }

  /** What a click on the hovered cell would do, in words (not a live region: the pointer moves often). */
  function drawHint() {
    if (!view) return;
    let text = erasing ? t("editor.hint.erase") : t("editor.hint.place", { kind });
    if (hover && erasing) {
      const top = topPiece(view, hover);
      text = top
        ? tSide("editor.hover.erase", top.side, { kind: top.kind, cell: hover, punct: top.punct, level: top.level })
        : t("editor.hover.empty", { cell: hover });
    } else if (hover && check && check.key === checkKey(hover)) {
      const a = check.answer;
      if (a.error) text = t("editor.hover.refused", { kind, cell: hover, why: refusalWords(a) });
      else {
        const p = placedPiece(a, hover);
        if (p) text = t(p.bridge ? "editor.hover.bridge" : "editor.hover.level", { kind, cell: hover, level: p.level });
      }
    }
    hint.textContent = text;
  }

  function drawOverlay() {
    if (!board) return;
    const o = { hover };
    if (hover && !erasing) {
      const ok = !check || check.key !== checkKey(hover) || !check.answer.error;
      o.ghost = { kind, rotation: rot, at: hover, side, legal: ok };
    }
    board.setOverlay(o);
    // The piece the erase tool would take off: its top face outlined.
    if (hover && erasing && view) {
      const top = topPiece(view, hover);
      if (top) {
        for (const c of top.cells) {
          svg("polygon", {
            class: "editor-erase-mark", points: hexPoints(board.surfacePt(c, top.level + 1), HEX * 0.78), "data-erase": c,
          }, board.marks);
        }
      }
    }
  }

  // ------------------------------------------------------------ the palette

  function pickSide(s) {
    side = s;
    check = null;
    drawPalette();
    drawOverlay();
    askHover();
  }

  function pickKind(k) {
    kind = k;
    rot %= geom.rotations(k);
    setErasing(false);
  }

  function turn(delta) {
    if (erasing) return;
    const n = geom.rotations(kind);
    rot = (rot + delta + n) % n;
    check = null;
    drawPalette();
    drawOverlay();
    askHover();
  }

  function setErasing(on) {
    erasing = on;
    check = null;
    drawPalette();
    drawOverlay();
    askHover();
  }

  function hoverCell(cell) {
    if (cell === hover) return;
    hover = cell;
    drawOverlay();
    drawHint();
    askHover();
  }

  const checkKey = (cell) => `${position}|${side}|${kind}|${rot}|${cell}`;

  /** Asks the rules whether the hovered placement may lie there (the ghost turns red if not) and at what level. */
  async function askHover() {
    if (!view || !hover || erasing) return;
    const key = checkKey(hover);
    if (check && check.key === key) return;
    const cell = hover;
    const answer = await engine.ask({ op: "place", position, side, kind, cell, rotation: rot });
    if (closed || checkKey(hover || "") !== key) return;
    check = { key, answer };
    drawOverlay();
    drawHint();
  }

  // ------------------------------------------------------------ edits

  /** Runs `edit` after the edits before it (clicks made quickly apply in order). */
  function queue(edit) {
    chain = chain.then(() => (closed || !view ? null : edit())).catch((e) => {
      say(String(e && e.message ? e.message : e));
    });
    return chain;
  }

  function act(cell) {
    queue(() => (erasing ? erase(cell) : place(cell)));
  }

  /** The words of a refused placement (the move checker's reason, as an illegal move is worded). */
  function refusalWords(answer) {
    if (answer.reason) return errorText({ code: "bad_position", reason: answer.reason, params: answer.params || {} });
    return readerMessage(answer);
  }

  async function place(cell) {
    const answer = await engine.ask({ op: "place", position, side, kind, cell, rotation: rot });
    if (closed) return;
    if (answer.error) {
      say(t("editor.refused.place", { kind, cell, why: refusalWords(answer) }));
      return;
    }
    display(answer);
    const p = placedPiece(answer, cell);
    say(tSide(p && p.bridge ? "editor.placed_bridge" : "editor.placed", side, { kind, cell, level: p ? p.level : 0 }), "done");
  }

  async function erase(cell) {
    const top = topPiece(view, cell);
    if (!top) {
      say(t("editor.refused.empty", { cell }));
      return;
    }
    const answer = await engine.ask({ op: "remove", position, cell });
    if (closed) return;
    if (answer.error) {
      say(t("editor.refused.remove", { cell, message: readerMessage(answer) }));
      return;
    }
    display(answer);
    say(tSide("editor.removed", top.side, { kind: top.kind, cell, punct: top.punct, level: top.level }), "done");
  }

  /** A new position of the rules' reading, or its refusal said with `words`. */
  async function load(text, words) {
    const answer = await engine.ask({ op: "view", position: text });
    if (closed) return false;
    if (answer.error) {
      say(t(words, { message: readerMessage(answer) }));
      return false;
    }
    display(answer);
    return true;
  }

  /** Side to move or variant: the position string's first fields rewritten. */
  function setPrefix(change) {
    queue(async () => {
      const f = { ...fields(position), ...change };
      if (await load(`${f.variant}:${f.toMove}:${f.passes}:${f.pieces}`, "editor.bad_position")) say("", "done");
      else {
        // refused: the selects show the position again
        toMove.value = fields(position).toMove.toLowerCase();
        variant.value = fields(position).variant.toLowerCase();
      }
    });
  }

  async function undoLast() {
    if (!undo.length) return;
    const before = undo.pop();
    const answer = await engine.ask({ op: "view", position: before });
    if (closed) return;
    if (answer.error) {
      say(t("editor.bad_position", { message: readerMessage(answer) }));
      return;
    }
    display(answer, { remember: false });
    say(t("editor.undone"), "done");
  }

  async function clearBoard() {
    const f = fields(position);
    if (await load(`${f.variant}:${f.toMove}:0:-`, "editor.bad_position")) say(t("editor.cleared"), "done");
  }

  async function loadTyped() {
    const text = positionField.value.trim();
    if (!text || text === position) return;
    if (await load(text, "editor.bad_position")) say(t("editor.loaded"), "done");
  }

  // ------------------------------------------------------------ using it

  /** Whether a game can start here; if not, why (shown under the button). */
  function judgePlay() {
    let why = "";
    if (view.status === "over") {
      why = view.outcome === "draw" ? t("editor.play.over.draw") : tSide("editor.play.over", view.outcome);
    } else {
      const moves = (view.legal_compact && view.legal_compact.moves) || "";
      const mover = fields(position).toMove.toLowerCase() === "b" ? "black" : "white";
      if (view.legal_count === 0 || (view.legal_count === 1 && moves === "pass")) why = tSide("editor.play.no_moves", mover);
    }
    playBtn.disabled = !!why;
    playNote.textContent = why;
    show(playNote, !!why);
    if (why) playBtn.setAttribute("aria-describedby", "editor-play-note");
    else playBtn.removeAttribute("aria-describedby");
  }

  async function play() {
    if (!view || playBtn.disabled) return;
    await chain;
    if (closed) return;
    const f = fields(position);
    const record = `[Variant "${f.variant.toLowerCase()}"]\n[Position "${position}"]\n\n*`;
    const name = session.user ? "" : playerName.get();
    const options = {
      mode: "ai", level: Number(level.value), side: playSide.value,
      ...(name && !nameProblem(name) ? { name } : {}),
    };
    playBtn.disabled = true;
    say(t("editor.play.creating"), "done");
    try {
      if (staticSite) {
        // No server here: the game is played by the page (localgame.js).
        const id = await createLocalGame({ position, level: options.level, side: options.side, name: options.name ?? null });
        if (!closed) navigate(`/game/${id}`);
        return;
      }
      const created = await api.importRecord(record, options);
      const token = created.seats && created.seats[created.you];
      if (token) {
        const seats = SIDES.filter((s) => created.seats[s]);
        gameMemory.save(created.id, { ...gameMemory.get(created.id), token, seats });
      }
      if (!closed) navigate(`/game/${created.id}`);
    } catch (e) {
      if (closed) return;
      say(errorText(e));
      judgePlay();
    }
  }

  async function analyse() {
    await chain;
    if (!closed) navigate(`/analysis#position=${encodeURIComponent(position)}`);
  }

  async function share() {
    await chain;
    if (closed) return;
    const url = shareUrl();
    shareLink.textContent = url;
    show(shareRow, true);
    try {
      await navigator.clipboard.writeText(url);
      say(t("editor.share.copied"), "done");
    } catch {
      window.getSelection()?.selectAllChildren(shareLink);
      say(t("editor.share.copy_failed"), "done");
    }
  }

  // ------------------------------------------------------------ keys

  // T C E L M R (or 1–6) pick a kind, R / Shift+R and ] [ turn it, Escape leaves the erase tool.
  const onKey = (e) => {
    if (!view || !ownKey(e)) return;
    const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
    if (key === "R" || key === "]" || key === "[") {
      turn(key === "[" || (key === "R" && e.shiftKey) ? -1 : 1);
    } else if (KINDS.includes(key) && key !== "R") {
      pickKind(key);
    } else if (/^[1-6]$/.test(key)) {
      pickKind(KINDS[Number(key) - 1]);
    } else if (key === "Escape" && erasing) {
      setErasing(false);
    } else {
      return;
    }
    e.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  start();

  return {
    destroy() {
      closed = true;
      document.removeEventListener("keydown", onKey);
      kbd?.detach();
      board?.resize?.disconnect();
    },
  };
}
