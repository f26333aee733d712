// The analysis board (/analysis, web/analysisboard.js): moves played by
// clicks into a variation tree (two moves back and another move make a
// variation, shown as one; a click on a move shows its position; ← → Home
// End; a variation promoted and deleted); the engine's three lines with
// their evaluations, updated while it thinks, and the connection solver's
// verdict; a line's move played into the tree; a position string loaded
// (a bad one said in words) and a forced win found in it; a record loaded
// from the textarea and from `#record=`, the current line written out,
// downloaded and read back the same; `/analysis?game=<id>` of a finished
// game with its moves (and `&ply=`), the address following the position
// shown; a game still played between people not opened (fair play); the
// "Analyse this game" link of a finished game's page, a server's and one
// played on this device (localgame.js); axe in English and
// German; screenshots at 1366 × 768 and 390 × 844 (nothing sideways, a
// move by taps with the confirmation on the phone).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serverAndBrowser, newPage, shot, withArtifacts, tid, T, clickMove, BOARD, openStart } from '../lib/browser.mjs';
import { REPO_DIR } from '../lib/server.mjs';
import { axeViolations, serious, describeViolations } from '../lib/axe.mjs';

const PREFIX = 'analysisboard';
const env = serverAndBrowser();
const pages = [];
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const MOVE = /^(?:[TCELMR]@[A-Q]\d+\/\d|[A-Q]\d+-[A-Q]\d+\/\d|pass)$/;

/** A shipped puzzle (data/puzzles.json) by id. */
function puzzle(id) {
  const all = JSON.parse(readFileSync(path.join(REPO_DIR, 'data', 'puzzles.json'), 'utf8'));
  return all.puzzles.find((p) => p.id === id);
}

async function open(label, url, options = DESKTOP) {
  const page = await newPage(env.browser, label, options);
  pages.push(page);
  await page.goto(url);
  await ready(page);
  return page;
}

/** Waits until the board shows a position (the screen's root has its data-position). */
async function ready(page, ply = null) {
  const sel = ply == null ? `${tid('analysis-board')}[data-position]` : `${tid('analysis-board')}[data-ply="${ply}"]`;
  await page.locator(sel).waitFor({ timeout: T.move });
}

/** The screen's root attributes: ply, position, to move. */
const shown = (page) => page.locator(tid('analysis-board')).evaluate((e) => ({ ...e.dataset }));

/** The tree's moves in order: {ply, move, current, variation depth}. */
const treeMoves = (page) => page.locator(`${tid('analysis-tree')} ${tid('analysis-move')}`).evaluateAll((els) => els.map((e) => ({
  ply: Number(e.dataset.ply), move: e.dataset.move, current: e.getAttribute('aria-current') === 'true',
  depth: Number(e.closest('[data-testid="analysis-variation"]')?.dataset.depth || 0),
})));

/** The moves of the main line (outside every variation). */
const mainLine = async (page) => (await treeMoves(page)).filter((m) => m.depth === 0).map((m) => m.move);

/** A legal move of `state` (the server's) picked by `i`, not among `not`. */
function pick(state, i, not = []) {
  const adds = state.legal_moves.filter((m) => m.includes('@') && !not.includes(m));
  return adds[(i * 37) % adds.length];
}

/** Waits for the engine's three lines and the solver's verdict; answers the lines' {move, eval, moves}. */
async function engineLines(page) {
  await page.locator(`${tid('analysis-engine')}[data-state="done"]`).waitFor({ timeout: T.ai });
  const lines = await page.locator(tid('analysis-line')).evaluateAll((els) => els.map((e) => ({
    move: e.dataset.move,
    eval: e.querySelector('[data-testid="analysis-line-eval"]').textContent,
    words: e.querySelector('.sr-only').textContent,
    moves: [...e.querySelectorAll('[data-testid="analysis-line-move"]')].map((b) => b.dataset.move),
  })));
  return lines;
}

/** Fails when the page scrolls sideways or a panel's content is wider than the panel. */
async function checkFits(page, what) {
  const m = await page.evaluate(() => {
    const wide = [...document.querySelectorAll('.side-column .panel')].filter((p) => p.scrollWidth > p.clientWidth + 1)
      .map((p) => `${p.className}: ${p.scrollWidth} > ${p.clientWidth}`);
    return { sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth, wide };
  });
  assert.ok(m.sideways <= 1, `${what}: the page scrolls sideways by ${m.sideways} px`);
  assert.deepEqual(m.wide, [], `${what}: a panel's content is wider than the panel`);
}

