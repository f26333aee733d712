// The game site around a game between people: who is connected and how
// many watch, offers that spectators see too, clocks that the server
// flags, claiming a game the opponent left, analysis refused while people
// play, the end of a game in words, a rematch with the colours swapped,
// and the post-game analysis graph. Games are set up through the API
// (names, clocks, claimed seats), then looked at and played in the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage, pageSeats, showTab,
} from '../lib/browser.mjs';

const PREFIX = 'site';
// A player without a live page for 2 s may be claimed against.
const env = serverAndBrowser({ args: ['--abandon-after', '2s'] });
const pages = [];
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** An online game between Ada (White) and Bo (Black), both seats taken. */
async function onlineGame(api, extra = {}) {
  const created = await api.create({ mode: 'online', side: 'white', name: 'Ada', ...extra });
  const claimed = await api.req('POST', `/api/games/${created.id}/claim`, { invite: created.invite.code, name: 'Bo' });
  return { id: created.id, white: created.seats.white, black: claimed.token };
}

/** Opens game `id` holding `token` (the link of a seat), or watching. */
async function openGame(label, id, token, options = DESKTOP) {
  const page = await newPage(env.browser, label, options);
  pages.push(page);
  await page.goto(`${env.server.url}/game/${id}${token ? `#token=${token}` : ''}`);
  await waitGamePage(page);
  return page;
}

const text = async (page, testid) => ((await page.locator(tid(testid)).textContent()) || '').trim();

test('presence, the number watching and offers are seen by players and spectators', { timeout: 90000 }, async () => {
  const { api } = env.server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const g = await onlineGame(api);
    const ada = await openGame('ada', g.id, g.white);
    const bo = await openGame('bo', g.id, g.black);
    const watcher = await openGame('watcher', g.id, null);
    for (const page of [ada, bo, watcher]) {
      await showTab(page, 'players'); // who plays, who is connected, who watches
      await page.locator(`${tid('presence-white')}[data-connected="true"]`).waitFor();
      await page.locator(`${tid('presence-black')}[data-connected="true"]`).waitFor();
      await page.locator(`${tid('spectators')}[data-count="1"]`).waitFor();
    }
    assert.match(await text(watcher, 'players'), /Ada/);
    assert.match(await text(watcher, 'players'), /Bo/);
    assert.match(await text(ada, 'players'), /Ada \(you\)/);

    // A draw offer, seen by the opponent (to answer) and the spectator.
    await ada.locator(tid('offer-draw')).click();
    await bo.locator(tid('accept-draw')).waitFor();
    await watcher.getByText('White offers a draw').waitFor();
    await bo.locator(tid('decline-draw')).click();
    await watcher.getByText('White offers a draw').waitFor({ state: 'hidden' });
    await shot(watcher, PREFIX, 'spectator-1366');

    // Bo leaves: everyone still here sees it.
    await bo.context().close();
    await ada.locator(`${tid('presence-black')}[data-connected="false"]`).waitFor();
    await watcher.locator(`${tid('presence-black')}[data-connected="false"]`).waitFor();
    await ada.locator(tid('away')).waitFor();
    // Untimed: nothing to claim, the game waits.
    assert.equal(await ada.locator(tid('claim-win')).isVisible(), false);
  });
});

test('analysis is refused while two people play, and opens when the game ends', { timeout: 60000 }, async () => {
  const { api } = env.server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const g = await onlineGame(api);
    const ada = await openGame('ada-fair', g.id, g.white);
    assert.equal(await ada.locator(tid('analyse')).isDisabled(), true);
    assert.match(await text(ada, 'analysis'), /off while two people play/);
    await assert.rejects(api.req('POST', `/api/games/${g.id}/analyse`, { movetime: 20 }), (e) => e.status === 403 && e.code === 'analysis_off');
    await api.req('POST', `/api/games/${g.id}/resign`, { token: g.black });
    await ada.locator(`${tid('result-title')}:text("You won")`).waitFor();
    await ada.locator(`${tid('analyse')}:not([disabled])`).waitFor();
  });
});

