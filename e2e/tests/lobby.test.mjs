// The lobby on the start screen (docs/API.md, "The lobby"): a seek made on
// one page appears live on the others, is accepted into one game whose two
// seats the two pages hold; a seek goes when its page closes; two pages
// choosing the same quick pairing meet in one game; the lobby at desktop
// and phone sizes; axe on the start screen with the lobby in every language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, waitLobby, newPage, shot, withArtifacts, tid, T, waitGamePage, waitInSync, playByClicks, openStart,
} from '../lib/browser.mjs';
import { axeViolations, serious, describeViolations } from '../lib/axe.mjs';

const PREFIX = 'lobby';
const env = serverAndBrowser();
const pages = [];
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const LANGS = ['en', 'de', 'ja', 'sk'];

const seekLine = (id) => `${tid('lobby-seeks')} li[data-seek="${id}"]`;

/** A page on the start screen with the lobby's first list drawn (marked, to tell a reload). */
async function lobbyPage(label, url, options = DESKTOP, query = '') {
  const page = await newPage(env.browser, label, options);
  pages.push(page);
  await openLobby(page, url, query);
  return page;
}

async function openLobby(page, url, query = '') {
  await page.goto(`${url}/${query}`);
  await waitLobby(page);
  await page.evaluate(() => { window.__sameDocument = true; });
}

/** Opens a seek from `page`'s form; answers its id (the line marked as the page's own). */
async function openSeek(page, { clock = 'rt-10-5', colour = 'random', variant = 'standard' } = {}) {
  const before = await page.locator(`${tid('lobby-seeks')} li[data-own]`).evaluateAll((els) => els.map((e) => e.dataset.seek));
  await page.locator(tid('seek-clock')).selectOption(clock);
  await page.locator(tid('seek-variant')).selectOption(variant);
  await page.locator(tid('seek-colour')).selectOption(colour);
  await page.locator(tid('seek-create')).click();
  const handle = await page.waitForFunction((old) => {
    const mine = [...document.querySelectorAll('[data-testid="lobby-seeks"] li[data-own]')].map((e) => e.dataset.seek);
    return mine.find((id) => !old.includes(id)) || null;
  }, before, { timeout: T.step });
  return handle.jsonValue();
}

async function closePage(page) {
  await page.context().close();
  pages.splice(pages.indexOf(page), 1);
}

/** The page's document never reloaded since openLobby. */
async function assertNoReload(page) {
  assert.equal(await page.evaluate(() => window.__sameDocument === true), true, `${page.label} reloaded`);
}

/** Nothing scrolls sideways. */
async function assertFits(page) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(over <= 1, `${page.label}: the page scrolls sideways by ${over} px`);
}

test('a seek appears live, is accepted, and both pages hold their seats of one game', { timeout: 90000 }, async () => {
  const { server } = env;
  const { api } = server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const a = await lobbyPage('seeker', server.url);
    const b = await lobbyPage('acceptor', server.at(1));
    const c = await lobbyPage('onlooker', server.at(2));
    for (const p of [a, b, c]) await p.locator(tid('lobby-empty')).waitFor();

    const id = await openSeek(a, { clock: 'rt-10-5', colour: 'white' });
    // The seeker's own line offers no Accept, only Withdraw.
    const own = a.locator(seekLine(id));
    assert.equal(await own.locator(tid('accept-seek')).count(), 0);
    await own.locator(tid('cancel-seek')).waitFor();
    // The others see it come, without a reload, with its settings.
    for (const p of [b, c]) {
      const line = p.locator(seekLine(id));
      await line.waitFor({ timeout: T.step });
      const text = await line.innerText();
      assert.match(text, /10 min \+ 5 s/);
      assert.match(text, /casual/);
      assert.match(text, /you play Black/);
      await line.locator(tid('accept-seek')).waitFor();
      await assertNoReload(p);
    }
    await shot(b, PREFIX, 'seek-listed-1366x768');

    await b.locator(seekLine(id)).locator(tid('accept-seek')).click();
    const [ga, gb] = await Promise.all([waitGamePage(a), waitGamePage(b)]);
    assert.equal(ga.id, gb.id, 'both pages open the same game');
    assert.ok(ga.token && gb.token && ga.token !== gb.token, 'each page keeps its own seat token');
    assert.deepEqual(await api.you(ga.id, ga.token), ['white'], 'the seeker asked for White');
    assert.deepEqual(await api.you(gb.id, gb.token), ['black']);
    // The onlooker's list loses the seek.
    await c.locator(seekLine(id)).waitFor({ state: 'detached', timeout: T.step });
    await c.locator(tid('lobby-empty')).waitFor();
    await assertNoReload(c);

    // Each side moves from its own page.
    let g = await api.game(ga.id);
    assert.equal(g.status, 'ongoing');
    assert.equal(g.to_move, 'white');
    await waitInSync(a, api, ga.id);
    await playByClicks(a, api, ga.id, g.legal_moves.find((m) => m.startsWith('E@') && m.endsWith('/2')), { side: 'white' });
    g = await waitInSync(b, api, gb.id);
    assert.equal(g.to_move, 'black');
    await playByClicks(b, api, gb.id, g.legal_moves.find((m) => m.startsWith('T@')), { side: 'black' });
    g = await waitInSync(a, api, ga.id);
    assert.equal(g.ply, 2);
    await shot(b, PREFIX, 'accepted-game-black');
    for (const p of [a, b, c]) await closePage(p);
  });
});

