// Steps shared by the tests of the learning screens (the tutorial at
// /learn, the puzzles at /puzzles) and the journey through them: waiting
// for a lesson or a puzzle to be drawn, the judge's answer, solving a
// puzzle, and three ways to make one move on a move picker's board (or a
// game's): by mouse clicks, by finger taps with the confirmation, and by
// keyboard alone (kbd.js: the arrows walk the cursor, a kind's letter
// picks it, R turns, Enter chooses).
import { T, tid, BOARD, clickCell, setRotation, cellLocator, readRotation } from './browser.mjs';
import { parseMove } from './rules.mjs';
import { tabTo, cursorOf, cursorTo, turnTo } from './keys.mjs';

export const DESKTOP = { viewport: { width: 1366, height: 768 } };
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** How far the page scrolls sideways (0: not at all). */
export const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Waits for the judge's answer in box `testid` with data-result=`result`; answers its text. */
export async function judged(page, testid, result) {
  const box = page.locator(`${tid(testid)}[data-result="${result}"]`);
  try {
    await box.waitFor({ timeout: T.move });
  } catch (e) {
    const now = page.locator(tid(testid));
    const shown = (await now.count()) ? `${await now.getAttribute('data-result')}: ${JSON.stringify(((await now.textContent()) || '').trim())}` : 'no answer box';
    throw new Error(`${page.label}: no "${result}" answer in ${testid} (it shows ${shown})`);
  }
  return ((await box.textContent()) || '').trim();
}

export const lessonFeedback = (page, result) => judged(page, 'lesson-feedback', result);
export const puzzleFeedback = (page, result) => judged(page, 'puzzle-feedback', result);

/** Waits until lesson `lesson` (the API's) is drawn: its address, its pieces on the board, its goal's cells marked. */
export async function waitLesson(page, lesson) {
  await page.waitForURL(new RegExp(`/learn/${lesson.id}$`));
  await page.locator(`[data-lesson="${lesson.id}"] ${tid('board')} [data-cell]`).first().waitFor({ state: 'attached' });
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="board"] [data-piece-cell]').length === n,
    lesson.state.pieces.length, { timeout: T.step });
  for (const cell of lesson.marks) await page.locator(`${tid('board')} [data-goal="${cell}"]`).waitFor({ state: 'attached' });
}

/** Waits until puzzle `p` (the API's full puzzle) is drawn with its pieces. */
export async function waitPuzzle(page, p) {
  await page.locator(`[data-puzzle="${p.id}"] ${tid('board')} [data-cell]`).first().waitFor({ state: 'attached' });
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="board"] [data-piece-cell]').length === n,
    p.state.pieces.length, { timeout: T.step });
}

/** Opens puzzle `p` by its address and waits for it. */
export async function openPuzzle(page, url, p, query = '') {
  await page.goto(`${url}/puzzles/${p.id}${query}`);
  await waitPuzzle(page, p);
}

/**
 * Solves puzzle `p` (the API's full puzzle) with `play` (one of the ways
 * below); answers the judge's last message. A win in two: the first move,
 * the site's reply drawn as the last move, the winning move.
 */
export async function solvePuzzle(page, p, t, play = clickPlay) {
  if (p.kind === 'win-in-two') {
    const line = p.lines[0];
    await play(page, line.first, p.side, t);
    const good = await puzzleFeedback(page, 'good');
    if (!good.includes(line.reply)) throw new Error(`${p.id}: the answer to ${line.first} does not name the reply ${line.reply}: ${good}`);
    await page.locator(`${tid('board')} [data-last-move]`).first().waitFor({ state: 'attached' });
    await play(page, line.wins[0], p.side, t);
  } else {
    await play(page, p.solutions[0], p.side, t);
  }
  return puzzleFeedback(page, 'right');
}

// ---------------------------------------------------------------- making a move
//
// Each way is play(page, move, side, t, {beforePlay}): `side` is the
// mover's (whose reserve holds the kind); `beforePlay(page)`, when given,
// runs once the move is set up, just before the action that plays it
// (the click on the target, the confirmation tap, Enter).

