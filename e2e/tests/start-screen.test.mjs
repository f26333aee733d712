// The start screen's other ways in: a hot-seat basic game (both sides
// clicked on one page), importing a record file, and "My games"; the
// player's name (remembered, sent, checked) and the clock chosen at creation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage, waitInSync, waitPly,
  playByClicks, ARTIFACTS,
} from '../lib/browser.mjs';

const PREFIX = 'start';
const env = serverAndBrowser();
const pages = [];

test('hot-seat basic game, record import and My games', { timeout: 60000 }, async (t) => {
  const { server, browser } = env;
  const { api } = server;
  const page = await newPage(browser, 'hotseat');
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    await page.goto(server.url + '/');
    await page.locator(tid('start')).waitFor();
    await page.locator(tid('variant')).selectOption('basic');
    await page.locator(tid('start-hotseat')).click();
    const { id } = await waitGamePage(page);
    let g = await api.game(id);
    assert.equal(g.mode, 'hotseat');
    assert.equal(g.variant, 'basic');

    // both sides on one page; in the basic game the centre is open after the first move
    const moves = [
      g.legal_moves.find((m) => m.startsWith('E@') && m.endsWith('/2')),
    ];
    await playByClicks(page, api, id, moves[0]);
    g = await waitInSync(page, api, id);
    assert.equal(g.to_move, 'black');
    const central = g.legal_moves.find((m) => /^T@I9\//.test(m));
    assert.ok(central, 'the basic game allows I9 after the first move');
    await playByClicks(page, api, id, central);
    g = await waitInSync(page, api, id);
    const third = g.legal_moves.find((m) => m.startsWith('M@') && !m.endsWith('/0'));
    await playByClicks(page, api, id, third);
    g = await waitInSync(page, api, id);
    assert.deepEqual(g.moves, [moves[0], central, third]);
    await shot(page, PREFIX, 'hotseat-basic');

    // import a record file: a finished game of five plies
    const rec = await api.create({ mode: 'hotseat', variant: 'standard' });
    let s = rec.game;
    for (const m of ['C@B7/2', 'R@F2/0', 'B7-B5/1', 'T@L13/2', 'E@P10/0']) s = await api.move(rec.id, rec.seats.white, m);
    const record = await api.record(rec.id);
    const file = path.join(ARTIFACTS, 'import-me.pgn');
    writeFileSync(file, record);
    await page.goto(server.url + '/');
    await page.locator(tid('open-record')).setInputFiles(file);
    await page.waitForURL((u) => u.pathname.startsWith('/game/') && !u.pathname.endsWith(rec.id), { timeout: T.step * 2 });
    const imported = await waitGamePage(page);
    g = await api.game(imported.id);
    assert.deepEqual(g.moves, s.moves);
    await waitPly(page, 5);
    await shot(page, PREFIX, 'imported');
    // the imported game goes on from the page
    await waitInSync(page, api, imported.id);
    assert.ok(imported.token, `the imported game opens with its seats (mode ${g.mode})`);
    assert.equal(g.status, 'ongoing', 'the imported game goes on');
    const m = g.legal_moves.find((x) => x.startsWith('L@'));
    await playByClicks(page, api, imported.id, m);
    await waitPly(page, 6, { timeout: T.ai });

    // "My games" lists both games, newest first, opened at one screen
    await page.goto(server.url + '/');
    const mine = page.locator(tid('my-games'));
    await mine.waitFor();
    await page.waitForFunction((ids) => {
      const shown = [...document.querySelectorAll('[data-testid="my-games"] li[data-game]')].map((e) => e.dataset.game);
      return JSON.stringify(shown) === JSON.stringify(ids);
    }, [imported.id, id], { timeout: T.step })
      .catch(async () => { throw new Error(`My games should list ${imported.id} then ${id}: ${JSON.stringify(((await mine.textContent()) || '').slice(0, 500))}`); });
    const line = (await page.locator(`${tid('my-games')} li[data-game="${id}"]`).innerText()).replace(/\s+/g, ' ');
    assert.match(line, /one screen/);
    assert.match(line, /Black to move/);
    assert.match(line, /\b3 moves\b.*basic/);
    await shot(page, PREFIX, 'my-games');
  });
});

test('the name is remembered and sent, the clock chosen is sent, a bad name is refused', { timeout: 60000 }, async (t) => {
  const { server, browser } = env;
  const { api } = server;
  const page = await newPage(browser, 'names');
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    await page.goto(server.url + '/');
    const name = page.locator(tid('player-name'));
    assert.equal(await name.inputValue(), '', 'no name before one is given');
    await name.fill('Ada Lovelace');
    await page.reload();
    assert.equal(await name.inputValue(), 'Ada Lovelace', 'the name is remembered across reloads');

    // against the AI with a real-time clock
    await page.locator(tid('time-control')).selectOption('rt-5-3');
    await page.locator(tid('ai-level')).selectOption('1');
    await page.locator(tid('ai-color')).selectOption('white');
    await page.locator(tid('start-ai')).click();
    const ai = await waitGamePage(page);
    let g = await api.game(ai.id);
    assert.equal(g.players.white.name, 'Ada Lovelace');
    assert.equal(g.players.black.ai, true);
    assert.ok(g.clock, `the game has a clock: ${JSON.stringify(g.clock)}`);
    assert.deepEqual({ type: g.clock.type, initial: g.clock.initial, increment: g.clock.increment },
      { type: 'realtime', initial: 300, increment: 3 });

    // online as black, a correspondence clock; the choice of clock is remembered too
    await page.goto(server.url + '/');
    assert.equal(await page.locator(tid('time-control')).inputValue(), 'rt-5-3');
    await page.locator(tid('time-control')).selectOption('cor-3');
    await page.locator(tid('ai-color')).selectOption('black');
    await page.locator(tid('start-online')).click();
    const online = await waitGamePage(page);
    g = await api.game(online.id);
    assert.equal(g.players.black.name, 'Ada Lovelace');
    assert.equal(g.players.white.name, null);
    assert.deepEqual({ type: g.clock?.type, days: g.clock?.days }, { type: 'correspondence', days: 3 });

    // no clock: the game is untimed
    await page.goto(server.url + '/');
    await page.locator(tid('time-control')).selectOption('none');
    await page.locator(tid('start-hotseat')).click();
    const hot = await waitGamePage(page);
    g = await api.game(hot.id);
    assert.equal(g.clock ?? null, null);

    // a name the server would refuse is not sent; the page says why
    await page.goto(server.url + '/');
    await name.fill('Ada "the Countess"');
    await page.locator(tid('start-hotseat')).click();
    await page.waitForFunction(() => /quotes/.test(document.querySelector('[data-testid="message"]')?.textContent || ''), null, { timeout: T.step });
    assert.equal(new URL(page.url()).pathname, '/', 'no game was created');
    await page.reload();
    assert.equal(await name.inputValue(), 'Ada Lovelace', 'the refused name was not kept');
    // nor one with a character that turns the text around: named by its code point
    await name.fill('Ada\u202Eecalovel');
    await page.locator(tid('start-hotseat')).click();
    await page.waitForFunction(() => /U\+202E/.test(document.querySelector('[data-testid="message"]')?.textContent || ''), null, { timeout: T.step });
    assert.equal(new URL(page.url()).pathname, '/', 'no game was created');
    await page.reload();
    assert.equal(await name.inputValue(), 'Ada Lovelace', 'the refused name was not kept');
    await shot(page, PREFIX, 'name-and-clock');
  });
});