test('a seek goes when its page closes; a withdrawn seek goes too', { timeout: 60000 }, async () => {
  const { server } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const a = await lobbyPage('closing-seeker', server.url);
    const b = await lobbyPage('watcher', server.at(1));
    const first = await openSeek(a, { clock: 'cor-1' });
    await b.locator(seekLine(first)).waitFor();
    assert.match(await b.locator(seekLine(first)).innerText(), /1 day/);
    // Withdrawn by its Withdraw button.
    await a.locator(seekLine(first)).locator(tid('cancel-seek')).click();
    await b.locator(seekLine(first)).waitFor({ state: 'detached', timeout: T.step });
    await a.locator(seekLine(first)).waitFor({ state: 'detached', timeout: T.step });
    // Gone with its tab; a fourth seek at once is refused in the page's words.
    const second = await openSeek(a, { clock: 'rt-3-2', variant: 'basic' });
    await b.locator(seekLine(second)).waitFor();
    await openSeek(a, { clock: 'rt-5-3' });
    await openSeek(a, { clock: 'rt-10-5' });
    await a.locator(tid('seek-create')).click();
    await a.waitForFunction(() => document.querySelector('[data-testid="lobby-message"]').textContent.trim() !== '', null, { timeout: T.step });
    assert.equal((await a.locator(tid('lobby-message')).innerText()).trim(), 'You can have at most 3 seeks open at once.');
    await closePage(a);
    await b.locator(seekLine(second)).waitFor({ state: 'detached', timeout: T.step });
    await b.locator(tid('lobby-empty')).waitFor();
    await assertNoReload(b);
    await closePage(b);
  });
});

test('after a dropped connection the lobby reconnects and draws the list again', { timeout: 60000 }, async () => {
  const { server } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const a = await lobbyPage('steady', server.url);
    // The dropping page's sockets, kept where the test can close them (as a network drop would).
    const b = await newPage(env.browser, 'dropping', DESKTOP);
    pages.push(b);
    await b.context().addInitScript(() => {
      const Native = window.WebSocket;
      window.__sockets = [];
      window.WebSocket = class extends Native {
        constructor(...args) {
          super(...args);
          window.__sockets.push(this);
        }
      };
    });
    await openLobby(b, server.url);
    const theirs = await openSeek(a, { clock: 'rt-5-3' });
    const mine = await openSeek(b, { clock: 'rt-3-2' });
    await b.locator(seekLine(theirs)).waitFor();
    await a.locator(seekLine(mine)).waitFor();
    const drops = await b.evaluate(() => {
      const open = window.__sockets.filter((w) => w.url.endsWith('/api/lobby/live') && w.readyState === 1);
      for (const w of open) w.close();
      return open.length;
    });
    assert.equal(drops, 1, 'one lobby socket');
    // Its seek went with the connection; the page says so, then is live again with the list rebuilt.
    await a.locator(seekLine(mine)).waitFor({ state: 'detached', timeout: T.step });
    await b.waitForFunction(() => /withdrawn/.test(document.querySelector('[data-testid="lobby-status"]').textContent), null, { timeout: T.step })
      .catch(async () => { throw new Error(`no word of the drop: ${await b.locator(tid('lobby-status')).innerText()}`); });
    await b.waitForFunction(() => /^Live/.test(document.querySelector('[data-testid="lobby-status"]').textContent), null, { timeout: T.step * 2 });
    await b.locator(seekLine(theirs)).waitFor();
    await b.locator(seekLine(mine)).waitFor({ state: 'detached' });
    assert.equal(await b.evaluate(() => window.__sockets.filter((w) => w.url.endsWith('/api/lobby/live')).length), 2, 'one new socket');
    // Live again: a new seek comes in.
    const next = await openSeek(a, { clock: 'cor-3' });
    await b.locator(seekLine(next)).waitFor();
    await assertNoReload(b);
    for (const p of [a, b]) await closePage(p);
  });
});

