// 3. An online game from the start screen: two browser contexts, one per
// seat link, and a third one spectating. Every move shows up on all three
// pages (data-ply, the move list, the pieces drawn). Also takebacks asked
// by one seat and accepted / declined by the other, and draw offers
// declined and then accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Geometry, classify } from '../lib/rules.mjs';
import {
  serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage, waitInSync, waitPly,
  playByClicks, gameUrlParts, note, waitBoardShows,
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

test('online game: two seats and a spectator see every move', { timeout: 90000 }, async (t) => {
  const { server, browser } = env;
  const { api } = server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const a = await newPage(browser, 'creator');
    pages.push(a);
    await a.goto(server.url + '/');
    await a.locator(tid('variant')).selectOption('standard');
    await a.locator(tid('start-online')).click();
    const invite = await linkOf(a, 'invite-link');
    const spectate = await linkOf(a, 'spectate-link');
    await shot(a, PREFIX, 'links');
    const inv = gameUrlParts(invite);
    const spec = gameUrlParts(spectate);
    assert.ok(inv?.token, `the invite link carries a token: ${invite}`);
    assert.ok(spec && !spec.token, `the spectate link carries no token: ${spectate}`);
    assert.equal(inv.id, spec.id);
    await a.locator(tid('enter-game')).click();
    const mine = await waitGamePage(a);
    assert.equal(mine.id, inv.id);
    assert.ok(mine.token && mine.token !== inv.token, 'enter-game goes to the creator\'s own seat');
    const id = mine.id;

    const b = await newPage(browser, 'invited');
    pages.push(b);
    await b.goto(invite);
    await waitGamePage(b);
    const s = await newPage(browser, 'spectator');
    pages.push(s);
    await s.goto(spectate);
    await waitGamePage(s);

    let g = await api.game(id);
    assert.equal(g.mode, 'online');
    const seatA = await api.seatOf(id, mine.token);
    const seatB = await api.seatOf(id, inv.token);
    assert.notEqual(seatA, seatB);
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
      await playByClicks(mover, api, id, move, t);
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

    // the spectator cannot move: clicking does not reach the server
    g = await api.game(id);
    const sReserve = s.locator(tid(`reserve-${g.to_move}-T`));
    if (await sReserve.isVisible().catch(() => false) && await sReserve.isEnabled().catch(() => false)) {
      const m = g.legal_moves.find((x) => x.startsWith('T@'));
      await playByClicks(s, api, id, m, t).then(
        () => assert.fail('a spectator made a move'),
        () => {},
      );
    }
    assert.equal((await api.game(id)).ply, 8);

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
      assert.ok(((await banner.innerText()) || '').includes(g.result.text), `${p.label}: the banner shows ${g.result.text}`);
    }
    await shot(s, PREFIX, 'draw-agreed-spectator');

    // the spectator's page shows no seat controls that work: its takeback and resign are absent or hidden
    for (const c of ['resign', 'takeback', 'offer-draw']) {
      if (await s.locator(tid(c)).isVisible().catch(() => false)) {
        note(t, `spectator page shows a visible [data-testid=${c}] control`);
      }
    }
  });
});
