// The start screen's other ways in: a hot-seat basic game (both sides
// clicked on one page), importing a record file, and the recent games.
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

test('hot-seat basic game, record import and recent games', { timeout: 60000 }, async (t) => {
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
    await playByClicks(page, api, id, moves[0], t);
    g = await waitInSync(page, api, id);
    assert.equal(g.to_move, 'black');
    const central = g.legal_moves.find((m) => /^T@I9\//.test(m));
    assert.ok(central, 'the basic game allows I9 after the first move');
    await playByClicks(page, api, id, central, t);
    g = await waitInSync(page, api, id);
    const third = g.legal_moves.find((m) => m.startsWith('M@') && !m.endsWith('/0'));
    await playByClicks(page, api, id, third, t);
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
    if (g.to_move && imported.token) {
      const m = g.legal_moves.find((x) => x.startsWith('L@'));
      await playByClicks(page, api, imported.id, m, t);
      await waitPly(page, 6, { timeout: T.ai });
    } else {
      t.diagnostic(`imported game opened as ${imported.token ? 'a seat' : 'a spectator'} (mode ${g.mode})`);
    }

    // the recent games list names the games
    await page.goto(server.url + '/');
    const recent = page.locator(tid('recent-games'));
    await recent.waitFor();
    await page.waitForFunction((ids) => ids.every((x) => (document.querySelector('[data-testid="recent-games"]')?.innerHTML || '').includes(x)), [id, imported.id], { timeout: T.step })
      .catch(async () => { throw new Error(`recent games lack ${id} or ${imported.id}: ${JSON.stringify(((await recent.textContent()) || '').slice(0, 500))}`); });
    await shot(page, PREFIX, 'recent-games');
  });
});
