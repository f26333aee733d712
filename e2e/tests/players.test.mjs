// The site's players' journey, whole, as the issue's "done means" tells
// it: a newcomer signs up with a passkey, another with a password; both
// click 5+3 quick pairing and meet in one rated game; a third, signed-out
// page finds it on the newcomer's profile ("Playing now") and watches;
// the game is played to its end by clicks on the board; each end screen
// shows the new ratings and their changes, and each profile's chart one
// point; back "the next day", a correspondence game paired the same way
// shows in the header as "Your turn in 1 game", and opened in a tab that
// keeps no token (another instance, as another device) it holds the
// account's seat and takes the move.
//
// Each person's pages are on an instance of their own (`server.at(i)`):
// with PUNCT_TEST_INSTANCES=3 on PostgreSQL (scripts/test.sh's second
// run), three `punct serve` processes on one database, as behind a
// sticky balancer; otherwise one server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, waitLobby, newPage, watchPage, shot, withArtifacts, tid, T, waitGamePage, waitInSync, playByClicks, pageSeats,
} from '../lib/browser.mjs';
import { addDevice, signUpWithPasskey } from '../lib/passkeys.mjs';
import { DESKTOP, PHONE } from '../lib/learn.mjs';

const PREFIX = 'players';
const env = serverAndBrowser();
const pages = [];
const PASSWORD = 'quiet harbour lanterns 42';
/** Plies the stronger side gets to win by itself before the weaker resigns (by clicks too). */
const MAX_PLIES = 70;

async function open(label, options = DESKTOP) {
  const page = await newPage(env.browser, label, options);
  pages.push(page);
  return page;
}

const text = async (page, testid) => ((await page.locator(tid(testid)).textContent()) || '').trim();

/** Signs up as `name` with a password through the sign-up screen at `base`. */
async function signUpWithPassword(page, base, name) {
  await page.goto(`${base}/signup`);
  await page.locator(tid('signup-name')).fill(name);
  await page.locator(tid('signup-password')).fill(PASSWORD);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/account/signup') && r.request().method() === 'POST');
  await page.locator(tid('signup-submit')).click();
  assert.equal((await answer).status(), 201, `${page.label}: signing up ${name}`);
  await page.locator(`${tid('nav-user')}[data-user="${name}"]`).waitFor();
}

/** Opens the start screen at `base` and waits for the lobby's first list. */
async function openLobby(page, base) {
  await page.goto(`${base}/`);
  await waitLobby(page);
}

/**
 * Both pages click quick pairing `clock` (the first waits searching) and
 * land on one game; answers {id, first, second} with each page's token
 * and the milliseconds from the second click to both pages on the game.
 */
async function quickPair(first, second, clock) {
  await first.locator(tid(`quick-${clock}`)).click();
  await first.locator(tid('pool-cancel')).waitFor();
  const clicked = Date.now();
  await second.locator(tid(`quick-${clock}`)).click();
  const [a, b] = await Promise.all([waitGamePage(first), waitGamePage(second)]);
  const ms = Date.now() - clicked;
  assert.equal(a.id, b.id, `${clock}: one game for both`);
  assert.ok(a.token && b.token && a.token !== b.token, `${clock}: each page holds a seat of its own`);
  return { id: a.id, first: a.token, second: b.token, ms };
}