async function checkAxe(page, what) {
  const bad = serious(await axeViolations(page));
  assert.equal(bad.length, 0, `${what}: axe finds serious violations:\n  ${describeViolations(bad)}`);
}

test('moves by clicks make a tree with a variation; the engine shows three lines and the solver', { timeout: 150000 }, async () => {
  const { server } = env;
  const api = server.api;
  await withArtifacts(PREFIX, () => pages, async () => {
    // The moves to play, legal ones read from a game at one screen.
    const game = await api.create({ mode: 'hotseat' });
    const token = game.seats.white;
    const states = [game.game];
    const line = [];
    for (let i = 0; i < 4; i++) {
      line.push(pick(states[i], i + 1));
      states.push(await api.move(game.id, token, line[i]));
    }

    const page = await open('desktop', `${server.url}/analysis`);
    assert.equal((await shown(page)).position, 'standard:w:0:-', 'an empty standard board');
    assert.match(await page.locator(tid('analysis-tree')).innerText(), /No moves yet/);
    for (let i = 0; i < 4; i++) {
      await clickMove(page, line[i], i % 2 === 0 ? 'white' : 'black', { checkLegal: true });
      await ready(page, i + 1);
    }
    let s = await shown(page);
    assert.equal(s.position, states[4].position, 'the position after four clicked moves is the server\'s');
    assert.deepEqual(await mainLine(page), line);
    assert.equal(new URL(page.url()).hash, `#position=${encodeURIComponent(states[4].position)}`, 'the address names the position shown');
    assert.equal(await page.locator(tid('analysis-position')).textContent(), states[4].position);

    // Two moves back by keyboard, and another move there: a variation.
    await page.keyboard.press('ArrowLeft');
    await ready(page, 3);
    await page.keyboard.press('ArrowLeft');
    await ready(page, 2);
    assert.equal((await shown(page)).position, states[2].position);
    const other = pick(states[2], 11, [line[2]]);
    assert.notEqual(other, line[2]);
    await clickMove(page, other, 'white', { checkLegal: true });
    await ready(page, 3);
    const tree = page.locator(tid('analysis-tree'));
    assert.equal(await tree.getAttribute('data-variations'), '1', 'one variation');
    assert.equal(await tree.getAttribute('data-moves'), '5', 'five moves kept');
    let moves = await treeMoves(page);
    assert.deepEqual(moves.filter((m) => m.depth === 1).map((m) => m.move), [other], `the variation holds the new move: ${JSON.stringify(moves)}`);
    assert.deepEqual(await mainLine(page), line, 'the main line is kept');
    assert.ok(moves.find((m) => m.move === other).current, 'the new move is the one shown');
    const variationText = await page.locator(tid('analysis-variation')).innerText();
    assert.match(variationText, /^2\.\s*\S+/, `the variation starts with its move number: ${variationText}`);
    await shot(page, PREFIX, 'variation-1366x768');

    // A click on a move of the main line shows its position; Home and End walk the line.
    await page.locator(`${tid('analysis-move')}[data-move="${line[3]}"]`).click();
    await ready(page, 4);
    assert.equal((await shown(page)).position, states[4].position);
    await page.keyboard.press('Home');
    await ready(page, 0);
    await page.keyboard.press('End');
    await ready(page, 4);
    await page.locator(tid('analysis-prev')).click();
    await ready(page, 3);
    assert.equal((await shown(page)).position, states[3].position, '◀ steps back along the main line');

    // The variation promoted: it becomes the main line, the old moves a variation; then deleted.
    await page.locator(`${tid('analysis-move')}[data-move="${other}"]`).click();
    await ready(page, 3);
    await page.locator(tid('analysis-promote')).click();
    await page.waitForFunction((m) => [...document.querySelectorAll('.ab-mainline > [data-testid="analysis-move"]')].some((b) => b.dataset.move === m), other);
    assert.deepEqual(await mainLine(page), [line[0], line[1], other]);
    assert.deepEqual((await treeMoves(page)).filter((m) => m.depth === 1).map((m) => m.move), [line[2], line[3]]);
    await page.locator(`${tid('analysis-move')}[data-move="${line[3]}"]`).click();
    await ready(page, 4);
    assert.equal(await page.locator(tid('analysis-delete')).textContent(), 'Delete variation');
    await page.locator(tid('analysis-delete')).click();
    await ready(page, 2);
    await page.waitForFunction(() => document.querySelector('[data-testid="analysis-tree"]').dataset.variations === '0');
    assert.deepEqual(await mainLine(page), [line[0], line[1], other], 'the variation is gone with its moves');

    // The engine (on by default): three lines with their evaluations, then the solver's verdict.
    await page.locator(`${tid('analysis-move')}[data-move="${other}"]`).click();
    await ready(page, 3);
    assert.equal(await page.locator(tid('analysis-engine-toggle')).getAttribute('aria-pressed'), 'true');
    // While it thinks the lines come depth by depth.
    await page.locator(`${tid('analysis-engine')}[data-state="thinking"] ${tid('analysis-line')}`).first().waitFor({ timeout: T.ai });
    const lines = await engineLines(page);
    assert.equal(lines.length, 3, `three lines: ${JSON.stringify(lines)}`);
    const here = await api.req('POST', '/api/analyse', { moves: [line[0], line[1], other], movetime: 50 });
    assert.equal(new Set(lines.map((l) => l.move)).size, 3, 'three different first moves');
    for (const l of lines) {
      assert.match(l.move, MOVE);
      assert.match(l.eval, /^[+−-]?\d[.,]\d$|wins in \d+ moves?/, `an evaluation in the page's words: ${l.eval}`);
      assert.match(l.words, /connection race|even|wins/, l.words);
      assert.ok(l.moves.length >= 1 && l.moves[0] === l.move, JSON.stringify(l));
    }
    assert.equal(here.position, (await shown(page)).position, 'the engine analyses the position shown');
    const solver = page.locator(tid('analysis-solver'));
    const verdict = await solver.getAttribute('data-verdict');
    assert.ok(['none', 'unknown', 'win'].includes(verdict), `the solver's verdict: ${verdict}`);
    assert.equal(await solver.getAttribute('data-side'), 'black');
    assert.match(await solver.innerText(), /No forced connection found for Black within 3 moves|No time was left|Black (connects|wins) in/);
    assert.match(await page.locator(tid('analysis-stats')).innerText(), /Depth \d+, [\d,]+ positions?, [\d,]+ ms\./);
    // Each of the first line's moves legal where it is played: the second one played from the tree.
    const first = lines[0];
    if (first.moves.length >= 2) {
      await page.locator(tid('analysis-line')).first().locator(`${tid('analysis-line-move')}`).nth(1).click();
      await ready(page, 5);
      const after = await treeMoves(page);
      assert.deepEqual(after.filter((m) => m.ply > 3 && m.depth === 0).map((m) => m.move), first.moves.slice(0, 2), 'the line played into the tree');
    }
    // Turned off, the engine says so and draws no lines; remembered over a reload.
    await page.locator(tid('analysis-engine-toggle')).click();
    await page.locator(`${tid('analysis-engine')}[data-state="off"]`).waitFor();
    assert.equal(await page.locator(tid('analysis-line')).count(), 0);
    await page.reload();
    await ready(page);
    assert.equal(await page.locator(tid('analysis-engine-toggle')).getAttribute('aria-pressed'), 'false');
    await page.locator(tid('analysis-engine-toggle')).click();
    await page.locator(`${tid('analysis-engine')}[data-state="done"]`).waitFor({ timeout: T.ai });
    await checkFits(page, '1366x768');
    await checkAxe(page, 'English, 1366x768');
    await shot(page, PREFIX, 'engine-1366x768');
    // Leaving while the engine thinks: the start screen, and no error.
    await page.locator(tid('analysis-new')).click(); // a new board: nothing analysed yet
    await ready(page, 0);
    await page.locator(`${tid('analysis-engine')}[data-state="thinking"]`).waitFor();
    await page.locator(tid('nav-play')).click();
    await page.locator(tid('start')).waitFor();
  });
});

