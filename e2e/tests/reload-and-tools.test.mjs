// 4. Reload mid-game and go on; then the smaller tools on the same game:
// the stack view, replaying an earlier ply, the analysis, a takeback
// against the AI, resigning and the record download.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Geometry } from '../lib/rules.mjs';
import { chooseMove, newProgress, noteMove } from '../lib/strategy.mjs';
import {
  serverAndBrowser, startAiGame, newPage, shot, withArtifacts, tid, T, waitGamePage, waitInSync, waitPly,
  playByClicks, gameAttrs, BOARD, waitBoardShows, showTab,
} from '../lib/browser.mjs';

const PREFIX = 'reload';
const env = serverAndBrowser();
const pages = [];

/** Plays one move of ours by clicks and waits for the AI's reply (and the page to show it). */
async function ourMove(page, api, id, geo, progress, t) {
  let g = await waitInSync(page, api, id);
  const { move } = await chooseMove(api, geo, g, progress);
  await playByClicks(page, api, id, move);
  noteMove(progress, move, await api.game(id, g.ply + 1), 'white');
  await api.waitFor(id, (s) => s.status === 'over' || s.to_move === 'white', { timeoutMs: T.ai, what: 'the AI reply' });
  return waitInSync(page, api, id);
}

const pieceCount = (page) => page.locator(`${BOARD} [data-piece-cell]`).count();