test('two pages choosing 5+3 quick pairing meet in one game', { timeout: 60000 }, async () => {
  const { server } = env;
  const { api } = server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const p = await lobbyPage('quick-1', server.url);
    const q = await lobbyPage('quick-2', server.at(1));
    // Not signed in: casual, and the page says so.
    assert.match(await p.locator(tid('lobby-rated-note')).innerText(), /not rated/);
    const button = p.locator(tid('quick-rt-5-3'));
    assert.equal((await button.innerText()).trim(), '5 min + 3 s');
    // Searching, then cancelled, then searching again.
    await button.click();
    await p.locator(tid('pool-cancel')).waitFor();
    await p.waitForFunction(() => /Searching… \d+ s/.test(document.querySelector('[data-testid="quick-rt-5-3"]').textContent));
    assert.equal(await button.getAttribute('aria-pressed'), 'true');
    assert.equal(await p.locator(tid('quick-rt-3-2')).isDisabled(), true, 'one search at a time');
    await p.waitForFunction(() => /Searching… [1-9]\d* s/.test(document.querySelector('[data-testid="quick-rt-5-3"]').textContent), null, { timeout: T.step });
    await shot(p, PREFIX, 'quick-searching-1366x768');
    await p.locator(tid('pool-cancel')).click();
    await p.locator(tid('pool-cancel')).waitFor({ state: 'hidden' });
    assert.equal((await button.innerText()).trim(), '5 min + 3 s');
    // A pool entry is not an open seek: the other page's list stays empty.
    await button.click();
    await p.locator(tid('pool-cancel')).waitFor();
    assert.equal(await q.locator(`${tid('lobby-seeks')} li[data-seek]`).count(), 0);
    await q.locator(tid('quick-rt-5-3')).click();
    const [gp, gq] = await Promise.all([waitGamePage(p), waitGamePage(q)]);
    assert.equal(gp.id, gq.id, 'one game for both');
    const seats = [...await api.you(gp.id, gp.token), ...await api.you(gq.id, gq.token)].sort();
    assert.deepEqual(seats, ['black', 'white']);
    const g = await api.game(gp.id);
    assert.deepEqual(g.clock && [g.clock.type, g.clock.initial, g.clock.increment], ['realtime', 300, 3]);
    for (const x of [p, q]) await closePage(x);
  });
});

