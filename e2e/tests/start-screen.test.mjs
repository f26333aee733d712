// The start screen, the site's front door: the board's picture with its
// pieces, the three ways in (play the AI, play someone, learn the game)
// above the fold on a laptop and a phone with their settings one click
// away, in every language, light and dark, never scrolling sideways; then
// its other ways in: a hot-seat basic game (both sides clicked on one
// page), importing a record file, and "My games"; the player's name
// (remembered, sent, checked) and the clock chosen at creation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage, waitInSync, waitPly,
  playByClicks, ARTIFACTS, openStart,
} from '../lib/browser.mjs';
import { LANGS, loadCatalogues, tr } from '../lib/i18n.mjs';
import { axeViolations, serious, describeViolations } from '../lib/axe.mjs';
import { DESKTOP, PHONE, overflow } from '../lib/learn.mjs';

const PREFIX = 'start';
const env = serverAndBrowser();
const pages = [];

const WAYS = ['ai', 'people', 'learn'];
const FULL_HD = { viewport: { width: 1920, height: 1080 } };

/** The element's box on the screen: {top, left, bottom, right}, or null when it is not drawn. */
const boxOf = (page, selector) => page.evaluate((s) => {
  const el = document.querySelector(s);
  const r = el && el.getBoundingClientRect();
  return r && r.height > 0 ? { top: r.top, left: r.left, bottom: r.bottom, right: r.right } : null;
}, selector);

/** The three ways in: {way: {expanded, panelShown}}. */
const waysState = (page) => page.evaluate((ways) => Object.fromEntries(ways.map((w) => [w, {
  expanded: document.querySelector(`[data-testid="home-${w}"]`).getAttribute('aria-expanded'),
  panelShown: !document.querySelector(`[data-testid="home-${w}-panel"]`).hidden,
}])), WAYS);

test('the front door: the board, the name and three ways in above the fold, their settings one click away', { timeout: 150000 }, async (t) => {
  const { server, browser } = env;
  const cats = await loadCatalogues(server.url);
  await withArtifacts(PREFIX, () => pages, async () => {
    const problems = [];
    const check = (ok, what) => { if (!ok) problems.push(what); };
    for (const [size, options] of [['1920x1080', FULL_HD], ['1366x768', DESKTOP], ['390x844', PHONE]]) {
      for (const scheme of ['light', 'dark']) {
        const page = await newPage(browser, `front-${size}-${scheme}`, { ...options, colorScheme: scheme });
        pages.push(page);
        const { height } = options.viewport;
        for (const lang of scheme === 'light' ? LANGS : ['en', 'de']) {
          const at = `${size} ${scheme} ${lang}`;
          await page.goto(`${server.url}/?lang=${lang}`);
          await page.waitForFunction((l) => document.documentElement.lang === l, lang);
          // The picture: a real board in the middle of a game, named for assistive technology.
          await page.locator(`${tid('home-picture')}[data-ready="true"]`).waitFor({ timeout: T.step * 2 });
          const board = page.locator(tid('home-board'));
          const pieces = await board.locator('.piece').count();
          check(pieces >= 20, `${at}: the picture shows ${pieces} pieces`);
          check(await board.getAttribute('aria-label') === tr(cats, lang, 'start.picture'), `${at}: the picture's label`);
          check((await page.locator('h1').innerText()).trim() === 'PÜNCT', `${at}: the name is the heading`);
          const pic = await boxOf(page, tid('home-board'));
          check(pic && pic.bottom - pic.top >= (size === '390x844' ? 200 : 500), `${at}: the picture is ${pic ? Math.round(pic.bottom - pic.top) : 0} px tall`);
          // The three ways in, closed, all on the first screen.
          assert.equal(await page.evaluate(() => window.scrollY), 0);
          const state = await waysState(page);
          for (const way of WAYS) {
            check(state[way].expanded === 'false' && !state[way].panelShown, `${at}: ${way} is closed at first`);
            const b = await boxOf(page, tid(`home-${way}`));
            check(b && b.top >= 0 && b.bottom <= height, `${at}: ${way}'s button is not on the first screen (${JSON.stringify(b)})`);
          }
          check((await page.locator(tid('home-ai')).innerText()).includes(tr(cats, lang, 'start.ai.button')), `${at}: "Play the AI"`);
          check((await page.locator(tid('home-people')).innerText()).includes(tr(cats, lang, 'start.action.people')), `${at}: "Play someone"`);
          check((await page.locator(tid('home-learn')).innerText()).includes(tr(cats, lang, 'start.action.learn')), `${at}: "Learn the game"`);
          check(await overflow(page) <= 0, `${at}: the page scrolls sideways`);
          if (lang === 'en' || lang === 'de') await shot(page, PREFIX, `front-${lang}-${scheme}-${size}`);
          // Each way opens its settings under it, one at a time, and closes again.
          for (const way of WAYS) {
            await openStart(page, way);
            const now = await waysState(page);
            for (const other of WAYS) {
              check(now[other].panelShown === (other === way) && now[other].expanded === String(other === way),
                `${at}: ${way} opened, ${other} is ${JSON.stringify(now[other])}`);
            }
            check(await overflow(page) <= 0, `${at}: with ${way} open the page scrolls sideways`);
            const panel = page.locator(tid(`home-${way}-panel`));
            if (way === 'ai') {
              for (const id of ['ai-level', 'ai-color', 'variant', 'time-control', 'player-name', 'start-ai', 'start-ai-server']) {
                check(await panel.locator(tid(id)).isVisible(), `${at}: ${id} shows under "Play the AI"`);
              }
            } else if (way === 'people') {
              for (const id of ['ai-color', 'variant', 'time-control', 'player-name', 'start-online', 'start-hotseat', 'to-lobby']) {
                check(await panel.locator(tid(id)).isVisible(), `${at}: ${id} shows under "Play someone"`);
              }
            } else {
              const links = await panel.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
              check(JSON.stringify(links) === JSON.stringify(['/rules', '/learn', '/puzzles']), `${at}: the learning links ${JSON.stringify(links)}`);
            }
            if (lang === 'en' && scheme === 'light') await shot(page, PREFIX, `front-${way}-open-${size}`);
            if (lang === 'de' && way === 'people') await shot(page, PREFIX, `front-de-people-open-${scheme}-${size}`);
          }
          await page.locator(tid('home-learn')).click();
          check(Object.values(await waysState(page)).every((w) => w.expanded === 'false' && !w.panelShown), `${at}: a second click closes a way`);
        }
        // axe, with each way open (English, light and dark, on a laptop).
        if (size === '1366x768') {
          for (const way of ['ai', 'people', 'learn']) {
            await page.goto(`${server.url}/`);
            await page.locator(`${tid('home-picture')}[data-ready="true"]`).waitFor({ timeout: T.step * 2 });
            await openStart(page, way);
            const bad = serious(await axeViolations(page));
            check(bad.length === 0, `${scheme} ${way} open: axe\n  ${describeViolations(bad)}`);
          }
        }
        await page.context().close();
        pages.splice(pages.indexOf(page), 1);
      }
    }
    assert.deepEqual(problems, [], `the front door:\n${problems.join('\n')}`);
  });
});