test('reload mid-game, then stack view, replay, analysis, takeback, resign', { timeout: 120000 }, async (t) => {
  const { server, browser } = env;
  const { api } = server;
  const page = await newPage(browser, 'white');
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    const { id, token } = await startAiGame(page, server.url);
    const url = page.url();
    const geo = new Geometry(await api.board());
    const progress = newProgress();

    // three moves each (the planner builds a bridge on the way)
    let g;
    for (let i = 0; i < 3; i++) g = await ourMove(page, api, id, geo, progress, t);
    assert.equal(g.ply, 6);
    const piecesBefore = await pieceCount(page);
    await shot(page, PREFIX, 'before-reload');

    // reload: same ply, same pieces, and play goes on
    await page.reload();
    await waitGamePage(page);
    assert.equal(page.url(), url);
    await waitPly(page, 6);
    g = await waitInSync(page, api, id);
    assert.equal(await pieceCount(page), piecesBefore, 'the reloaded board draws as many pieces');
    await waitBoardShows(page, g, 'after the reload');
    await shot(page, PREFIX, 'after-reload');
    assert.equal(url, `${server.url}/game/${id}`, 'the game\'s address carries no token');
    // An old link with the token in the query still opens the seat, and
    // the address is cleaned at once.
    const legacy = await newPage(browser, 'legacy-link');
    await legacy.goto(`${server.url}/game/${id}?token=${token}`);
    await waitGamePage(legacy);
    assert.equal(legacy.url(), `${server.url}/game/${id}`);
    await legacy.waitForFunction(() => document.querySelector('[data-testid="game"]')?.dataset.seats === 'white', null, { timeout: T.step });
    assert.deepEqual(legacy.cspViolations, []);
    await legacy.context().close();
    g = await ourMove(page, api, id, geo, progress, t);
    assert.equal(g.ply, 8);
    await shot(page, PREFIX, 'moved-after-reload');

    // the stack view: hover the highest stack (the cell itself takes the pointer)
    const [cell, dots] = Object.entries(g.stacks).sort((x, y) => y[1].length - x[1].length)[0];
    await showTab(page, 'board');
    await page.locator(`${BOARD} [data-cell="${cell}"]`).first().hover();
    const view = page.locator(tid('stack-view'));
    await page.waitForFunction(() => (document.querySelector('[data-testid="stack-view"]')?.textContent || '').trim().length > 0, null, { timeout: T.step })
      .catch(() => { throw new Error(`hovering cell ${cell} shows nothing in stack-view`); });
    const viewText = (await view.innerText()) || '';
    await shot(page, PREFIX, `stack-view-${cell}`);
    t.diagnostic(`stack view of ${cell} (${dots.length} dots): ${viewText.trim().replace(/\s+/g, ' ')}`);
    assert.match(viewText, new RegExp(cell), 'the stack view names its cell');
    for (const d of dots) assert.match(viewText, new RegExp(d.side, 'i'), 'the stack view shows each dot\'s side');
    await page.mouse.move(1, 1);

    // replay: one ply back shows the position before the last move
    const live = g.ply;
    await page.locator(tid('replay-prev')).click();
    await waitBoardShows(page, await api.game(id, live - 1), 'replay-prev');
    const slider = page.locator(tid('replay-slider'));
    assert.equal(Number(await slider.inputValue()), live - 1, 'the slider follows replay-prev');
    const replayAttrs = await page.locator(tid('game')).evaluate((el) => ({ ply: el.dataset.ply, replay: el.dataset.replay }));
    t.diagnostic(`while replaying ply ${live - 1} the game root shows data-ply=${replayAttrs.ply} data-replay=${replayAttrs.replay}`);
    assert.equal((await api.game(id)).ply, live, 'replaying changes nothing on the server');
    await shot(page, PREFIX, `replay-ply${live - 1}`);
    // the slider to ply 2
    await slider.fill('2');
    await waitBoardShows(page, await api.game(id, 2), 'replay-slider at 2');
    // next, step by step, back to the live position
    await page.locator(tid('replay-next')).click();
    await waitBoardShows(page, await api.game(id, 3), 'replay-next to 3');
    for (let i = 3; i < live; i++) await page.locator(tid('replay-next')).click();
    await waitBoardShows(page, g, 'replay-next back to the live position');
    assert.equal((await gameAttrs(page)).ply, live);

    // the analysis shows a best move
    await showTab(page, 'analysis');
    await page.locator(tid('analyse')).click();
    const analysis = page.locator(tid('analysis'));
    await page.waitForFunction(() => /[TCELMR]@[A-Q]\d+\/\d|[A-Q]\d+-[A-Q]\d+\/\d|\bpass\b/.test(document.querySelector('[data-testid="analysis"]')?.textContent || ''), null, { timeout: T.move })
      .catch(async () => { throw new Error(`analysis shows no move: ${JSON.stringify(await analysis.textContent().catch(() => null))}`); });
    const analysisText = ((await analysis.innerText()) || '').trim().replace(/\s+/g, ' ');
    t.diagnostic(`analysis: ${analysisText}`);
    const shownBest = analysisText.match(/[TCELMR]@[A-Q]\d+\/\d|[A-Q]\d+-[A-Q]\d+\/\d|\bpass\b/)[0];
    assert.ok(g.legal_moves.includes(shownBest), `the analysis' move ${shownBest} is legal here`);
    // the evaluation graph is the post-game analysis (analysis.js): not drawn while the game goes on
    assert.equal(await page.locator(tid('eval-graph')).isVisible(), false, 'eval-graph is hidden while the game goes on');
    await shot(page, PREFIX, 'analysis');

    // a takeback against the AI undoes its reply and our move
    await page.locator(tid('takeback')).click();
    g = await api.waitFor(id, (s) => s.ply === live - 2, { timeoutMs: T.step, what: 'the takeback' });
    await waitPly(page, live - 2);
    assert.equal(g.to_move, 'white');

    // resign: the first click only asks for the confirmation (in the page,
    // no dialog), the second resigns
    const dialogs = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
    const resign = page.locator(tid('resign'));
    const unarmed = ((await resign.innerText()) || '').trim();
    await resign.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="resign"]')?.classList.contains('armed'), null, { timeout: T.step })
      .catch(() => { throw new Error('the first click on resign does not ask for a confirmation'); });
    assert.notEqual(((await resign.innerText()) || '').trim(), unarmed, 'the armed resign button says it asks to confirm');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await api.game(id)).status, 'ongoing', 'the first click on resign does not resign');
    await resign.click();
    g = await api.waitFor(id, (s) => s.status === 'over', { timeoutMs: T.step, what: 'the resignation' });
    assert.deepEqual(dialogs, [], 'resigning opens no browser dialog');
    assert.equal(g.result.reason, 'resignation');
    await waitInSync(page, api, id);
    const banner = page.locator(tid('result-banner'));
    await banner.waitFor({ state: 'visible' });
    assert.match((await banner.textContent()) || '', /resign/i);
    await shot(page, PREFIX, 'resigned');

    await showTab(page, 'moves');
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: T.step }),
      page.locator(tid('download-record')).click(),
    ]);
    const text = readFileSync(await download.path(), 'utf8');
    assert.equal(text, await api.record(id));
    assert.ok(token);
  });
});
