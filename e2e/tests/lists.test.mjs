// The start screen's lists: "My games" (the games this browser holds a
// seat in: opponent, whose turn, the result from our side, gone games
// left out) and "Watch" (online games between people with a move).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage, storedToken, openStart,
} from '../lib/browser.mjs';

const PREFIX = 'lists';
const env = serverAndBrowser();
const pages = [];

/** The text of game `id`'s line in list `list` (a test id), once it shows and `pred(text)` holds. */
async function lineText(page, list, id, pred = () => true, what = '') {
  const line = page.locator(`${tid(list)} li[data-game="${id}"]`);
  const end = Date.now() + T.step * 2;
  let text = '';
  for (;;) {
    if (await line.count()) {
      text = (await line.evaluate((el) => el.innerText)).replace(/\s+/g, ' ').trim();
      if (pred(text)) return text;
    }
    if (Date.now() > end) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const all = ((await page.locator(tid(list)).textContent()) || '').replace(/\s+/g, ' ');
  throw new Error(`${page.label}: ${list} has no line for ${id}${what ? ` ${what}` : ''}; line ${JSON.stringify(text)}; list ${JSON.stringify(all.slice(0, 600))}`);
}

/** The game ids listed in `list`, top to bottom. */
function listedIds(page, list) {
  return page.locator(`${tid(list)} li[data-game]`).evaluateAll((els) => els.map((e) => e.dataset.game));
}

/** The invite code the page keeps for its online game `id`. */
function storedInvite(page, id) {
  return page.evaluate((id) => JSON.parse(localStorage.getItem('punct:games') || '{}')[id]?.invite || null, id);
}

async function createFromStart(page, url, startId, { level, colour } = {}) {
  await page.goto(url + '/');
  await page.locator(tid('start')).waitFor();
  await openStart(page, startId === 'start-ai-server' ? 'ai' : 'people');
  if (level) await page.locator(tid('ai-level')).selectOption(String(level));
  if (colour) await page.locator(tid('ai-color')).selectOption(colour);
  await page.locator(tid(startId)).click();
  return waitGamePage(page);
}

test('My games: opponents, whose turn, results; games the server lacks are left out', { timeout: 90000 }, async (t) => {
  const { server, browser } = env;
  const { api } = server;
  const ann = await newPage(browser, 'ann', { viewport: { width: 1366, height: 768 } });
  const bob = await newPage(browser, 'bob');
  pages.push(ann, bob);
  await withArtifacts(PREFIX, () => pages, async () => {
    await ann.goto(server.url + '/');
    const empty = await lineTextOrEmpty(ann);
    assert.match(empty, /No games yet/);
    await openStart(ann, 'people');
    await ann.locator(tid('player-name')).fill('Ann');

    const ai = await createFromStart(ann, server.url, 'start-ai-server', { level: 1, colour: 'white' });
    const online = await createFromStart(ann, server.url, 'start-online', { colour: 'white' });
    const invite = await storedInvite(ann, online.id);
    assert.ok(invite, 'the creator keeps the invite');
    const hot = await createFromStart(ann, server.url, 'start-hotseat');
    // a game this browser remembers but the server does not have
    await ann.evaluate(() => {
      const games = JSON.parse(localStorage.getItem('punct:games') || '{}');
      games.gone4242 = { token: 'nothing', seats: ['white'] };
      localStorage.setItem('punct:games', JSON.stringify(games));
    });

    await ann.goto(server.url + '/');
    assert.match(await lineText(ann, 'my-games', ai.id), /vs AI level 1.*your turn/);
    assert.match(await lineText(ann, 'my-games', online.id), /waiting for opponent.*your turn/);
    assert.match(await lineText(ann, 'my-games', hot.id), /one screen.*White to move/);
    assert.match(await lineText(ann, 'my-games', hot.id), /0 moves/);
    assert.deepEqual(await listedIds(ann, 'my-games'), [hot.id, online.id, ai.id], 'newest first, the missing game left out');
    await shot(ann, PREFIX, 'my-games-desktop');

    // Bob takes the invite; his page learns his seat from the server
    await bob.goto(server.url + '/');
    await openStart(bob, 'people');
    await bob.locator(tid('player-name')).fill('Bob');
    await bob.goto(`${server.url}/game/${online.id}#invite=${invite}`);
    const claimed = await waitGamePage(bob);
    assert.ok(claimed.token, 'Bob holds a seat');
    let g = await api.game(online.id);
    assert.equal(g.players.black.name, 'Bob', 'the claim sends the name');
    assert.equal(g.players.white.name, 'Ann');
    await bob.goto(server.url + '/');
    assert.match(await lineText(bob, 'my-games', online.id, (s) => /their turn/.test(s), 'saying their turn'), /vs Ann.*their turn/);

    // Ann moves: her turn is over, Bob's begins
    g = await api.move(online.id, online.token, g.legal_moves[0]);
    await ann.goto(server.url + '/');
    assert.match(await lineText(ann, 'my-games', online.id), /vs Bob.*their turn.*1 move\b/);
    await bob.reload();
    assert.match(await lineText(bob, 'my-games', online.id, (s) => /your turn/.test(s), 'saying your turn'), /vs Ann.*your turn/);

    // a finished game: the result from our side
    await api.req('POST', `/api/games/${ai.id}/resign`, { token: await storedToken(ann, ai.id) });
    await api.req('POST', `/api/games/${online.id}/resign`, { token: claimed.token });
    await ann.reload();
    assert.match(await lineText(ann, 'my-games', ai.id), /vs AI level 1.*you lost \(0-1\)/);
    assert.match(await lineText(ann, 'my-games', online.id), /vs Bob.*you won \(1-0\)/);
    await shot(ann, PREFIX, 'my-games-results');
    await bob.reload();
    assert.match(await lineText(bob, 'my-games', online.id), /you lost/);

    // a line opens its game, in our seat
    await ann.locator(`${tid('my-games')} li[data-game="${hot.id}"] a`).click();
    const opened = await waitGamePage(ann);
    assert.equal(opened.id, hot.id);
  });
});

/** The text of an empty "My games". */
async function lineTextOrEmpty(page) {
  const list = page.locator(tid('my-games'));
  await list.waitFor();
  await page.waitForFunction(() => !/Loading/.test(document.querySelector('[data-testid="my-games"]')?.textContent || 'Loading'), null, { timeout: T.step });
  return ((await list.textContent()) || '').trim();
}

test('Watch lists online games between people with a move, not empty ones', { timeout: 60000 }, async (t) => {
  const { server, browser } = env;
  const { api } = server;
  const claim = (id, invite, name) => api.req('POST', `/api/games/${id}/claim`, { invite, name });

  // played: both seats taken, one move, a clock
  const played = await api.create({ mode: 'online', name: 'Cleo', clock: { type: 'realtime', initial: 300, increment: 3 } });
  await claim(played.id, played.invite.code, 'Dan');
  await api.move(played.id, played.seats.white, played.game.legal_moves[0]);
  // both seats taken but no move yet
  const idle = await api.create({ mode: 'online', name: 'Eve' });
  await claim(idle.id, idle.invite.code, 'Finn');
  // a move, but nobody has joined
  const alone = await api.create({ mode: 'online', name: 'Gus' });
  await api.move(alone.id, alone.seats.white, alone.game.legal_moves[0]);
  // a correspondence game, black to move after two plies
  const slow = await api.create({ mode: 'online', name: 'Hana', clock: { type: 'correspondence', days: 3 } });
  const joined = await claim(slow.id, slow.invite.code);
  let s = await api.move(slow.id, slow.seats.white, slow.game.legal_moves[0]);
  s = await api.move(slow.id, joined.token, s.legal_moves[0]);

  const page = await newPage(browser, 'watcher', { viewport: { width: 1366, height: 768 } });
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    await page.goto(server.url + '/');
    const line = await lineText(page, 'watch-games', played.id);
    assert.match(line, /Cleo vs Dan/);
    assert.match(line, /Black to move/);
    assert.match(line, /\b1 move\b/);
    assert.match(line, /5 min \+ 3 s/);
    const slowLine = await lineText(page, 'watch-games', slow.id);
    assert.match(slowLine, /Hana vs Anonymous/);
    assert.match(slowLine, /2 moves.*3 days a move/);
    const ids = await listedIds(page, 'watch-games');
    assert.ok(!ids.includes(idle.id), 'a game without a move is not listed');
    assert.ok(!ids.includes(alone.id), 'a game waiting for its second player is not listed');
    assert.deepEqual(ids.sort(), [played.id, slow.id].sort());
    await shot(page, PREFIX, 'watch-desktop');

    // the phone: both lists readable, nothing wider than the screen
    const phone = await newPage(browser, 'phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    pages.push(phone);
    await phone.goto(server.url + '/');
    await lineText(phone, 'watch-games', played.id);
    const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 390, `the start screen scrolls sideways on a phone: ${wide} px wide`);
    await shot(phone, PREFIX, 'start-phone');

    // a line opens the game to watch
    await page.locator(`${tid('watch-games')} li[data-game="${played.id}"] a`).click();
    const opened = await waitGamePage(page);
    assert.equal(opened.id, played.id);
    assert.equal(opened.token, null, 'opened as a spectator');
  });
});

