// Aborting an online game in the browser: both players' pages offer
// Abort while the game may still be aborted (before each side has moved);
// one click arms it, a second aborts; both end screens then say the game
// was aborted, by whom, with no score and no rating change, and Abort is
// gone. After both sides have moved, Abort is not offered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage, waitPly } from '../lib/browser.mjs';

const PREFIX = 'abort';
const env = serverAndBrowser();
const pages = [];

/** An online game with both seats taken: [game id, white's link, black's link, tokens]. */
async function onlineGame(api) {
  const created = await api.create({ mode: 'online' });
  const claimed = await api.req('POST', `/api/games/${created.id}/claim`, { invite: created.invite.code });
  return { id: created.id, white: created.links.white, black: claimed.link, tokens: { white: created.seats.white, black: claimed.token } };
}

test('online game: a player aborts before each side has moved, and both end screens say so', { timeout: 120000 }, async () => {
  const { server, browser } = env;
  const { api } = server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const g = await onlineGame(api);
    const white = await newPage(browser, 'white');
    const black = await newPage(browser, 'black');
    pages.push(white, black);
    await white.goto(server.url + g.white);
    await waitGamePage(white);
    await black.goto(server.at(1) + g.black);
    await waitGamePage(black);

    // White moves once: Black may still abort, and so may White.
    const first = (await api.game(g.id)).legal_moves.find((m) => m.startsWith('C@'));
    await api.req('POST', `/api/games/${g.id}/moves`, { move: first, token: g.tokens.white });
    await waitPly(black, 1);
    await waitPly(white, 1);
    const abort = black.locator(tid('abort'));
    await abort.waitFor({ state: 'visible', timeout: T.step });
    await white.locator(tid('abort')).waitFor({ state: 'visible', timeout: T.step });
    assert.equal(await abort.textContent(), 'Abort');
    await abort.click();
    assert.equal(await abort.textContent(), 'Click again to abort', 'the first click only arms it');
    assert.equal((await api.game(g.id)).status, 'ongoing');
    await abort.click();

    for (const page of [black, white]) {
      const title = page.locator(tid('result-title'));
      await title.waitFor({ state: 'visible', timeout: T.step });
      await page.waitForFunction(() => document.querySelector('[data-testid="result-title"]')?.textContent === 'Game aborted',
        null, { timeout: T.step, polling: 50 });
      assert.equal(await page.locator(tid('result-reason')).textContent(),
        'Black aborted the game before both sides had moved: no result.');
      assert.equal(await page.locator(tid('result-banner')).getAttribute('data-outcome'), 'aborted');
      assert.equal(await page.locator(tid('result-rating')).isVisible(), false, 'no rating change is shown');
      assert.equal(await page.locator(tid('abort')).isVisible(), false, 'Abort is gone once the game is over');
    }
    const state = await api.game(g.id);
    assert.equal(state.result.reason, 'aborted');
    assert.equal(state.result.score, '*');
    await shot(black, PREFIX, 'aborted');

    // Both sides have moved: no Abort offered (the server says so too).
    const h = await onlineGame(api);
    for (const side of ['white', 'black']) {
      const move = (await api.game(h.id)).legal_moves.find((m) => m.startsWith('C@'));
      await api.req('POST', `/api/games/${h.id}/moves`, { move, token: h.tokens[side] });
    }
    const late = await newPage(browser, 'late');
    pages.push(late);
    await late.goto(server.at(2) + h.white);
    await waitGamePage(late);
    await waitPly(late, 2);
    await late.locator(tid('resign')).waitFor({ state: 'visible', timeout: T.step });
    assert.equal(await late.locator(tid('abort')).isVisible(), false, 'no Abort after both sides have moved');
    const refused = await api.req('POST', `/api/games/${h.id}/abort`, { token: h.tokens.white }).catch((e) => e);
    assert.equal(refused.code, 'too_late_to_abort');
  });
});