test('signed in, quick pairing is rated and the seek form offers a rated game', { timeout: 60000 }, async () => {
  const { server } = env;
  const { api } = server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const signed = [];
    for (const [label, name, base] of [['rated-1', 'Lobby_Ada', server.at(0)], ['rated-2', 'Lobby_Ben', server.at(1)]]) {
      const page = await newPage(env.browser, label, DESKTOP);
      pages.push(page);
      const res = await page.request.post(`${base}/api/account/signup`, {
        data: { name, password: 'quiet harbour lanterns 42' }, headers: { origin: base },
      });
      assert.equal(res.status(), 201, `sign-up of ${name}: ${await res.text()}`);
      await openLobby(page, base);
      assert.equal((await page.locator(tid('lobby-rated-note')).innerText()).trim(), `Rated games: you are signed in as ${name}.`);
      signed.push(page);
    }
    const [p, q] = signed;
    // The form's rated box: there, and off without a clock.
    await p.locator(tid('seek-clock')).selectOption('none');
    assert.equal(await p.locator(tid('seek-rated')).isDisabled(), true);
    await p.locator(tid('seek-clock')).selectOption('rt-10-5');
    assert.equal(await p.locator(tid('seek-rated')).isDisabled(), false);
    await p.locator(tid('seek-rated')).check();
    await p.locator(tid('seek-create')).click();
    const line = q.locator(`${tid('lobby-seeks')} li[data-seek]`).filter({ hasText: 'Lobby_Ada' });
    await line.waitFor();
    const text = await line.innerText();
    assert.match(text, /rated/);
    assert.match(text, /1500/, 'a new account shows the starting rating');
    await shot(q, PREFIX, 'rated-seek-1366x768');
    // Rated quick pairing 10+5.
    await p.locator(`${tid('lobby-seeks')} li[data-own] ${tid('cancel-seek')}`).click();
    await line.waitFor({ state: 'detached' });
    await p.locator(tid('quick-rt-10-5')).click();
    await p.locator(tid('pool-cancel')).waitFor();
    await q.locator(tid('quick-rt-10-5')).click();
    const [gp, gq] = await Promise.all([waitGamePage(p), waitGamePage(q)]);
    assert.equal(gp.id, gq.id);
    const g = await api.game(gp.id);
    assert.equal(g.rated, true, 'a rated game');
    for (const x of [p, q]) await closePage(x);
  });
});

test('the lobby at 1366 × 768 and 390 × 844, and axe in every language', { timeout: 120000 }, async (t) => {
  const { server } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    // Seeks of others to list: a named anonymous player's and two more.
    const seeder = await newPage(env.browser, 'seeder', DESKTOP);
    pages.push(seeder);
    await seeder.goto(`${server.url}/`);
    await openStart(seeder, 'people');
    await seeder.locator(tid('player-name')).fill('Ilse Stein');
    await openLobby(seeder, server.url);
    const ids = [
      await openSeek(seeder, { clock: 'rt-3-2', colour: 'black' }),
      await openSeek(seeder, { clock: 'cor-3', variant: 'basic' }),
      await openSeek(seeder, { clock: 'none', colour: 'white' }),
    ];
    const desk = await lobbyPage('desk', server.url);
    for (const id of ids) await desk.locator(seekLine(id)).waitFor();
    const own = await openSeek(desk, { clock: 'rt-30-20' });
    assert.match(await desk.locator(seekLine(ids[0])).innerText(), /Ilse Stein/);
    await desk.locator(tid('lobby')).scrollIntoViewIfNeeded();
    await shot(desk, PREFIX, 'lobby-1366x768');
    await assertFits(desk);

    const phone = await lobbyPage('phone', server.url, PHONE);
    for (const id of [...ids, own]) await phone.locator(seekLine(id)).waitFor();
    await assertFits(phone);
    // Every line's button is on screen, inside the list.
    const outside = await phone.evaluate(() => [...document.querySelectorAll('[data-testid="lobby-seeks"] button')]
      .filter((b) => b.getBoundingClientRect().right > document.documentElement.clientWidth).length);
    assert.equal(outside, 0, 'no seek button sticks out of the screen');
    await shot(phone, PREFIX, 'lobby-390x844');

    // axe: the start screen with the lobby (seeks of others, one's own) in each language.
    const failures = [];
    for (const lang of LANGS) {
      await openLobby(desk, server.url, `?lang=${lang}`);
      await desk.waitForFunction((l) => document.documentElement.lang === l, lang);
      for (const id of ids) await desk.locator(seekLine(id)).waitFor();
      await openSeek(desk, { clock: 'rt-5-3' });
      const all = await axeViolations(desk);
      const bad = serious(all);
      t.diagnostic(`${lang}: ${bad.length} serious/critical; all: ${all.map((v) => `${v.id}[${v.impact}]`).join(', ') || 'none'}`);
      if (bad.length) failures.push(`${lang}:\n  ${describeViolations(bad)}`);
      // No catalogue key shows in the lobby.
      const text = await desk.locator(tid('lobby')).innerText();
      assert.doesNotMatch(text, /\blobby\.[a-z_.]+/, `${lang}: a catalogue key shows: ${text}`);
      if (lang === 'ja') await shot(desk, PREFIX, 'lobby-ja-1366x768');
    }
    assert.equal(failures.length, 0, `axe violations:\n${failures.join('\n')}`);
    for (const p of [seeder, desk, phone]) await closePage(p);
  });
});
