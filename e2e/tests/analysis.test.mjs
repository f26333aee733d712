// The analysis panel for a player: the engine's three best moves with their
// evaluations, each previewed on the board when pointed at; the connection
// solver's verdict ("Black connects in 2 moves, whatever White does: …")
// in a won position, the opponent's threat ("Black threatens to connect in
// 2 moves: …") when the turn is passed to the defender, and a quiet verdict
// in an opening. Positions are set up by importing a record with a
// `Position` tag (a game at one screen, so the analysis is open). Screenshots
// at 1366 × 768 and 390 × 844 go to e2e/artifacts and /tmp/h2-shots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage, BOARD, showTab } from '../lib/browser.mjs';
import { REPO_DIR } from '../lib/server.mjs';
import { axeViolations, serious, describeViolations } from '../lib/axe.mjs';

const PREFIX = 'analysis';
const SHOTS = '/tmp/h2-shots';
mkdirSync(SHOTS, { recursive: true });
const env = serverAndBrowser();
const pages = [];
const MOVE = /^(?:[TCELMR]@[A-Q]\d+\/\d|[A-Q]\d+-[A-Q]\d+\/\d|pass)$/;

/** A shipped puzzle (data/puzzles.json) by id. */
function puzzle(id) {
  const all = JSON.parse(readFileSync(path.join(REPO_DIR, 'data', 'puzzles.json'), 'utf8'));
  return all.puzzles.find((p) => p.id === id);
}

/** The same position with the other side to move (the turn passed), as the server's puzzle::null_move. */
function passed(position) {
  const f = position.split(':');
  f[1] = f[1] === 'w' ? 'b' : 'w';
  f[2] = '0';
  return f.join(':');
}

/** A game at one screen from `position`, opened in `page` (in language `lang`): answers the game's id. */
async function openAt(page, api, url, position, lang = null) {
  const record = `[Variant "${position.split(':')[0]}"]\n[Position "${position}"]\n[Result "*"]\n\n*\n`;
  const created = await api.importRecord({ record, mode: 'hotseat' });
  const [where, token] = created.links.white.split('#');
  await page.goto(`${url}${where}${lang ? `?lang=${lang}` : ''}#${token}`);
  await waitGamePage(page);
  return created.id;
}

/** Turns the analysis on and waits for its lines; answers the lines' {move, text}. */
async function analyse(page) {
  await showTab(page, 'analysis');
  await page.locator(tid('analyse')).click();
  await page.locator(tid('analysis-line')).first().waitFor({ state: 'visible', timeout: T.ai });
  return page.locator(tid('analysis-line')).evaluateAll((els) => els.map((e) => ({ move: e.dataset.move, text: e.innerText.replace(/\s+/g, ' ').trim() })));
}

/** The drawing of the move previewed on the board (the "best" overlay), to compare. */
const preview = (page) => page.locator(`${BOARD} [data-best]`).evaluateAll((els) => els.map((e) => e.innerHTML).join('|'));