test('a real-time clock runs out: the server flags it and both pages say who ran out of time', { timeout: 60000 }, async () => {
  const { api } = env.server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const g = await onlineGame(api, { clock: { type: 'realtime', initial: 6, increment: 0 } });
    const ada = await openGame('ada-clock', g.id, g.white);
    const bo = await openGame('bo-clock', g.id, g.black, PHONE);
    await ada.locator(`${tid('clock-white')}.running`).waitFor();
    assert.match(await text(ada, 'clock-white'), /^0:0\d/);
    assert.match(await text(bo, 'clock-black'), /^0:06/);
    await shot(ada, PREFIX, 'clock-running-1366');
    await shot(bo, PREFIX, 'clock-running-phone');
    // White never moves: the flag falls without anyone doing anything.
    await ada.locator(`${tid('result-title')}:text("You lost")`).waitFor({ timeout: 15000 });
    assert.match(await text(ada, 'result-reason'), /White ran out of time/);
    await bo.locator(`${tid('result-title')}:text("You won")`).waitFor({ timeout: 5000 });
    const state = await api.game(g.id);
    assert.equal(state.result.reason, 'time');
    assert.equal(state.result.winner, 'black');
    await shot(ada, PREFIX, 'lost-on-time-1366');
    await shot(bo, PREFIX, 'won-on-time-phone');
  });
});

test('a player whose opponent left a real-time game claims the win', { timeout: 60000 }, async () => {
  const { api } = env.server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const g = await onlineGame(api, { clock: { type: 'realtime', initial: 300, increment: 5 } });
    const ada = await openGame('ada-left', g.id, g.white);
    const bo = await openGame('bo-left', g.id, g.black);
    await showTab(ada, 'players');
    await ada.locator(`${tid('presence-black')}[data-connected="true"]`).waitFor();
    await bo.context().close();
    await ada.locator(tid('claim-win')).waitFor();
    // The server says when the claim may be made; retry until it may.
    const deadline = Date.now() + 15000;
    for (;;) {
      await ada.locator(tid('claim-win')).click();
      const won = await ada.locator(`${tid('result-title')}:text("You won")`).waitFor({ timeout: 1500 }).then(() => true, () => false);
      if (won) break;
      assert.ok(Date.now() < deadline, 'the claim was never accepted');
    }
    assert.match(await text(ada, 'result-reason'), /Black left the game/);
  });
});

test('the end of a game says who won and why, and a rematch swaps the colours', { timeout: 90000 }, async () => {
  const { api } = env.server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const g = await onlineGame(api);
    const ada = await openGame('ada-rematch', g.id, g.white);
    const bo = await openGame('bo-rematch', g.id, g.black, PHONE);
    await bo.locator(tid('resign')).click();
    await bo.locator(tid('resign')).click(); // the second click confirms
    await ada.locator(`${tid('result-title')}:text("You won")`).waitFor();
    await bo.locator(`${tid('result-title')}:text("You lost")`).waitFor();
    assert.match(await text(ada, 'result-reason'), /Black resigned/);
    assert.ok(await ada.locator(tid('new-game')).isVisible());
    await shot(ada, PREFIX, 'won-1366');
    await shot(bo, PREFIX, 'lost-phone');

    await ada.locator(tid('rematch')).click();
    await bo.locator(tid('accept-rematch')).click();
    // Both pages move to the new game, each holding the other colour.
    for (const [page, seat] of [[ada, 'black'], [bo, 'white']]) {
      await page.waitForFunction((old) => !location.pathname.endsWith(old), g.id, { timeout: T.step * 2 });
      await page.waitForFunction((want) => document.querySelector('[data-testid="game"]')?.dataset.seats === want, seat, { timeout: T.step * 2 });
    }
    const newId = new URL(ada.url()).pathname.split('/').pop();
    const state = await api.game(newId);
    assert.equal(state.players.white.name, 'Bo');
    assert.equal(state.players.black.name, 'Ada');
    assert.deepEqual(await pageSeats(bo), ['white']);
  });
});