test('a newcomer with a passkey is paired at 5+3, plays a rated game to its end watched by a third page, sees the new rating and its chart; the next day: "Your turn in 1 game"', { timeout: 170000 }, async () => {
  const { server } = env;
  const { api } = server;
  await withArtifacts(PREFIX, () => pages, async () => {
    // Ann is new: a passkey on her device, the site by its name (instance 0).
    const ann = await open('ann');
    await addDevice(ann);
    const annBase = server.siteAt(0);
    await signUpWithPasskey(ann, annBase, 'Ann');
    // Ben signs up with a password on instance 1.
    const ben = await open('ben');
    const benBase = server.at(1);
    await signUpWithPassword(ben, benBase, 'Ben');

    // Both click 5 + 3: signed in, the pairing is rated.
    for (const [page, base] of [[ann, annBase], [ben, benBase]]) {
      await openLobby(page, base);
      assert.match(await page.locator(tid('lobby-rated-note')).innerText(), /signed in as/);
    }
    const paired = await quickPair(ann, ben, 'rt-5-3');
    console.log(`# pairing: ${paired.ms} ms from the second click to both pages on the game (${server.instances} instance(s))`);
    const { id } = paired;
    let g = await api.game(id);
    assert.equal(g.rated, true, 'quick pairing between two accounts is rated');
    assert.deepEqual([g.clock.type, g.clock.initial, g.clock.increment], ['realtime', 300, 3]);
    assert.deepEqual([g.players.white.name, g.players.black.name].sort(), ['Ann', 'Ben']);
    const annSide = g.players.white.name === 'Ann' ? 'white' : 'black';
    const benSide = annSide === 'white' ? 'black' : 'white';
    assert.deepEqual(await api.you(id, paired.first), [annSide]);
    assert.deepEqual(await api.you(id, paired.second), [benSide]);

    // Carl, signed out, on instance 2: Ann's profile says what she plays now.
    const carl = await open('carl');
    await carl.goto(`${server.at(2)}/@/Ann`);
    await carl.locator(`${tid('profile')}[data-status="ready"]`).waitFor();
    await carl.locator(`${tid('profile-playing')} a[href="/game/${id}"]`).click();
    const watching = await waitGamePage(carl);
    assert.equal(watching.id, id);
    assert.equal(watching.token, null, 'a spectator holds no seat');

    // The game, by clicks: Ann plays the analysis's best move, Ben the
    // first legal one, until it ends (or, after MAX_PLIES, Ben resigns).
    const seat = { [annSide]: ann, [benSide]: ben };
    while (g.status === 'ongoing' && g.ply < MAX_PLIES) {
      const page = seat[g.to_move];
      let move = g.legal_moves[0];
      if (page === ann) {
        try {
          const a = await api.analyse({ position: g.position, movetime: 100 });
          if (g.legal_moves.includes(a.best)) move = a.best;
        } catch {
          // busy: any legal move keeps the game going
        }
      }
      await waitInSync(page, api, id);
      await playByClicks(page, api, id, move, { side: g.to_move });
      g = await api.game(id);
      if (g.ply === 6) {
        // The spectator follows, without a reload.
        await waitInSync(carl, api, id);
        await shot(carl, PREFIX, 'spectator-mid-game');
      }
    }
    if (g.status === 'ongoing') {
      await waitInSync(ben, api, id);
      await ben.locator(tid('resign')).click();
      await ben.locator(tid('resign')).click();
      g = await api.waitFor(id, (x) => x.status !== 'ongoing', { what: 'the resignation' });
    }
    console.log(`# the rated game ended at ply ${g.ply}: ${g.result.score}, ${g.result.reason}`);
    assert.equal(g.status, 'over');
    assert.equal(g.result.winner, annSide, `Ann wins against the first legal move: ${JSON.stringify(g.result)}`);

    // Each end screen: the result, then both new ratings with their changes.
    for (const [page, title] of [[ann, 'You won'], [ben, 'You lost']]) {
      await page.locator(`${tid('result-title')}:text("${title}")`).waitFor({ timeout: T.move });
      await page.locator(`${tid('result-rating')}:not([hidden])`).waitFor({ timeout: 20000 });
      const up = Number(await page.locator(tid(`rating-${annSide}`)).getAttribute('data-change'));
      const down = Number(await page.locator(tid(`rating-${benSide}`)).getAttribute('data-change'));
      assert.ok(up > 0 && down < 0, `${page.label}: Ann's rating up (${up}), Ben's down (${down})`);
      assert.match(await text(page, `rating-${annSide}`), /\d+\??\s?\(\+\d+\)$/);
      assert.match(await text(page, `rating-${benSide}`), /\d+\??\s?\(−\d+\)$/);
      await shot(page, PREFIX, `${page.label}-end`);
    }
    await waitInSync(carl, api, id);
    await carl.locator(`${tid('result-banner')}:not([hidden])`).waitFor();
    await carl.locator(`${tid('result-rating')}:not([hidden])`).waitFor({ timeout: 20000 });
    const shownChange = Number(await ann.locator(tid(`rating-${annSide}`)).getAttribute('data-change'));

    // The profiles: one rated game, one point on each chart (rated once),
    // on the desktop and on the phone.
    for (const [name, options, base] of [['Ann', DESKTOP, annBase], ['Ben', PHONE, server.at(2)]]) {
      const page = await open(`profile-${name}`, options);
      await page.goto(`${base}/@/${name}`);
      await page.locator(`${tid('profile')}[data-status="ready"]`).waitFor();
      const chart = page.locator(`${tid('rating-chart')}[data-status="ready"]`);
      await chart.waitFor();
      assert.equal(await chart.getAttribute('data-points'), '1', `${name}: one point, the one rated game`);
      const rating = Number((await page.locator(`${tid('profile-ratings')} .rating-value`).first().textContent()).replace('?', ''));
      if (name === 'Ann') assert.equal(rating, 1500 + shownChange, 'the profile shows the rating the end screen showed');
      else assert.ok(rating < 1500, `Ben's rating went down (${rating})`);
      await shot(page, PREFIX, `profile-${name}`);
    }

    // The next day: a correspondence game, paired the same way, waits on
    // whoever plays White; a fresh page of theirs, on another instance,
    // says so in the header and leads to the game.
    for (const [page, base] of [[ann, annBase], [ben, benBase]]) await openLobby(page, base);
    const corr = await quickPair(ann, ben, 'cor-1');
    const c = await api.game(corr.id);
    assert.equal(c.clock.type, 'correspondence');
    const first = c.players.white.name === 'Ann' ? ann : ben;
    const firstToken = first === ann ? corr.first : corr.second;
    // A new tab (on another instance when there are several) that keeps
    // no seat token, as another device signed in to the account would.
    const back = watchPage(await first.context().newPage(), 'next-day');
    const backBase = first === ann ? server.siteAt(2) : server.at(2);
    await back.goto(`${backBase}/rules`);
    await back.evaluate(() => localStorage.removeItem('punct:games'));
    const turns = back.locator(tid('turns-summary'));
    await turns.filter({ hasText: 'Your turn in 1 game' }).waitFor({ timeout: T.step * 2 });
    await turns.click();
    await back.locator(`${tid('turns-list')} li[data-game="${corr.id}"] a`).click();
    // The game opens with the account's seat (asked for with the session),
    // and the move is made there.
    const reopened = await waitGamePage(back);
    assert.equal(reopened.id, corr.id);
    assert.equal(reopened.token, firstToken, 'the account\'s seat, its token unchanged');
    assert.deepEqual(await pageSeats(back), ['white']);
    await shot(back, PREFIX, 'your-turn-next-day');
    await playByClicks(back, api, corr.id, c.legal_moves.find((m) => m.startsWith('C@')), { side: 'white' });
    assert.equal((await api.game(corr.id)).ply, 1);
    await back.close();
    for (const p of pages.splice(0)) await p.context().close();
  });
});
