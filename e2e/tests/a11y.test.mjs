// Accessibility, measured: axe-core (WCAG 2.1 A and AA rules) finds no
// serious or critical violation on any screen — the start screen, a game
// against the AI, an online game waiting for its opponent, a finished
// game, /rules, /learn and /puzzles — in each language (?lang=en, de, ja,
// sk), in light mode and (English, Japanese) dark mode. The game screen's
// board is one tab stop, its cursor shows, the position reads in words
// and the sides' pairs differ by pattern as well as colour. German and
// Japanese texts fit: at 1366 × 768 and 390 × 844 neither the start nor
// the game screen scrolls sideways, no control is wider than its
// container and no button's text is cut off.
//
// axe runs inside the page (lib/axe.mjs), evaluated through the DevTools
// protocol, so the page's Content-Security-Policy stays on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, shot, withArtifacts, tid, T, BOARD, waitInSync, showTab } from '../lib/browser.mjs';
import { axeViolations, serious, describeViolations } from '../lib/axe.mjs';

const PREFIX = 'a11y';
const env = serverAndBrowser();
const pages = [];
const LANGS = ['en', 'de', 'ja', 'sk'];
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

// White connects row 1 and row 17 in the basic game while Black adds far away.
const WIN = ['E@H1/4', 'E@I3/3', 'E@I6/3', 'E@I9/3', 'C@I13/0', 'L@I15/3'];

/** Plays WIN for White (Black adds in columns A–C) through the API; answers {id, token}. */
async function finishedGame(api) {
  const created = await api.create({ mode: 'hotseat', variant: 'basic' });
  const token = created.seats.white;
  let g = created.game;
  for (const w of WIN) {
    g = await api.move(created.id, token, w);
    if (g.status !== 'ongoing') break;
    const b = g.legal_moves.find((m) => /^T@[ABC]\d+\//.test(m));
    g = await api.move(created.id, token, b);
  }
  assert.equal(g.status, 'over', 'the planned game ends');
  return { id: created.id, token };
}

/**
 * The screens to check: [name, path (with a fragment for a seat), what
 * shows it is ready]. Games are made once, through the API.
 */
async function screens(api) {
  const ai = await api.create({ mode: 'ai', variant: 'standard', level: 1, side: 'white' });
  const online = await api.create({ mode: 'online', variant: 'standard', side: 'white' });
  const over = await finishedGame(api);
  const seat = (c) => c.seats.white || Object.values(c.seats)[0];
  return [
    ['start', '/', tid('start')],
    ['game-ai', `/game/${ai.id}#token=${seat(ai)}`, `${BOARD} [data-cell]`],
    ['game-ai-open', `/game/${ai.id}#token=${seat(ai)}`, `${BOARD} [data-cell]`, openEverything],
    ['online-waiting', `/game/${online.id}#token=${seat(online)}`, `${tid('invite')}:not([hidden])`],
    ['game-over', `/game/${over.id}#token=${over.token}`, tid('result-banner')],
    ['rules', '/rules', 'header'],
    ['learn', '/learn', 'header'],
    ['puzzles', '/puzzles', 'header'],
  ];
}

/**
 * The game screen with everything open at once: the key, the position in
 * words, the keyboard cursor on the board and a piece picked (its targets
 * and ghost drawn).
 */
async function openEverything(page) {
  await page.locator(`${tid('game')}[data-to-move="white"]`).waitFor({ timeout: T.ai });
  await showTab(page, 'board');
  await page.locator(tid('describe-position')).press('Enter');
  await page.locator(tid('position-table')).or(page.locator('[data-testid="pos-empty"]')).first().waitFor();
  await page.locator(tid('board')).focus();
  await page.keyboard.press('E');
  await page.keyboard.press('ArrowLeft');
  await page.locator(tid('show-key')).press('Enter');
  await page.locator(tid('key-keys')).waitFor();
}

/** Opens `p` in language `lang` (the query before any fragment) and waits for `ready`. */
async function open(page, url, p, lang, ready) {
  const [where, fragment] = p.split('#');
  await page.goto(`${url}${where}?lang=${lang}${fragment ? `#${fragment}` : ''}`);
  await page.locator(ready).first().waitFor({ state: 'attached', timeout: T.step * 2 });
  await page.waitForFunction((l) => document.documentElement.lang === l, lang, { timeout: T.step });
  // Fonts and the layout settle (the board measures itself once drawn).
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(150);
}

const describe = describeViolations;

test('axe finds no serious or critical violation on any screen, in any language, light and dark', { timeout: 170000 }, async (t) => {
  const { server, browser } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const list = await screens(server.api);
    const failures = [];
    for (const scheme of ['light', 'dark']) {
      const page = await newPage(browser, `axe-${scheme}`, { ...DESKTOP, colorScheme: scheme });
      pages.push(page);
      for (const lang of scheme === 'light' ? LANGS : ['en', 'ja']) {
        for (const [name, p, ready, prepare] of list) {
          await open(page, server.url, p, lang, ready);
          if (prepare) await prepare(page);
          const all = await axeViolations(page);
          const bad = serious(all);
          const minor = all.filter((v) => !bad.includes(v)).map((v) => `${v.id}[${v.impact}]`);
          t.diagnostic(`${scheme} ${lang} ${name}: ${bad.length} serious/critical${minor.length ? `; also ${minor.join(', ')}` : ''}`);
          if (bad.length) {
            failures.push(`${scheme} ${lang} ${name}:\n  ${describe(bad)}`);
            await shot(page, PREFIX, `axe-${scheme}-${lang}-${name}`);
          }
        }
      }
      await page.context().close();
      pages.splice(pages.indexOf(page), 1);
    }
    assert.equal(failures.length, 0, `axe violations:\n${failures.join('\n')}`);
  });
});

