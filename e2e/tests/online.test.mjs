// 3. An online game from the start screen, with private seats: the
// creator lands in the game holding one seat and sees the invite link;
// a second browser context opens the invite and gets the other seat (the
// address keeps no token, a reload keeps the seat); a third context opening
// the same invite watches, and says why. Both players' pages and a
// spectator's show every move (data-ply, the move list, the pieces
// drawn). Also a new invite link (the old one claims nothing), a new link
// for a seat (the old one stops working),
// takebacks asked by one seat and accepted / declined by the other, draw
// offers declined and then accepted, and no Content-Security-Policy
// violation on any page (lib/browser.mjs checks every page of every test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Geometry, classify } from '../lib/rules.mjs';
import {
  serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage, waitInSync, waitPly,
  playByClicks, gameUrlParts, waitBoardShows, pageSeats, messageText, storedToken, takeProblems, allowRefusedRequest, openStart, showTab,
} from '../lib/browser.mjs';

const PREFIX = 'online';
const env = serverAndBrowser();
const pages = [];

/** A link element's URL: an input's value, an anchor's href, or its text. */
async function linkOf(page, testid) {
  const loc = page.locator(tid(testid));
  await loc.waitFor({ state: 'visible' });
  const url = await loc.evaluate((el) => el.value || el.href || el.getAttribute('href') || el.textContent || '');
  return new URL(url.trim(), page.url()).href;
}

async function moveListText(page) {
  return (await page.locator(tid('move-list')).textContent()) || '';
}

/** Waits until the page's game root says it holds `seats` (e.g. ['black'], or [] watching). */
async function waitSeats(page, seats) {
  await page.waitForFunction((want) => {
    const el = document.querySelector('[data-testid="game"]');
    return el && el.dataset.ply !== undefined && (el.dataset.seats || '') === want;
  }, seats.join(' '), { timeout: T.step, polling: 50 })
    .catch(async () => { throw new Error(`${page.label}: holds ${JSON.stringify(await pageSeats(page))}, not ${JSON.stringify(seats)}`); });
}

