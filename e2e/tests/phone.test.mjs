// 6. On a phone: a small touch screen (390 × 844, touch events only).
// The page fits without sideways scrolling, and a game against the AI is
// played by taps: a piece added with the on-screen rotate button (each
// move tapped, shown, then confirmed), the stack under a cell shown by
// tapping it (a sheet), and a piece moved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMove } from '../lib/rules.mjs';
import { serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage, waitInSync, readRotation, BOARD, openStart } from '../lib/browser.mjs';

const PREFIX = 'phone';
const env = serverAndBrowser();
const pages = [];

/** A finger on the cell: the cell itself must take the tap (nothing drawn over it). */
const tapCell = (page, cell) => page.locator(`${BOARD} [data-cell="${cell}"]`).first().tap();

async function tapRotation(page, r) {
  for (let taps = 0; taps < 7; taps++) {
    if ((await readRotation(page)) === r) return taps;
    await page.locator(tid('rotate')).tap();
  }
  assert.fail(`rotation reads ${await readRotation(page)} after 7 taps, wanted ${r}`);
}

/** Taps `move` (add or relocation) for White and waits for the server to have it and the AI's answer. */
async function tapMove(page, api, id, move) {
  const before = await api.game(id);
  const mv = parseMove(move);
  if (mv.type === 'add') await page.locator(tid(`reserve-white-${mv.kind}`)).tap();
  else await tapCell(page, mv.from);
  await tapRotation(page, mv.rotation);
  await tapCell(page, mv.to);
  // By touch the first tap on a target only shows the piece there: the confirm button plays it.
  await page.locator(tid('confirm-move')).tap();
  await api.waitFor(id, (g) => g.ply > before.ply, { timeoutMs: T.move, what: `${move} to reach the server` });
  return api.waitFor(id, (g) => g.status === 'over' || g.to_move === 'white', { timeoutMs: T.ai, what: 'the AI reply' });
}

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('on a phone: the page fits, and taps add, rotate, inspect and move', { timeout: 120000 }, async () => {
  const { server, browser } = env;
  const { api } = server;
  const page = await newPage(browser, 'phone', {
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    await page.goto(server.url + '/');
    assert.ok((await overflow(page)) <= 1, 'the start screen scrolls sideways');
    await openStart(page, 'ai', { tap: true });
    await page.locator(tid('ai-level')).selectOption('1');
    await page.locator(tid('ai-color')).selectOption('white');
    await page.locator(tid('start-ai-server')).tap();
    const { id } = await waitGamePage(page);
    assert.ok((await overflow(page)) <= 1, 'the game screen scrolls sideways');
    const box = await page.locator(BOARD).boundingBox();
    assert.ok(box && box.width >= 300, `the board is ${box?.width} px wide on a 390 px screen`);

    // An addition in a rotation other than 0, by the rotate button.
    let g = await waitInSync(page, api, id);
    const add = g.legal_moves.find((m) => /^[TCELMR]@[A-Q]\d+\/[1-5]$/.test(m) && m.startsWith('E@'));
    assert.ok(add, 'an E piece can be added in some rotation other than 0');
    g = await tapMove(page, api, id, add);
    assert.equal(g.moves[0], add);
    g = await waitInSync(page, api, id);
    await shot(page, PREFIX, 'after-add');

    // Tapping a cell shows its stack: the AI's piece (tapping our own
    // movable piece would pick it up as well).
    const cell = parseMove(g.last_move).to;
    await tapCell(page, cell);
    await page.locator(tid('stack-view')).filter({ hasText: cell }).waitFor({ state: 'visible' });
    assert.match(await page.locator(tid('stack-view')).textContent(), /black/i);
    // The stack opens as a sheet over the bottom of the screen: close it to go on.
    await page.locator(tid('stack-close')).tap();
    await page.locator(tid('stack-view')).waitFor({ state: 'hidden' });

    // Keep adding until a piece of ours may move, then move it by taps.
    for (let i = 0; i < 6 && g.status === 'ongoing'; i++) {
      const relocation = g.legal_moves.find((m) => m.includes('-') && parseMove(m).from !== parseMove(m).to);
      if (relocation) {
        const plies = g.ply;
        g = await tapMove(page, api, id, relocation);
        assert.equal(g.moves[plies], relocation);
        await waitInSync(page, api, id);
        await shot(page, PREFIX, 'after-move');
        // Resigning asks for a second tap, in the words of a touch screen.
        await page.locator(tid('resign')).tap();
        assert.equal((await page.locator(tid('resign')).textContent()).trim(), 'Tap again to resign');
        return;
      }
      const next = g.legal_moves.find((m) => m.includes('@'));
      g = await tapMove(page, api, id, next);
      g = await waitInSync(page, api, id);
    }
    assert.fail('no piece of White could move within six more additions');
  });
});