/** By mouse: the reserve (or the piece), `rotate`, the target; a confirmation when the page asks for one. */
export async function clickPlay(page, move, side, t, { beforePlay } = {}) {
  const mv = parseMove(move);
  if (mv.type === 'pass') {
    await page.locator(tid('pass')).click();
    return;
  }
  if (mv.type === 'add') await page.locator(tid(`reserve-${side}-${mv.kind}`)).click();
  else await clickCell(page, mv.from);
  await setRotation(page, mv.rotation);
  if (beforePlay) await beforePlay(page);
  await clickCell(page, mv.to);
  const confirm = page.locator(tid('confirm-move'));
  if (await confirm.isVisible()) await confirm.click();
}

/** A finger on `cell`: a tap at the centre of its place on the screen (whatever lies on it takes the tap, as for a finger). */
export async function tapCell(page, cell) {
  const loc = cellLocator(page, cell);
  await loc.scrollIntoViewIfNeeded();
  const box = await loc.boundingBox();
  if (!box) throw new Error(`${page.label}: cell ${cell} has no place on the screen`);
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
}

/** Taps `rotate` until the rotation reads r. */
async function tapRotation(page, r) {
  for (let taps = 0; ; taps++) {
    const now = await readRotation(page);
    if (now === r) return;
    if (taps >= 7) throw new Error(`${page.label}: rotation shows ${now} after ${taps} taps on rotate, wanted ${r}`);
    await page.locator(tid('rotate')).tap();
    await page.waitForFunction((prev) => !(document.querySelector('[data-testid="rotation"]')?.textContent || '').includes(String(prev)),
      now, { timeout: T.step, polling: 20 })
      .catch(() => { throw new Error(`${page.label}: a tap on rotate leaves the rotation at ${now}`); });
  }
}

/**
 * By touch: taps on the reserve (or the piece), `rotate`, the target —
 * which only shows the piece there with a Play button (a finger covers
 * the cell) — and then Play.
 */
export async function tapPlay(page, move, side, t, { beforePlay } = {}) {
  const mv = parseMove(move);
  if (mv.type === 'pass') {
    await page.locator(tid('pass')).tap();
    return;
  }
  if (mv.type === 'add') await page.locator(tid(`reserve-${side}-${mv.kind}`)).tap();
  else {
    await tapCell(page, mv.from);
    await page.locator(`${BOARD} [data-origin="${mv.from}"]`).waitFor({ state: 'attached' });
  }
  await tapRotation(page, mv.rotation);
  await tapCell(page, mv.to);
  const confirm = page.locator(tid('confirm-move'));
  try {
    await confirm.waitFor({ state: 'visible', timeout: T.step });
  } catch {
    throw new Error(`${page.label}: tapping ${mv.to} for ${move} showed no confirmation (a finger's tap plays only after Play)`);
  }
  if (beforePlay) await beforePlay(page);
  await confirm.tap();
}

/**
 * By keyboard alone, on the board's cursor (kbd.js): Tab to the board if
 * it lacks the focus; an addition: the kind's letter; a move: the cursor
 * to the piece and Enter; then R until the rotation reads right, the
 * cursor to the target (stepping off and back when it is there already,
 * so that its cell is said with the new verdict) and Enter.
 * `geo`: lib/rules.mjs Geometry. Answers play(page, move, side, t, opts).
 */
export function keyPlay(geo) {
  return async (page, move, side, t, { beforePlay } = {}) => {
    const mv = parseMove(move);
    if (!(await page.evaluate(() => !!document.activeElement?.matches('[data-testid="board"]')))) {
      await tabTo(page, tid('board'));
    }
    if (mv.type === 'add') {
      await page.keyboard.press(mv.kind);
      await page.locator(`${tid(`reserve-${side}-${mv.kind}`)}.selected`).waitFor();
    } else {
      await cursorTo(page, geo, mv.from);
      await page.keyboard.press('Enter'); // picks the piece up
      await page.locator(`${BOARD} [data-origin="${mv.from}"]`).waitFor({ state: 'attached' });
    }
    await turnTo(page, mv.rotation, 'r');
    if ((await cursorOf(page)) === mv.to) {
      const before = mv.to;
      await page.keyboard.press('ArrowUp');
      if ((await cursorOf(page)) === before) await page.keyboard.press('ArrowDown');
    }
    await cursorTo(page, geo, mv.to);
    if (beforePlay) await beforePlay(page);
    await page.keyboard.press('Enter');
  };
}