test('online game: an invite claims the second seat once; seats and a spectator see every move', { timeout: 120000 }, async (t) => {
  const { server, browser } = env;
  const { api } = server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const a = await newPage(browser, 'creator', {
      viewport: { width: 1366, height: 768 }, permissions: ['clipboard-read', 'clipboard-write'],
    });
    pages.push(a);
    await a.goto(server.url + '/');
    await openStart(a, 'people');
    await a.locator(tid('variant')).selectOption('standard');
    await a.locator(tid('ai-color')).selectOption('white');
    await a.locator(tid('start-online')).click();
    const mine = await waitGamePage(a);
    const id = mine.id;
    assert.equal(a.url(), `${server.url}/game/${id}`, 'the creator\'s address carries no token');
    assert.ok(mine.token, 'the creator\'s seat token is in the browser\'s storage');
    assert.deepEqual(await api.you(id, mine.token), ['white']);
    await waitSeats(a, ['white']);

    // Waiting: the invite and spectator links, and a status that says so.
    const firstInvite = await linkOf(a, 'invite-link');
    const spectate = await linkOf(a, 'spectate-link');
    const inv = gameUrlParts(firstInvite);
    assert.equal(inv.id, id);
    assert.ok(inv.invite && !inv.token, `the invite link carries an invite code, no token: ${firstInvite}`);
    assert.equal(spectate, `${server.url}/game/${id}`);
    let g = await api.game(id);
    assert.equal(g.mode, 'online');
    assert.equal(g.invite_open, 'black');
    assert.ok(!JSON.stringify(g).includes(inv.invite), 'the state never shows the invite code');
    assert.match(await a.locator(tid('status')).innerText(), /not joined/);
    for (const c of ['offer-draw', 'takeback']) {
      assert.equal(await a.locator(tid(c)).isVisible(), false, `${c} is hidden while nobody could answer`);
    }
    await a.locator(tid('copy-invite')).click();
    assert.equal(await a.evaluate(() => navigator.clipboard.readText()), firstInvite, 'copy-invite copies the invite link');
    await shot(a, PREFIX, 'waiting-1366x768');
    await a.setViewportSize({ width: 390, height: 844 });
    await a.locator(tid('invite-link')).waitFor({ state: 'visible' });
    assert.ok(await a.evaluate(() => document.documentElement.scrollWidth - window.innerWidth) <= 1, 'the waiting screen fits a phone');
    await shot(a, PREFIX, 'waiting-390x844');
    await a.setViewportSize({ width: 1366, height: 768 });

    // A new invite link (as if the first went to the wrong person): shown at
    // once, and the first one claims nothing any more.
    await a.locator(tid('renew-invite')).click();
    await a.locator(tid('invite-renewed')).waitFor({ state: 'visible' });
    const invite = await linkOf(a, 'invite-link');
    const renewedInvite = gameUrlParts(invite);
    assert.equal(renewedInvite.id, id);
    assert.ok(renewedInvite.invite && renewedInvite.invite !== inv.invite, `a new invite code: ${invite}`);
    const oldClaim = await api.req('POST', `/api/games/${id}/claim`, { invite: inv.invite }).catch((e) => e);
    assert.equal(oldClaim.code, 'bad_invite', 'the first invite link claims nothing');
    assert.equal((await api.game(id)).invite_open, 'black');
    await shot(a, PREFIX, 'invite-renewed');

    // The invited player: the seat, a clean address, and a reload keeps it.
    const b = await newPage(browser, 'invited');
    pages.push(b);
    // Each person on an instance of their own when the run has several.
    await b.goto(invite.replace(server.url, server.at(1)));
    // Asked for a name once, before taking the seat (this browser knows none).
    await b.locator(tid('join-form')).waitFor();
    await shot(b, PREFIX, 'join-form');
    await b.locator(tid('join-name')).fill('Bo');
    await b.locator(tid('join-seat')).click();
    const theirs = await waitGamePage(b);
    assert.equal((await api.game(id)).players.black.name, 'Bo', 'the name asked goes with the claim');
    assert.equal(b.url(), `${server.at(1)}/game/${id}`, 'the invited page\'s address carries no invite and no token');
    assert.ok(theirs.token && theirs.token !== mine.token);
    assert.deepEqual(await api.you(id, theirs.token), ['black']);
    await waitSeats(b, ['black']);
    await a.locator(tid('invite')).waitFor({ state: 'hidden' });
    assert.equal((await api.game(id)).invite_open, null);
    await b.reload();
    await waitGamePage(b);
    assert.equal(b.url(), `${server.at(1)}/game/${id}`);
    await waitSeats(b, ['black']);

    // The same invite again: a spectator, told why.
    const s = await newPage(browser, 'spectator');
    pages.push(s);
    // The page tries the used invite (POST …/claim) and the server refuses
    // it with 409 Conflict, as it must: Chromium logs that refused request
    // as a failed resource load. Only that one request is allowed.
    allowRefusedRequest(s, 409, `${server.at(2)}/api/games/${id}/claim`, 'opening an invite already used: the claim is refused with 409');
    await s.goto(invite.replace(server.url, server.at(2)));
    await waitGamePage(s);
    assert.equal(s.url(), `${server.at(2)}/game/${id}`);
    await waitSeats(s, []);
    assert.equal(await messageText(s), 'This invite has been used: you are watching.');
    assert.equal(await storedToken(s, id), null);
    await shot(s, PREFIX, 'invite-used');

    // A new link for the invited seat: the old token stops working, the page plays on with the new one.
    await showTab(b, 'players');
    await b.locator(tid('renew-token')).click();
    const seatLink = await linkOf(b, 'seat-link');
    const renewed = gameUrlParts(seatLink);
    assert.equal(renewed.id, id);
    assert.ok(renewed.token && renewed.token !== theirs.token, `a new personal link: ${seatLink}`);
    assert.match(await b.locator(tid('renew-note')).innerText(), /old link has stopped working/);
    assert.deepEqual(await api.you(id, theirs.token), [], 'the old token holds no seat');
    assert.deepEqual(await api.you(id, renewed.token), ['black']);
    assert.equal(await storedToken(b, id), renewed.token);
    await shot(b, PREFIX, 'renewed-link');
    // The new link on another device holds the seat, and leaves the address clean.
    const d = await newPage(browser, 'other-device');
    await d.goto(seatLink);
    await waitGamePage(d);
    assert.equal(d.url(), `${server.at(1)}/game/${id}`);
    await waitSeats(d, ['black']);
    assert.deepEqual(d.cspViolations, []);
    await d.context().close();

    const seatA = 'white';
    const seatB = 'black';
    const bySide = { [seatA]: a, [seatB]: b };
    a.label = `creator-${seatA}`;
    b.label = `invited-${seatB}`;
    for (const p of [a, b, s]) await waitInSync(p, api, id);

    // eight plies, from both seats; relocations when there are some
    const geo = new Geometry(await api.board());
    const kinds = ['E', 'L', 'R', 'M', 'C', 'T'];
    for (let i = 0; i < 8; i++) {
      g = await api.game(id);
      const rel = g.legal_moves.filter((m) => m.includes('-')).map((m) => classify(geo, g, m)).filter((c) => c.from !== c.to);
      const move = (i >= 4 && rel.length ? rel[0].text : null)
        || g.legal_moves.find((m) => m.startsWith(`${kinds[i % kinds.length]}@`) && !m.endsWith('/0'))
        || g.legal_moves[0];
      const mover = bySide[g.to_move];
      await playByClicks(mover, api, id, move);
      const n = g.ply + 1;
      for (const p of [a, b, s]) {
        await waitPly(p, n);
        await p.waitForFunction((m) => (document.querySelector('[data-testid="move-list"]')?.textContent || '').includes(m), move, { timeout: T.step, polling: 50 })
          .catch(async () => { throw new Error(`${p.label}: move list lacks ${move}: ${JSON.stringify(await moveListText(p))}`); });
      }
      const now = await api.game(id);
      for (const p of [a, b, s]) await waitBoardShows(p, now, `${p.label} after ${move}`);
      if (i === 0 || i === 7) for (const p of [a, b, s]) await shot(p, PREFIX, `ply${n}-${p.label}`);
    }

    // the spectator cannot move: its reserve buttons for the side to move
    // cannot be pressed
    g = await api.game(id);
    for (const k of ['T', 'C', 'E', 'L', 'M', 'R']) {
      const btn = s.locator(tid(`reserve-${g.to_move}-${k}`));
      assert.ok(!(await btn.isVisible()) || await btn.isDisabled(), `the spectator's reserve-${g.to_move}-${k} cannot be pressed`);
    }
    assert.equal((await api.game(id)).ply, 8);
    // nor turn a piece or type a move: those controls are not shown to it
    for (const control of ['rotate', 'rotation', 'move-input']) {
      assert.equal(await s.locator(tid(control)).isVisible(), false, `the spectator sees no ${control}`);
      assert.equal(await a.locator(tid(control)).isVisible(), true, `a player sees ${control}`);
    }

    // a takeback: the side that just moved asks, the other accepts
    g = await api.game(id);
    const asker = bySide[g.to_move === 'white' ? 'black' : 'white'];
    const answerer = bySide[g.to_move];
    await asker.locator(tid('takeback')).click();
    await api.waitFor(id, (x) => x.takeback_request !== null, { timeoutMs: T.step, what: 'the takeback request' });
    const accept = answerer.locator(tid('accept-takeback'));
    await accept.waitFor({ state: 'visible' });
    await shot(answerer, PREFIX, 'takeback-asked');
    await accept.click();
    g = await api.waitFor(id, (x) => x.ply === 7, { timeoutMs: T.step, what: 'the takeback' });
    for (const p of [a, b, s]) await waitPly(p, 7);

    // a draw offer, declined
    const offerer = bySide[g.to_move];
    const other = bySide[g.to_move === 'white' ? 'black' : 'white'];
    await offerer.locator(tid('offer-draw')).click();
    await api.waitFor(id, (x) => x.draw_offer !== null, { timeoutMs: T.step, what: 'the draw offer' });
    await other.locator(tid('decline-draw')).waitFor({ state: 'visible' });
    await shot(other, PREFIX, 'draw-offered');
    await other.locator(tid('decline-draw')).click();
    g = await api.waitFor(id, (x) => x.draw_offer === null, { timeoutMs: T.step, what: 'the declined draw' });
    assert.equal(g.status, 'ongoing');

    // a takeback asked and declined: nothing changes
    {
      const mover = bySide[g.to_move];
      const lastMover = bySide[g.to_move === 'white' ? 'black' : 'white'];
      await lastMover.locator(tid('takeback')).click();
      await api.waitFor(id, (x) => x.takeback_request !== null, { timeoutMs: T.step, what: 'the second takeback request' });
      await mover.locator(tid('decline-takeback')).click();
      g = await api.waitFor(id, (x) => x.takeback_request === null, { timeoutMs: T.step, what: 'the declined takeback' });
      assert.equal(g.ply, 7);
      await mover.locator(tid('accept-takeback')).waitFor({ state: 'hidden' });
    }

    // a draw offered and accepted: the game ends on all three pages
    await other.locator(tid('offer-draw')).click();
    await api.waitFor(id, (x) => x.draw_offer !== null, { timeoutMs: T.step, what: 'the second draw offer' });
    await offerer.locator(tid('accept-draw')).click();
    g = await api.waitFor(id, (x) => x.status === 'over', { timeoutMs: T.step, what: 'the agreed draw' });
    assert.equal(g.result.reason, 'agreement');
    assert.equal(g.result.score, '1/2-1/2');
    for (const p of [a, b, s]) {
      await waitInSync(p, api, id);
      const banner = p.locator(tid('result-banner'));
      await banner.waitFor({ state: 'visible' });
      assert.match((await banner.innerText()) || '', /drawn by agreement/i, `${p.label}: the banner says the draw was agreed`);
    }
    await shot(s, PREFIX, 'draw-agreed-spectator');

    // the spectator's page shows no seat controls: resign, takeback and offer-draw are absent or hidden
    for (const c of ['resign', 'takeback', 'offer-draw']) {
      assert.equal(await s.locator(tid(c)).isVisible(), false, `the spectator's page shows no [data-testid=${c}]`);
    }
  });
});

