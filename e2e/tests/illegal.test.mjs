// 2. Illegal moves by clicking (and typing): the page shows the server's
// reason and the game does not change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Geometry } from '../lib/rules.mjs';
import {
  serverAndBrowser, startAiGame, newPage, shot, withArtifacts, tid, T, waitInSync,
  clickMove, clickCell, playByClicks, gameAttrs, messageText, readRotation, BOARD,
} from '../lib/browser.mjs';

const PREFIX = 'illegal';
const env = serverAndBrowser();
const pages = [];

/** Waits until the message shows text matching `re`; returns it. */
async function waitMessage(page, re) {
  try {
    await page.waitForFunction((src) => new RegExp(src, 'i').test(document.querySelector('[data-testid="message"]')?.textContent || ''), re.source, { timeout: T.step, polling: 50 });
  } catch {
    throw new Error(`the message never matched ${re}: it shows ${JSON.stringify(await messageText(page))}`);
  }
  return messageText(page);
}

test('illegal placements show the server\'s reason and change nothing', { timeout: 60000 }, async (t) => {
  const { server, browser } = env;
  const { api } = server;
  const page = await newPage(browser, 'white');
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    const { id } = await startAiGame(page, server.url);
    let g = await waitInSync(page, api, id);
    assert.equal(g.ply, 0);

    // rotating: the rotate button, the R key (Shift+R back) and the mouse wheel
    await page.locator(tid('reserve-white-E')).click();
    assert.equal(await readRotation(page), 0);
    await page.locator(tid('rotate')).click();
    assert.equal(await readRotation(page), 1);
    await page.keyboard.press('r');
    assert.equal(await readRotation(page), 2);
    await page.keyboard.press('Shift+R');
    assert.equal(await readRotation(page), 1);
    await page.locator(`${BOARD} [data-cell="B5"]`).first().hover();
    await page.mouse.wheel(0, 100);
    await page.waitForFunction(() => /2/.test(document.querySelector('[data-testid="rotation"]')?.textContent || ''), null, { timeout: T.step })
      .catch(async () => { throw new Error(`the mouse wheel did not rotate: rotation shows ${await readRotation(page)}`); });
    // the legal targets of E at rotation 2 are marked; I9 (central) is not
    const legalCells = await page.locator(`${BOARD} [data-cell].legal`).evaluateAll((els) => els.map((e) => e.dataset.cell));
    const expected = g.legal_moves.filter((m) => /^E@.*\/2$/.test(m)).map((m) => m.slice(2, -2));
    assert.deepEqual(new Set(legalCells), new Set(expected), 'the cells with class legal are the legal targets');
    await page.keyboard.press('Escape');
    await page.locator(tid('reserve-white-E')).click();
    assert.equal(await readRotation(page), 0, 'a newly picked reserve piece starts at rotation 0');
    await page.keyboard.press('Escape');

    // a T in the central hexagon (I9)
    await clickMove(page, 'T@I9/0', 'white');
    const central = await waitMessage(page, /central/);
    await shot(page, PREFIX, 'central-refused');
    assert.match(central, /I9/);
    g = await api.game(id);
    assert.equal(g.ply, 0, 'the refused move changed the game');
    assert.equal((await gameAttrs(page)).ply, 0);

    // a legal move clears the way; then an addition onto an occupied cell
    await playByClicks(page, api, id, 'E@C5/1');
    g = await api.waitFor(id, (s) => s.ply === 2, { timeoutMs: T.ai, what: 'the AI reply' });
    g = await waitInSync(page, api, id);
    // a T with its PÜNCT on a cell of the AI's piece (not on one of our
    // own, which a page may well take for selecting that piece)
    const geo = new Geometry(await api.board());
    const cell = g.pieces.find((p) => p.side === 'black').cells.find((c) => geo.shape('T', 0, c));
    await clickMove(page, `T@${cell}/0`, 'white');
    const occ = await waitMessage(page, /occupied/);
    await shot(page, PREFIX, 'occupied-refused');
    assert.match(occ, new RegExp(cell));
    assert.equal((await api.game(id)).ply, 2);
    assert.equal((await gameAttrs(page)).ply, 2);

    // a relocation that is not in line: our E (PÜNCT on C5) to an empty cell off its lines
    const far = geo.names.find((c) => !geo.inLine('C5', c) && !g.stacks[c] && geo.distance('C5', c) === 2);
    await clickCell(page, 'C5');
    await page.locator(`${BOARD} [data-cell="C5"]`).first().waitFor({ state: 'attached' });
    await clickCell(page, far);
    const notInLine = await waitMessage(page, /in line/);
    await shot(page, PREFIX, 'not-in-line-refused');
    assert.match(notInLine, new RegExp(far));
    assert.equal((await api.game(id)).ply, 2);

    // typed moves: one that is no move at all, one in the centre
    const input = page.locator(tid('move-input'));
    await input.fill('X@Z9/9');
    await input.press('Enter');
    await waitMessage(page, /not a move|rotation|kind/);
    await input.fill('T@I9/0');
    await input.press('Enter');
    await waitMessage(page, /central/);
    assert.equal((await api.game(id)).ply, 2);

    // and a legal typed move goes through
    const legal = g.legal_moves.find((m) => m.startsWith('T@'));
    await input.fill(legal);
    await input.press('Enter');
    g = await api.waitFor(id, (s) => s.ply >= 3, { timeoutMs: T.move, what: `typed move ${legal}` });
    assert.equal(g.moves[2], legal);
    await waitInSync(page, api, id);
    await shot(page, PREFIX, 'typed-move');
  });
});
