// The puzzles (/puzzles): reached from the site's header; the overview
// shows the puzzle of the day and every puzzle by kind; the daily puzzle
// and one puzzle of each kind are solved by clicks (the reserve, `rotate`,
// the board's cells): a win in one, a stop-the-win after one wrong try
// (answered with the opponent's winning move), a win in two (the first
// move, the site's reply, the winning move). Solved puzzles are ticked and
// stay so after a reload; "show the solution" lists every solution. On a
// phone (390 × 844, touch) a puzzle is solved by taps with the
// confirmation and nothing scrolls sideways. Screenshots at 1366 × 768 and
// 390 × 844.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, shot, withArtifacts, tid } from '../lib/browser.mjs';
import { DESKTOP, PHONE, overflow, puzzleFeedback as feedback, clickPlay as play, openPuzzle as open, solvePuzzle } from '../lib/learn.mjs';

const PREFIX = 'puzzles';
const env = serverAndBrowser();
const pages = [];
/** Texts on the page that are message keys, not words (a missing catalogue entry). */
const rawKeys = (page) => page.evaluate(() => (document.body.innerText.match(/\b(puzzles|tutorial|error)\.[a-z_.]+/g) || []));

/** Solves puzzle `p` by clicks (taps, then the confirmation, on a touch screen); answers the last message. */
const solve = (page, p, t) => solvePuzzle(page, p, t, play);

test('the daily puzzle and one of each kind solved by clicks, one wrong try', { timeout: 150000 }, async (t) => {
  const { server } = env;
  const list = await server.api.req('GET', '/api/learn/puzzles');
  const daily = await server.api.req('GET', '/api/learn/puzzles/daily');
  const page = await newPage(env.browser, 'desktop', DESKTOP);
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    // From the start screen's header to the overview.
    await page.goto(server.url + '/');
    await page.locator(tid('nav-puzzles')).click();
    await page.waitForURL(/\/puzzles$/);
    await page.locator(tid('puzzle-daily')).waitFor();
    assert.equal(await page.locator(tid('nav-puzzles')).getAttribute('aria-current'), 'page');
    for (const kind of list.kinds) {
      const n = list.puzzles.filter((p) => p.kind === kind).length;
      assert.equal(await page.locator(`${tid(`puzzle-list-${kind}`)} li`).count(), n, kind);
    }
    assert.match(await page.locator(tid('puzzle-progress')).textContent(), new RegExp(`0 of ${list.count}`));
    assert.deepEqual(await rawKeys(page), []);
    assert.equal(await overflow(page), 0);
    await shot(page, PREFIX, 'overview-1366x768');

    // The puzzle of the day, from its box.
    await page.locator(tid('puzzle-daily-open')).click();
    await page.waitForURL(new RegExp(`/puzzles/${daily.puzzle.id}\\?daily=${daily.date}$`));
    await page.locator(tid('puzzle-daily-badge')).waitFor();
    await page.locator(`[data-puzzle="${daily.puzzle.id}"] ${tid('board')} [data-piece-cell]`).first().waitFor({ state: 'attached' });
    const task = (await page.locator(tid('puzzle-task')).textContent()).trim();
    assert.match(task, /^(White|Black) to play and /, task);
    await shot(page, PREFIX, `daily-${daily.puzzle.kind}-1366x768`);
    const said = await solve(page, daily.puzzle, t);
    assert.ok(said.length > 10, said);
    await page.locator(`${tid(`puzzle-link-${daily.puzzle.id}`)}[data-solved="true"]`).waitFor();
    await shot(page, PREFIX, 'daily-solved-1366x768');

    // One of each kind (not the daily one).
    for (const kind of list.kinds) {
      const item = list.puzzles.find((p) => p.kind === kind && p.id !== daily.puzzle.id);
      const p = await server.api.req('GET', `/api/learn/puzzles/${item.id}`);
      await open(page, server.url, p);
      assert.match((await page.locator(tid('puzzle-task')).textContent()).trim(), /^(White|Black) to play and /);
      if (kind === 'stop-the-win') {
        // A wrong try: a move far from the threat, answered with the win it leaves.
        const wrong = p.state.legal_moves.find((m) => /^[TCELMR]@/.test(m) && !p.solutions.includes(m));
        await play(page, wrong, p.side, t);
        const text = await feedback(page, 'wrong');
        assert.match(text, /wins with ([TCELMR]@)?[A-Q]\d+/, text);
        await page.locator(`${tid('board')} .chain`).first().waitFor({ state: 'attached' });
        await shot(page, PREFIX, 'wrong-try-1366x768');
        await page.locator(tid('puzzle-retry')).click();
        await page.locator(tid('puzzle-feedback')).waitFor({ state: 'hidden' });
      }
      await solve(page, p, t);
      await page.locator(`${tid(`puzzle-link-${p.id}`)}[data-solved="true"]`).waitFor();
      await page.locator(tid('puzzle-solved-mark')).waitFor();
      await shot(page, PREFIX, `solved-${kind}-1366x768`);
    }
    assert.deepEqual(await rawKeys(page), []);
    assert.equal(await overflow(page), 0, 'the puzzle scrolls sideways');

    // The solution shown: every solution in words, the first drawn.
    const other = list.puzzles.find((p) => p.kind === 'win-in-one' && p.id !== daily.puzzle.id);
    const full = await server.api.req('GET', `/api/learn/puzzles/${list.puzzles.at(-1).id}`);
    await open(page, server.url, full);
    await page.locator(tid('puzzle-show')).click();
    const solution = (await page.locator(tid('puzzle-solution')).textContent()).trim();
    for (const m of full.solutions) assert.ok(solution.includes(m), `${m} not in ${solution}`);
    await page.locator(`${tid('board')} [data-best]`).first().waitFor({ state: 'attached' });
    await shot(page, PREFIX, 'solution-shown-1366x768');
    assert.ok(other);

    // The solved ones are remembered in this browser.
    await page.goto(server.url + '/puzzles');
    await page.locator(tid('puzzle-progress')).waitFor();
    const solvedIds = new Set([daily.puzzle.id,
      ...list.kinds.map((k) => list.puzzles.find((p) => p.kind === k && p.id !== daily.puzzle.id).id)]);
    assert.match(await page.locator(tid('puzzle-progress')).textContent(), new RegExp(`${solvedIds.size} of ${list.count}`));
    for (const id of solvedIds) assert.equal(await page.locator(tid(`puzzle-link-${id}`)).getAttribute('data-solved'), 'true');
    await shot(page, PREFIX, 'overview-progress-1366x768');
  });
});

test('on a phone a puzzle is solved by taps and nothing scrolls sideways', { timeout: 60000 }, async (t) => {
  const { server } = env;
  const page = await newPage(env.browser, 'phone', PHONE);
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    await page.goto(server.url + '/puzzles');
    await page.locator(tid('puzzle-daily')).waitFor();
    assert.equal(await overflow(page), 0);
    await shot(page, PREFIX, 'overview-390x844');
    const list = await server.api.req('GET', '/api/learn/puzzles');
    const item = list.puzzles.find((p) => p.kind === 'win-in-two');
    const p = await server.api.req('GET', `/api/learn/puzzles/${item.id}`);
    await open(page, server.url, p);
    assert.equal(await overflow(page), 0);
    const box = await page.locator(tid('board')).boundingBox();
    assert.ok(box.width >= 300, `the board is ${box.width} px wide`);
    await shot(page, PREFIX, 'win-in-two-390x844');
    await solve(page, p, t);
    assert.equal(await overflow(page), 0);
    await shot(page, PREFIX, 'win-in-two-solved-390x844');
  });
});