test('the page runs under the Content-Security-Policy, and breaking it is noticed', { timeout: 30000 }, async () => {
  const { server, browser } = env;
  const page = await newPage(browser, 'csp');
  try {
    const res = await page.goto(server.url + '/');
    const policy = res.headers()['content-security-policy'] || '';
    assert.match(policy, /script-src 'self'/);
    assert.match(policy, /style-src 'self'/);
    await page.locator(tid('start')).waitFor();
    await page.locator(tid('my-games')).waitFor();
    await page.locator(tid('watch-games')).waitFor();
    assert.deepEqual(page.cspViolations, [], 'the start screen breaks no rule');
    assert.deepEqual(takeProblems(page), [], 'the start screen reports no error');
    // The check is live: an inline style attribute is refused and reported.
    await page.evaluate(() => {
      const el = document.createElement('div');
      el.setAttribute('style', 'color: red');
      document.body.append(el);
    });
    await page.waitForFunction(() => true);
    for (let i = 0; i < 50 && !page.cspViolations.length; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(page.cspViolations.some((v) => v.startsWith('style-src')), `an inline style is reported: ${page.cspViolations}`);
    // This test's own violation, taken here (the page closed first, so
    // nothing comes later) so that no later test fails for it: the
    // violation itself and the browser's console line about it.
    await page.context().close();
    for (const x of takeProblems(page)) {
      assert.match(x, /^Content-Security-Policy violation: style-src|^console\.error: Applying inline style violates the following Content Security Policy directive 'style-src 'self''/, 'nothing but the provoked violation');
    }
  } finally {
    await page.context().close();
  }
});

test('a page whose seat got a new link elsewhere says so and watches', { timeout: 30000 }, async () => {
  const { server, browser } = env;
  const { api } = server;
  const page = await newPage(browser, 'renewed-elsewhere');
  pages.push(page);
  await withArtifacts(`${PREFIX}-renewed`, () => [page], async () => {
    const created = await api.create({ mode: 'hotseat' });
    await page.goto(server.url + created.links.white);
    await waitGamePage(page);
    assert.equal(page.url(), `${server.url}/game/${created.id}`);
    await waitSeats(page, ['white', 'black']);
    // Another device renews the seat's token: this page's is void now.
    await api.req('POST', `/api/games/${created.id}/token`, { token: created.seats.white });
    const move = created.game.legal_moves.find((m) => m.startsWith('C@'));
    await page.locator(tid('move-input')).fill(move);
    await page.locator(tid('move-input')).press('Enter');
    await page.waitForFunction(() => /new link was made/.test(document.querySelector('[data-testid="message"]')?.textContent || ''), null, { timeout: T.step });
    await waitSeats(page, []);
    assert.equal(await storedToken(page, created.id), null);
    assert.equal((await api.game(created.id)).ply, 0);
  });
});