test('a position string and a record loaded; the current line written out and read back', { timeout: 120000 }, async () => {
  const { server } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const page = await open('io', `${server.url}/analysis`, { ...DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] });
    // A position string that cannot be read is said in words.
    await page.locator(tid('analysis-position-input')).fill('standard:w:0:nonsense');
    await page.locator(tid('analysis-position-load')).click();
    await page.locator(tid('message')).filter({ hasText: 'This position cannot be read.' }).waitFor();
    // two-03: Black to move connects in two whatever White does.
    const p = puzzle('two-03');
    await page.locator(tid('analysis-position-input')).fill(p.position);
    await page.locator(tid('analysis-position-load')).click();
    await page.waitForFunction((pos) => document.querySelector('[data-testid="analysis-board"]').dataset.position === pos, p.position);
    assert.equal((await shown(page)).ply, '0');
    assert.equal(await page.locator(tid('analysis-tree')).getAttribute('data-moves'), '0', 'a new tree');
    assert.equal(new URL(page.url()).hash, `#position=${encodeURIComponent(p.position)}`);
    await page.locator(`${BOARD} [data-best]`).first().waitFor({ state: 'attached', timeout: T.ai });
    await page.locator(`${tid('analysis-engine')}[data-state="done"]`).waitFor({ timeout: T.ai });
    const verdict = page.locator(tid('analysis-verdict'));
    assert.equal(await verdict.getAttribute('data-side'), 'black');
    assert.match((await verdict.innerText()).replace(/\s+/g, ' '), /^Black connects in 2 moves, whatever White does: /);
    // The verdict's line, each move a button playing the line up to it.
    const winning = await verdict.locator(tid('analysis-verdict-move')).evaluateAll((els) => els.map((e) => e.dataset.move));
    assert.equal(winning.length, 3, JSON.stringify(winning));
    await shot(page, PREFIX, 'verdict-1366x768');
    // Its last move plays the whole line into the tree: the game is over there.
    await verdict.locator(tid('analysis-verdict-move')).last().click();
    await ready(page, 3);
    assert.deepEqual(await mainLine(page), winning);
    assert.equal((await shown(page)).status, 'over');
    assert.equal(await page.locator(tid('analysis-status')).innerText(), 'Game over: Black wins');
    await page.locator(`${tid('analysis-engine')}[data-state="over"]`).waitFor();
    // The position string copied, and the link to it.
    const over = (await shown(page)).position;
    await page.locator(tid('analysis-position-copy')).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), over, 'Copy copies the position string');
    await page.locator(tid('analysis-link-copy')).click();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(decodeURIComponent(new URL(link).hash.replace(/^#position=/, '')), over, `the link names the position: ${link}`);
    // two-05 with the turn passed: the puzzle's side threatens to connect, said with its line.
    const q = puzzle('two-05');
    const f = q.position.split(':');
    f[1] = f[1] === 'w' ? 'b' : 'w';
    f[2] = '0';
    await page.locator(tid('analysis-position-input')).fill(f.join(':'));
    await page.locator(tid('analysis-position-load')).click();
    const threat = page.locator(tid('analysis-threat'));
    await threat.waitFor({ timeout: 2 * T.ai });
    assert.equal(await threat.getAttribute('data-side'), q.side);
    const Side = q.side === 'white' ? 'White' : 'Black';
    assert.match((await threat.innerText()).replace(/\s+/g, ' '), new RegExp(`^${Side} threatens to (connect|win) in \\d moves?: `));
    await shot(page, PREFIX, 'threat-1366x768');

    // A record pasted and loaded: its moves are the main line, shown at its end.
    const api = server.api;
    const game = await api.create({ mode: 'hotseat' });
    let state = game.game;
    for (let i = 0; i < 5; i++) state = await api.move(game.id, game.seats.white, pick(state, i + 3));
    const record = await api.record(game.id);
    await page.locator(tid('analysis-record')).fill(record);
    await page.locator(tid('analysis-record-load')).click();
    await ready(page, 5);
    assert.deepEqual(await mainLine(page), state.moves);
    assert.equal((await shown(page)).position, state.position);
    assert.match(await page.locator(tid('analysis-record-note')).innerText(), /Record loaded: 5 moves\./);
    // A record that is not one is said in words.
    await page.locator(tid('analysis-record')).fill('1. Q@Z99/9');
    await page.locator(tid('analysis-record-load')).click();
    await page.locator(tid('message')).filter({ hasText: /not a PÜNCT game record/ }).waitFor();

    // Back two moves and a variation there; the current line is written out from the start to its end.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await ready(page, 3);
    const at3 = await api.game(game.id, 3);
    const other = pick(at3, 17, [state.moves[3]]);
    await page.locator(tid('move-input')).fill(other);
    await page.locator(tid('move-input')).press('Enter');
    await ready(page, 4);
    await page.locator(tid('analysis-record-export')).click();
    await page.locator(tid('analysis-record-note')).filter({ hasText: 'The line shown, 4 moves, is written above.' }).waitFor();
    const written = await page.locator(tid('analysis-record')).inputValue();
    const want = [...state.moves.slice(0, 3), other];
    assert.match(written, /\[Variant "standard"\]/);
    for (const m of want) assert.ok(written.includes(m), `the record has ${m}:\n${written}`);
    assert.ok(!written.includes(state.moves[3]), 'not the main line\'s move 4');
    // The server reads it as the same game.
    const imported = await api.importRecord({ record: written, mode: 'hotseat' });
    assert.deepEqual((await api.game(imported.id)).moves, want, 'the server replays the written record');
    // Downloaded: the same text.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(tid('analysis-record-download')).click()]);
    const file = await download.path();
    assert.equal(readFileSync(file, 'utf8'), written, 'the download is the record written');
    assert.match(download.suggestedFilename(), /\.pgn$/);

    // Read back through the address: the same line, and the same record written again.
    const again = await open('record-link', `${server.url}/analysis#record=${encodeURIComponent(written)}`);
    await ready(again, 4);
    assert.deepEqual(await mainLine(again), want);
    await again.locator(tid('analysis-engine-toggle')).click(); // the engine is not needed here
    await again.locator(tid('analysis-record-export')).click();
    await again.locator(tid('analysis-record-note')).filter({ hasText: '4 moves' }).waitFor();
    assert.equal(await again.locator(tid('analysis-record')).inputValue(), written, 'the record round-trips');
    await again.locator(tid('analysis-engine-toggle')).click();
    await again.close();
  });
});