test('the board: one tab stop with a visible cursor, labelled, described in words; sides told apart without colour', { timeout: 60000 }, async () => {
  const { server, browser } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const { api } = server;
    const created = await api.create({ mode: 'hotseat', variant: 'basic' });
    const token = created.seats.white;
    for (const m of ['E@H1/4', 'T@B3/0', 'E@I3/3']) await api.move(created.id, token, m);
    const page = await newPage(browser, 'board-a11y', DESKTOP);
    pages.push(page);
    await page.goto(`${server.url}/game/${created.id}#token=${token}`);
    await page.locator(`${BOARD} [data-cell]`).first().waitFor({ state: 'attached' });
    await waitInSync(page, api, created.id);
    const board = page.locator(tid('board'));

    // Tab through the whole page: the board is exactly one stop, and every stop shows its focus.
    const stops = [];
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      const info = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return null;
        const cs = getComputedStyle(el);
        const ring = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2;
        return { id: el.dataset.testid || el.tagName.toLowerCase(), ring, board: el.matches('[data-testid="board"]') };
      });
      if (!info) break;
      if (stops.length && stops[0].id === info.id && stops.length > 3) break; // round again
      stops.push(info);
    }
    const boardStops = stops.filter((s) => s.board);
    assert.equal(boardStops.length, 1, `the board is one tab stop: ${stops.map((s) => s.id).join(', ')}`);
    const noRing = stops.filter((s) => !s.ring).map((s) => s.id);
    assert.deepEqual(noRing, [], `every focused control shows a focus ring (${noRing.join(', ')})`);
    for (const k of ['T', 'C', 'E', 'L', 'M', 'R']) {
      assert.ok(stops.some((s) => s.id === `reserve-black-${k}`), `the reserve button ${k} of the side to move is a tab stop`);
    }
    for (const id of ['show-key', 'move-input', 'replay-slider', 'resign', 'side-tab-moves']) {
      assert.ok(stops.some((s) => s.id === id), `${id} is a tab stop`);
    }
    // The side tabs are one stop (the shown tab); arrows go from tab to tab.
    assert.deepEqual(stops.filter((s) => s.id.startsWith('side-tab-')).map((s) => s.id), ['side-tab-moves'], 'one stop for the side tabs');
    await page.locator(tid('side-tab-moves')).focus();
    await page.keyboard.press('ArrowLeft');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'side-tab-board', 'ArrowLeft from the first tab goes round to the last');
    assert.equal(await page.locator(tid('side-tab-board')).getAttribute('aria-selected'), 'true');
    assert.equal(await page.locator(tid('describe-position')).isVisible(), true, 'the board tab shows the position in words');
    await page.keyboard.press('Home');
    assert.equal(await page.locator(tid('side-tab-moves')).getAttribute('aria-selected'), 'true', 'Home goes to the first tab');
    assert.equal(await page.locator(tid('move-list')).isVisible(), true);

    // The board: an application with a label that sums up the position and says how to play it.
    await board.focus();
    assert.equal(await board.getAttribute('role'), 'application');
    assert.match(await board.getAttribute('aria-label'), /White 2, Black 1\. Black to move\. Arrow keys/);
    assert.equal(await board.getAttribute('tabindex'), '0');
    // The cursor shows while the board has the keyboard's focus, and its cell is said.
    await page.keyboard.press('ArrowUp');
    const cursor = await board.getAttribute('data-cursor');
    assert.equal(cursor, 'I10');
    assert.notEqual(await page.locator(`${BOARD} .kbd-cursor`).evaluate((el) => getComputedStyle(el).display), 'none');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await board.getAttribute('data-cursor'), 'I5');
    assert.match(await page.locator(tid('cursor-info')).textContent(), /^I5: height 1\. level 0: White E, PÜNCT on I3\./);
    await page.keyboard.press('ArrowRight'); // along the row: J5
    assert.equal(await board.getAttribute('data-cursor'), 'J5');
    await page.keyboard.press('Shift+ArrowLeft'); // along the diagonal: I4
    assert.equal(await board.getAttribute('data-cursor'), 'I4');
    await shot(page, PREFIX, 'board-cursor');
    // Turned round, the arrows still follow the screen: up is down the rows.
    await page.locator(tid('flip-board')).press('Enter');
    await board.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowUp');
    assert.equal(await board.getAttribute('data-cursor'), 'I8', 'on the turned board ↑ goes to the next cell up the screen');
    await page.keyboard.press('ArrowRight');
    assert.equal(await board.getAttribute('data-cursor'), 'H8');
    await page.locator(tid('flip-board')).press('Enter');

    // The position in words, on demand.
    await showTab(page, 'board');
    await page.locator(tid('describe-position')).focus();
    await page.keyboard.press('Enter');
    const words = page.locator(tid('position-text'));
    await words.waitFor({ state: 'visible' });
    assert.equal(await page.locator(tid('describe-position')).getAttribute('aria-expanded'), 'true');
    const text = await words.innerText();
    assert.match(text, /Black to move/);
    assert.match(text, /White has 16 pieces in reserve: T 6, C 2, E 2, L 2, M 2, R 2\./);
    assert.match(text, /Black has 17 pieces in reserve/);
    assert.match(text, /Last move: E@I3\/3/);
    const rows = await page.locator(`${tid('position-table')} tbody tr`).evaluateAll((trs) => trs.map((tr) => tr.dataset.cell));
    assert.deepEqual(rows.sort(), ['A2', 'B2', 'B3', 'H1', 'I2', 'I3', 'I4', 'I5', 'J3'].sort());
    assert.match(await page.locator(`${tid('position-table')} tr[data-cell="H1"]`).innerText(), /H1.*1.*White E, its PÜNCT/s);
    await shot(page, PREFIX, 'position-in-words');

    // Pairs of sides: a colour and a pattern each (solid, dashed, dotted), the colours apart for colour-blind eyes.
    const stripes = await page.locator(`${BOARD} .side-stripe`).evaluateAll((els) => els.map((e) => ({
      pair: e.dataset.pair, dash: e.getAttribute('stroke-dasharray') || 'solid', colour: getComputedStyle(e).stroke,
    })));
    const byPair = new Map(stripes.map((s) => [s.pair, s]));
    assert.equal(byPair.size, 3);
    assert.equal(new Set([...byPair.values()].map((s) => s.dash)).size, 3, 'each pair its own pattern');
    assert.equal(new Set([...byPair.values()].map((s) => s.colour)).size, 3, 'each pair its own colour');
    await page.context().close();
  });
});