test('My games shows the newest 12 and the others on request', { timeout: 60000 }, async (t) => {
  const { server, browser } = env;
  const { api } = server;
  const made = [];
  for (let i = 0; i < 13; i++) made.push(await api.create({ mode: 'hotseat' }));
  const page = await newPage(browser, 'many');
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    await page.goto(server.url + '/');
    // as if this browser had started them, oldest first (no seats stored: the page asks)
    await page.evaluate((games) => {
      const stored = {};
      for (const g of games) stored[g.id] = { token: g.seats.white };
      localStorage.setItem('punct:games', JSON.stringify(stored));
    }, made);
    await page.reload();
    const newest = made.slice().reverse().map((g) => g.id);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="my-games"] li[data-game]').length === n, 12, { timeout: T.step });
    assert.deepEqual(await listedIds(page, 'my-games'), newest.slice(0, 12));
    const more = page.locator(tid('my-games-more'));
    assert.match(await more.innerText(), /Show all 13 games/);
    await more.click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="my-games"] li[data-game]').length === n, 13, { timeout: T.step });
    assert.deepEqual(await listedIds(page, 'my-games'), newest);
    assert.ok(!(await more.isVisible()), 'the button goes once all are shown');
    // the seats were asked for once and kept: both, at one screen
    const seats = await page.evaluate((id) => JSON.parse(localStorage.getItem('punct:games'))[id].seats, newest[0]);
    assert.deepEqual(seats, ['white', 'black']);
    assert.match(await lineText(page, 'my-games', newest[0]), /one screen.*White to move/);
  });
});