test('a finished game opens with its moves, from its page too; a game still played is kept closed', { timeout: 120000 }, async () => {
  const { server } = env;
  const api = server.api;
  await withArtifacts(PREFIX, () => pages, async () => {
    // A game at one screen, six moves, resigned.
    const game = await api.create({ mode: 'hotseat' });
    let state = game.game;
    for (let i = 0; i < 6; i++) state = await api.move(game.id, game.seats.white, pick(state, i + 5));
    await api.req('POST', `/api/games/${game.id}/resign`, { token: game.seats.white });
    const moves = state.moves;

    const page = await open('game', `${server.url}/analysis?game=${game.id}`);
    await ready(page, 6);
    assert.deepEqual(await mainLine(page), moves);
    assert.equal((await shown(page)).position, state.position);
    assert.equal(await page.locator(tid('analysis-game-link')).getAttribute('href'), `/game/${game.id}`);
    assert.equal(await page.locator(tid('analysis-result')).textContent(), '0-1', 'the result after the game\'s last move');
    assert.equal(new URL(page.url()).search, `?game=${game.id}&ply=6`);
    await shot(page, PREFIX, 'game-1366x768');
    // Stepping back keeps the game in the address, with the ply shown.
    await page.keyboard.press('ArrowLeft');
    await ready(page, 5);
    await page.waitForFunction((q) => location.search === q, `?game=${game.id}&ply=5`);
    // Off the game's line the address names the position.
    const at5 = await api.game(game.id, 5);
    const other = pick(at5, 23, [moves[5]]);
    await page.locator(tid('move-input')).fill(other);
    await page.locator(tid('move-input')).press('Enter');
    await ready(page, 6);
    const off = new URL(page.url());
    assert.equal(off.search, '', 'no game in the address off its line');
    const pos = decodeURIComponent(off.hash.replace(/^#position=/, ''));
    assert.equal(pos, (await shown(page)).position);
    // That address opens the same position.
    const shared = await open('shared', off.href);
    assert.equal((await shown(shared)).position, pos);
    await shared.close();

    // `&ply=` opens the game there.
    await page.goto(`${server.url}/analysis?game=${game.id}&ply=2`);
    await ready(page, 2);
    assert.equal((await shown(page)).position, (await api.game(game.id, 2)).position);
    assert.equal(await page.locator(tid('analysis-tree')).getAttribute('data-moves'), '6');

    // The finished game's page offers the analysis board.
    await page.goto(`${server.url}/game/${game.id}`);
    const link = page.locator(tid('analyse-game'));
    await link.waitFor();
    assert.equal(await link.textContent(), 'Analyse this game');
    await shot(page, PREFIX, 'game-end-link-1366x768');
    await link.click();
    await page.waitForURL((u) => u.pathname === '/analysis' && u.searchParams.get('game') === game.id);
    await ready(page, 6);
    assert.deepEqual(await mainLine(page), moves);

    // A game against the AI on this device (localgame.js), resigned: its link opens it here too.
    await page.goto(`${server.url}/`);
    await openStart(page, 'ai');
    await page.locator(tid('ai-level')).selectOption('1');
    await page.locator(tid('ai-color')).selectOption('white');
    await page.locator(tid('time-control')).selectOption('none');
    await page.locator(tid('start-ai')).click();
    await page.waitForURL(/\/game\/local-[a-z0-9]+$/);
    const local = new URL(page.url()).pathname.split('/').pop();
    await page.locator(`${tid('game')}[data-ply="0"]`).waitFor({ timeout: T.move });
    await clickMove(page, 'T@B3/0', 'white', { checkLegal: true });
    await page.locator(`${tid('game')}[data-ply="2"]`).waitFor({ timeout: T.ai });
    await page.locator(tid('resign')).click();
    await page.locator(tid('resign')).click(); // the second click confirms
    await page.locator(tid('analyse-game')).click();
    await page.waitForURL((u) => u.pathname === '/analysis' && u.searchParams.get('game') === local);
    await ready(page, 2);
    const localMoves = await mainLine(page);
    assert.equal(localMoves.length, 2);
    assert.equal(localMoves[0], 'T@B3/0');
    assert.equal(await page.locator(tid('analysis-result')).textContent(), '0-1');

    // An online game between people still being played is not opened here (fair play).
    const live = await api.create({ mode: 'online' });
    await page.goto(`${server.url}/analysis?game=${live.id}`);
    await page.locator(tid('message')).filter({ hasText: /still being played between people/ }).waitFor();
    await ready(page, 0);
    assert.equal((await shown(page)).position, 'standard:w:0:-');
  });
});

test('German, and a phone: axe, nothing sideways, a move by taps', { timeout: 120000 }, async () => {
  const { server } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const p = puzzle('two-03');
    const url = `${server.url}/analysis?lang=de#position=${encodeURIComponent(p.position)}`;
    const de = await open('german', url);
    await de.locator(`${tid('analysis-engine')}[data-state="done"]`).waitFor({ timeout: T.ai });
    assert.match(await de.locator(tid('analysis-status')).innerText(), /Schwarz am Zug/);
    assert.match(await de.locator(tid('analysis-engine-toggle')).innerText(), /KI rechnen lassen/);
    assert.equal(new URL(de.url()).searchParams.get('lang'), 'de', 'the address keeps the language');
    await checkFits(de, 'German 1366x768');
    await checkAxe(de, 'German, 1366x768');
    await shot(de, PREFIX, 'german-1366x768');

    const phone = await open('phone', `${server.url}/analysis`, PHONE);
    await phone.locator(`${tid('analysis-engine')}[data-state="done"]`).waitFor({ timeout: T.ai });
    await checkFits(phone, '390x844');
    const box = await phone.locator(BOARD).boundingBox();
    assert.ok(box.width >= 300, `the board is ${box.width} px wide`);
    // A move by taps: the reserve, the cell, the confirmation.
    await phone.locator(tid('reserve-white-T')).tap();
    await phone.locator(`${BOARD} [data-cell="B3"]`).first().tap();
    await phone.locator(tid('confirm-move')).tap();
    await ready(phone, 1);
    assert.deepEqual(await mainLine(phone), ['T@B3/0']);
    await phone.locator(`${tid('analysis-engine')}[data-state="done"]`).waitFor({ timeout: T.ai });
    await checkFits(phone, '390x844 after a move');
    await checkAxe(phone, 'English, 390x844');
    await shot(phone, PREFIX, 'phone-390x844');
  });
});