/** Elements on the page that spill over: sideways scroll, controls wider than their box, buttons with cut text. */
function overflowProblems(page) {
  return page.evaluate(() => {
    const out = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) out.push(`the page scrolls sideways (${doc.scrollWidth} > ${doc.clientWidth})`);
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) return false;
      for (let e = el; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (cs.display === 'none' || cs.visibility === 'hidden' || e.classList.contains('sr-only')) return false;
        if (cs.position === 'fixed' && e.classList.contains('stack-panel') && !e.classList.contains('open')) return false;
      }
      return true;
    };
    const name = (el) => `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''} "${(el.textContent || el.value || '').trim().slice(0, 40)}"`;
    const sel = 'button, a.button, select, input, label, h1, h2, h3, p, li, .row, .controls, .player-bar, .panel, .card';
    for (const el of document.querySelectorAll(sel)) {
      if (el.closest('svg') || !visible(el)) continue;
      const cs = getComputedStyle(el);
      // Text cut on purpose (an ellipsis) is a design choice, not a spill.
      if (cs.textOverflow === 'ellipsis') continue;
      const r = el.getBoundingClientRect();
      if (r.right > doc.clientWidth + 1) out.push(`${name(el)} reaches past the window's right edge (${Math.round(r.right)} > ${doc.clientWidth})`);
      const parent = el.parentElement;
      if (parent && !parent.closest('.move-list, .key-panel, .toast, .side-column')) {
        const pr = parent.getBoundingClientRect();
        const pcs = getComputedStyle(parent);
        const inner = pr.right - parseFloat(pcs.borderRightWidth);
        if (pcs.display !== 'contents' && pcs.overflowX === 'visible' && r.right > inner + 1 && r.width > 0) {
          out.push(`${name(el)} is wider than its container ${name(parent).slice(0, 60)} (${Math.round(r.right)} > ${Math.round(inner)})`);
        }
      }
      if ((el.tagName === 'BUTTON' || el.classList.contains('button') || el.tagName === 'SELECT') && el.scrollWidth > el.clientWidth + 1) {
        out.push(`${name(el)} cuts its text (${el.scrollWidth} > ${el.clientWidth})`);
      }
    }
    return [...new Set(out)];
  });
}

