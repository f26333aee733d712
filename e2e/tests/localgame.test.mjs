// A whole game against level 4 played on this device: started from the
// start page, then the server is stopped — the page goes on, the moves
// made by clicking are judged by the page's own rules, level 4 answers from
// the page's worker, the game ends with its result, the moves replay and
// the game is still there after the page is reopened and in "My games". (Casual games only:
// rated ones stay on the server.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.mjs';
import {
  launchBrowser, newPage, withArtifacts, shot, tid, T, waitGamePage, playOutByClicks, allowOffline, openStart,
} from '../lib/browser.mjs';

/** The local game's state as the page holds it (its own module, already loaded). */
const localState = (page, id) => page.evaluate(async (gameId) => {
  // By the name the page loaded it (this release's), which it holds.
  const { LocalGame } = await import(new URL('localgame.js', document.querySelector('script[type="module"]').src));
  return new LocalGame(gameId).game();
}, id);

test('a game against level 4 on this device goes on with the server gone', { timeout: 170000 }, async () => {
  const server = await startServer({ aiMovetime: 100 });
  const browser = await launchBrowser();
  const pages = [];
  let stopped = false;
  try {
    await withArtifacts('localgame', () => pages, async () => {
      const page = await newPage(browser, 'localgame', { viewport: { width: 1366, height: 768 } });
      pages.push(page);
      await page.goto(`${server.url}/`);
      await openStart(page, 'ai');
      await page.locator(tid('ai-level')).selectOption('4');
      await page.locator(tid('ai-color')).selectOption('white');
      // Casual and untimed: "Play the AI" plays it on this device.
      await page.locator(tid('time-control')).selectOption('none');
      await page.locator(tid('start-ai')).click();
      await page.waitForURL(/\/game\/local-[a-z0-9]+$/);
      await waitGamePage(page);
      const id = new URL(page.url()).pathname.split('/').pop();

      // The server goes away for good.
      allowOffline(page, 'the server is stopped: the page\'s own requests to it fail');
      page.allowedProblems.push({ pattern: /^console\.error: Failed to load resource: net::ERR_CONNECTION_REFUSED/, why: 'the server is stopped' });
      page.allowedProblems.push({ pattern: /^console\.error: WebSocket connection to .* failed/, why: 'the server is stopped' });
      await server.stop();
      stopped = true;

      const first = await localState(page, id);
      assert.equal(first.mode, 'ai');
      assert.equal(first.ai.level, 4);
      const state = await playOutByClicks(page, () => localState(page, id), { stride: 131, timeout: T.ai * 2 });
      assert.equal(state.status, 'over', 'the game ended');
      assert.ok(state.result && state.result.reason, JSON.stringify(state.result));
      await page.locator(tid('result-banner')).waitFor();
      await shot(page, 'localgame', 'over');
      // The moves replay, from the page's rules.
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction((n) => Number(document.querySelector('[data-testid="game"]')?.dataset.ply) === n - 1, state.ply);
      // The game is kept: reopened (still offline, from the page already loaded).
      await page.evaluate((gameId) => { history.pushState(null, '', '/'); history.pushState(null, '', `/game/${gameId}`); dispatchEvent(new PopStateEvent('popstate')); }, id);
      await waitGamePage(page);
      const again = await localState(page, id);
      assert.equal(again.ply, state.ply);
      assert.equal(again.status, 'over');
      // "My games" on the start page lists it, from this device, offline.
      await page.locator(tid('nav-play')).click();
      const line = page.locator(`${tid('my-games')} li[data-game="${id}"]`);
      await line.waitFor();
      const text = await line.textContent();
      assert.match(text, state.result.winner === 'white' ? /won/ : /lost/, text);
      console.log(`local game: ${state.ply} plies, ${state.result.reason}, winner ${state.result.winner}`);
    });
  } finally {
    await browser.close();
    if (!stopped) await server.stop();
  }
});