test('after a game the post-game analysis draws the evaluation with axes and marks mistakes', { timeout: 90000 }, async () => {
  const { api } = env.server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const created = await api.create({ mode: 'hotseat' });
    const token = created.seats.white;
    let state = created.game;
    for (let i = 0; i < 8; i++) state = await api.move(created.id, token, state.legal_moves[i * 7 % state.legal_moves.length]);
    await api.req('POST', `/api/games/${created.id}/resign`, { token });
    const page = await openGame('review', created.id, token);
    await page.locator(`${tid('eval-graph')}[data-status="done"]`).waitFor({ timeout: 30000 });
    const graph = page.locator(tid('eval-graph'));
    assert.equal(await graph.getAttribute('data-points'), '9');
    assert.ok(await graph.locator('.graph-label.x').count() >= 2, 'move numbers on the x axis');
    assert.ok(await graph.locator('.graph-label.y').count() >= 3, 'values on the y axis');
    await shot(page, PREFIX, 'review-1366');
    // Clicking the graph shows a position of the game.
    const box = await graph.boundingBox();
    await graph.click({ position: { x: box.width * 0.5, y: box.height * 0.5 } });
    await page.waitForFunction(() => document.querySelector('[data-testid="game"]').dataset.replay === 'true');
  });
});

test('a game lost by a connection: the review names the losing move with the winner\'s forced line', { timeout: 90000 }, async () => {
  const { api } = env.server;
  // Black wins by connection with E11-H11/1 (public case 6).
  const moves = 'C@B7/2 R@F2/0 C@P15/2 L@E4/2 R@L13/1 M@F7/0 M@E9/4 L@H12/3 L@I15/2 E@E11/4 I15-I12/4 T@G11/5 R@J4/4 M@K16/0 J4-J11/4 C@C2/0 T@L11/3 E11-H11/1'.split(' ');
  await withArtifacts(PREFIX, () => pages, async () => {
    const created = await api.create({ mode: 'hotseat' });
    const token = created.seats.white;
    for (const m of moves) await api.move(created.id, token, m);
    const page = await openGame('review-lost', created.id, token);
    await page.locator(`${tid('eval-graph')}[data-status="done"]`).waitFor({ timeout: 60000 });
    const { review } = await api.game(created.id);
    assert.ok(review.lost, JSON.stringify(review));
    const item = page.locator(`${tid('mistakes')} li`).filter({ has: page.locator('.mistake-link.losing') });
    const text = (await item.textContent()).trim();
    assert.match(text, /White's losing move: Black wins by force in \d moves?: /, text);
    assert.ok(text.includes(review.lost.line.join(' ')), text);
    assert.equal(await page.locator(`.graph-mistake.losing[data-ply="${review.lost.ply}"]`).count(), 1);
    await shot(page, PREFIX, 'review-lost-1366');
  });
});

test('on a phone an offer and a request appear by the board, in view, and the status line says what is asked', { timeout: 60000 }, async () => {
  const { api } = env.server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const g = await onlineGame(api);
    const ada = await openGame('ada-offers', g.id, g.white);
    const bo = await openGame('bo-phone', g.id, g.black, PHONE);
    /** The element is on the phone's screen as the page opened, nothing scrolled. */
    const inView = async (testid) => {
      const box = await bo.locator(tid(testid)).boundingBox();
      const scrolled = await bo.evaluate(() => window.scrollY);
      assert.ok(box, `${testid} is shown`);
      assert.equal(scrolled, 0, 'the page was not scrolled');
      assert.ok(box.y >= 0 && box.y + box.height <= 844, `${testid} at y ${box.y}–${box.y + box.height} of 844`);
    };

    await ada.locator(tid('offer-draw')).click();
    await bo.locator(tid('accept-draw')).waitFor();
    await inView('accept-draw');
    await inView('decline-draw');
    assert.equal(await text(bo, 'status'), 'White offers a draw.');
    await shot(bo, PREFIX, 'draw-offered-390x844');
    await bo.locator(tid('decline-draw')).tap();
    await bo.locator(tid('accept-draw')).waitFor({ state: 'hidden' });
    assert.notEqual(await text(bo, 'status'), 'White offers a draw.');

    // White moves, then asks to take it back.
    const first = (await api.game(g.id)).legal_moves.find((m) => m.startsWith('C@'));
    await api.move(g.id, g.white, first);
    await api.req('POST', `/api/games/${g.id}/takeback`, { token: g.white, action: 'request' });
    await bo.locator(tid('accept-takeback')).waitFor();
    await inView('accept-takeback');
    assert.match(await text(bo, 'status'), /^White asks to take back/);
    await shot(bo, PREFIX, 'takeback-asked-390x844');
  });
});