test('German and Japanese fit the start and game screens at 1366 × 768 and 390 × 844', { timeout: 120000 }, async (t) => {
  const { server, browser } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const { api } = server;
    const ai = await api.create({ mode: 'ai', variant: 'standard', level: 1, side: 'white' });
    const token = ai.seats.white;
    await api.move(ai.id, token, ai.game.legal_moves.find((m) => m.startsWith('E@')));
    const failures = [];
    for (const [size, options] of [['1366x768', DESKTOP], ['390x844', PHONE]]) {
      for (const lang of ['de', 'ja']) {
        const page = await newPage(browser, `fit-${lang}-${size}`, options);
        pages.push(page);
        for (const [name, p, ready] of [['start', '/', tid('start')], ['game', `/game/${ai.id}#token=${token}`, `${BOARD} [data-cell]`]]) {
          await open(page, server.url, p, lang, ready);
          if (name === 'game') await waitInSync(page, api, ai.id, { timeout: T.ai });
          const problems = await overflowProblems(page);
          t.diagnostic(`${lang} ${size} ${name}: ${problems.length ? problems.join('; ') : 'fits'}`);
          if (problems.length) failures.push(`${lang} ${size} ${name}:\n  ${problems.join('\n  ')}`);
          await shot(page, PREFIX, `fit-${lang}-${size}-${name}`);
        }
        await page.context().close();
        pages.splice(pages.indexOf(page), 1);
      }
    }
    assert.equal(failures.length, 0, `texts that do not fit:\n${failures.join('\n')}`);
  });
});