/** Fails when the page scrolls sideways or the analysis box is wider than its panel. */
async function checkFits(page, what) {
  const m = await page.evaluate(() => {
    const box = document.querySelector('[data-testid="analysis"]');
    const panel = document.querySelector('[data-testid="analysis-panel"]');
    const wide = [...box.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible' && e.clientWidth > 0)
      .map((e) => `${e.tagName}.${e.className}: ${e.scrollWidth} > ${e.clientWidth}`);
    return {
      sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      box: box.getBoundingClientRect().width, panel: panel.getBoundingClientRect().width, wide,
    };
  });
  assert.ok(m.sideways <= 1, `${what}: the page scrolls sideways by ${m.sideways} px`);
  assert.ok(m.box <= m.panel + 1, `${what}: the analysis (${m.box} px) is wider than its panel (${m.panel} px)`);
  assert.deepEqual(m.wide, [], `${what}: something in the analysis overflows`);
}

async function shots(page, name) {
  await shot(page, PREFIX, name);
  await page.locator(tid('analysis-panel')).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
  await page.screenshot({ path: path.join(SHOTS, `${name}-full.png`), fullPage: true });
}

test('three lines previewed on the board, and a forced win with its line', { timeout: 120000 }, async () => {
  const { server, browser } = env;
  const page = await newPage(browser, 'desktop', { viewport: { width: 1366, height: 768 } });
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    // An opening: three lines, no forced win either way.
    const id = await openAt(page, server.api, server.url, 'standard:b:0:wC@B7/2');
    const lines = await analyse(page);
    assert.equal(lines.length, 3, `three lines: ${JSON.stringify(lines)}`);
    const g = await server.api.game(id);
    for (const l of lines) {
      assert.match(l.move, MOVE);
      assert.ok(g.legal_moves.includes(l.move), `${l.move} is legal here`);
      // Each line says its evaluation in words a player reads ("+0.7").
      assert.match(l.text, /[+−-]?\d[.,]\d|wins in \d+ moves?/, l.text);
    }
    assert.equal(new Set(lines.map((l) => l.move)).size, 3, 'three different moves');
    const quiet = page.locator(tid('analysis-verdict'));
    await quiet.waitFor({ state: 'visible', timeout: T.ai });
    assert.match(await quiet.innerText(), /No forced connection found for Black within 3 moves|No time was left to tell whether Black/);
    assert.equal(await page.locator(tid('analysis-threat')).count(), 0, 'no threat in an opening');

    // The board previews the best line; pointing at another line previews that one, leaving it goes back.
    await page.locator(`${BOARD} [data-best]`).first().waitFor({ state: 'attached' });
    const best = await preview(page);
    const second = page.locator(tid('analysis-line')).nth(1);
    await second.hover();
    await page.waitForFunction((b) => [...document.querySelectorAll('[data-best]')].map((e) => e.innerHTML).join('|') !== b, best, { timeout: T.step });
    const other = await preview(page);
    await page.mouse.move(5, 5);
    await page.waitForFunction((b) => [...document.querySelectorAll('[data-best]')].map((e) => e.innerHTML).join('|') === b, best, { timeout: T.step });
    // A click keeps it shown (pressed) after the pointer leaves.
    await second.click();
    await page.mouse.move(5, 5);
    assert.equal(await second.getAttribute('aria-pressed'), 'true');
    assert.equal(await preview(page), other);
    // Screen readers hear the evaluation in words.
    const words = await page.locator(`${tid('analysis-line')} .sr-only`).first().textContent();
    assert.match(words, /connection race/, `the first line's words: ${words}`);
    await checkFits(page, 'opening 1366x768');
    await shots(page, 'opening-1366x768');

    // two-03: Black to move connects in two whatever White does.
    const p = puzzle('two-03');
    const won = await openAt(page, server.api, server.url, p.position);
    const wonLines = await analyse(page);
    const legal = (await server.api.game(won)).legal_moves;
    assert.ok(wonLines.length >= 1 && wonLines.every((l) => legal.includes(l.move)), JSON.stringify(wonLines));
    const verdict = page.locator(tid('analysis-verdict'));
    await verdict.waitFor({ state: 'visible', timeout: T.ai });
    assert.equal(await verdict.getAttribute('data-verdict'), 'win');
    assert.equal(await verdict.getAttribute('data-side'), 'black');
    const said = (await verdict.innerText()).replace(/\s+/g, ' ');
    assert.match(said, /^Black connects in 2 moves, whatever White does: /, said);
    // The line in notation: Black's move, White's reply, Black's winning move.
    const line = said.split(': ')[1].trim().split(' ');
    assert.equal(line.length, 3, said);
    assert.ok(line.every((m) => MOVE.test(m)), said);
    // Played out, the line ends the game (the server then has nothing to analyse).
    const end = await server.api.analyse({ position: p.position, moves: line, movetime: 50 }).catch((e) => e);
    assert.equal(end.code, 'game_over', `the verdict's line ends the game: ${end}`);
    await checkFits(page, 'win 1366x768');
    await shots(page, 'win-1366x768');

    // The same position on a phone.
    const phone = await newPage(browser, 'phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    pages.push(phone);
    await phone.goto(page.url());
    await waitGamePage(phone);
    await analyse(phone);
    await phone.locator(tid('analysis-verdict')).waitFor({ state: 'visible', timeout: T.ai });
    await checkFits(phone, 'win 390x844');
    await shots(phone, 'win-390x844');
  });
});

test('the opponent\'s threat', { timeout: 90000 }, async () => {
  const { server, browser } = env;
  const page = await newPage(browser, 'threat', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    // two-05 with the turn passed to White (who has no forced win of its
    // own there): Black threatens its win in two.
    await openAt(page, server.api, server.url, passed(puzzle('two-05').position));
    const lines = await analyse(page);
    assert.ok(lines.length >= 1 && lines.length <= 3, JSON.stringify(lines));
    const threat = page.locator(tid('analysis-threat'));
    await threat.waitFor({ state: 'visible', timeout: T.ai });
    assert.equal(await threat.getAttribute('data-side'), 'black');
    const said = (await threat.innerText()).replace(/\s+/g, ' ');
    assert.match(said, /^Black threatens to connect in [12] moves?: \S+/, said);
    await checkFits(page, 'threat 390x844');
    await shots(page, 'threat-390x844');
  });
});

test('German and Japanese, light and dark: the analysis fits and axe finds nothing serious', { timeout: 120000 }, async () => {
  const { server, browser } = env;
  const failures = [];
  for (const [lang, scheme, viewport] of [['de', 'dark', { width: 390, height: 844 }], ['ja', 'light', { width: 1366, height: 768 }]]) {
    const page = await newPage(browser, `${lang}-${scheme}`, { viewport, colorScheme: scheme });
    pages.push(page);
    await withArtifacts(PREFIX, () => pages, async () => {
      // two-05 passed: lines, a threat and the quiet verdict at once.
      await openAt(page, server.api, server.url, passed(puzzle('two-05').position), lang);
      await analyse(page);
      // The threat's search shares two cores with the rest of CI: a loaded
      // machine has taken more than T.ai for it (a wait, not a timing check).
      await page.locator(tid('analysis-threat')).waitFor({ state: 'visible', timeout: 3 * T.ai });
      await checkFits(page, `${lang} ${viewport.width}x${viewport.height}`);
      const bad = serious(await axeViolations(page));
      if (bad.length) failures.push(`${lang} ${scheme}: ${describeViolations(bad)}`);
      await shots(page, `threat-${lang}-${scheme}-${viewport.width}x${viewport.height}`);
    });
  }
  assert.equal(failures.length, 0, `axe violations:\n${failures.join('\n')}`);
});