test('the front door\'s settings start games; "Go to the lobby" and the learning links lead there', { timeout: 60000 }, async () => {
  const { server, browser } = env;
  const cats = await loadCatalogues(server.url);
  const page = await newPage(browser, 'front-flows', DESKTOP);
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    await page.goto(server.url + '/');
    // The AI's level is described as it is chosen; a casual untimed game is played on this device.
    await openStart(page, 'ai');
    await page.locator(tid('ai-level')).selectOption('3');
    assert.equal((await page.locator(tid('ai-level-description')).innerText()).trim(), tr(cats, 'en', 'start.level.3.about'));
    await page.locator(tid('ai-color')).selectOption('black');
    await page.locator(tid('time-control')).selectOption('none');
    await page.locator(tid('start-ai')).click();
    await page.waitForURL(/\/game\/local-[a-z0-9]+$/);
    await waitGamePage(page);

    // "Go to the lobby": the lobby in sight, and focused.
    await page.goto(server.url + '/');
    await openStart(page, 'people');
    await page.locator(tid('to-lobby')).click();
    await page.waitForFunction(() => {
      const lobby = document.querySelector('[data-testid="lobby"]');
      const r = lobby.getBoundingClientRect();
      return document.activeElement === lobby && r.top >= -1 && r.top < window.innerHeight / 2;
    }, null, { timeout: T.step });
    await shot(page, PREFIX, 'front-to-lobby-1366x768');

    // Learning: the lessons, then the rules and the puzzles, from the front door.
    for (const [id, path, ready] of [['home-lessons', '/learn', 'tutorial'], ['home-rules', '/rules', 'rules'], ['home-puzzles', '/puzzles', 'puzzles']]) {
      await page.goto(server.url + '/');
      await openStart(page, 'learn');
      await page.locator(tid(id)).click();
      await page.waitForURL((u) => u.pathname === path);
      await page.locator(tid(ready)).first().waitFor();
    }
  });
});

test('hot-seat basic game, record import and My games', { timeout: 60000 }, async (t) => {
  const { server, browser } = env;
  const { api } = server;
  const page = await newPage(browser, 'hotseat');
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    await page.goto(server.url + '/');
    await page.locator(tid('start')).waitFor();
    await openStart(page, 'people');
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
    await openStart(page, 'ai');
    await name.fill('Ada Lovelace');
    await page.reload();
    assert.equal(await name.inputValue(), 'Ada Lovelace', 'the name is remembered across reloads');

    // against the AI with a real-time clock
    await openStart(page, 'ai');
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
    await openStart(page, 'people');
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
    await openStart(page, 'people');
    await page.locator(tid('time-control')).selectOption('none');
    await page.locator(tid('start-hotseat')).click();
    const hot = await waitGamePage(page);
    g = await api.game(hot.id);
    assert.equal(g.clock ?? null, null);

    // a name the server would refuse is not sent; the page says why
    await page.goto(server.url + '/');
    await openStart(page, 'people');
    await name.fill('Ada "the Countess"');
    await page.locator(tid('start-hotseat')).click();
    await page.waitForFunction(() => /quotes/.test(document.querySelector('[data-testid="message"]')?.textContent || ''), null, { timeout: T.step });
    assert.equal(new URL(page.url()).pathname, '/', 'no game was created');
    await page.reload();
    assert.equal(await name.inputValue(), 'Ada Lovelace', 'the refused name was not kept');
    // nor one with a character that turns the text around: named by its code point
    await openStart(page, 'people');
    await name.fill('Ada\u202Eecalovel');
    await page.locator(tid('start-hotseat')).click();
    await page.waitForFunction(() => /U\+202E/.test(document.querySelector('[data-testid="message"]')?.textContent || ''), null, { timeout: T.step });
    assert.equal(new URL(page.url()).pathname, '/', 'no game was created');
    await page.reload();
    assert.equal(await name.inputValue(), 'Ada Lovelace', 'the refused name was not kept');
    await shot(page, PREFIX, 'name-and-clock');
  });
});
