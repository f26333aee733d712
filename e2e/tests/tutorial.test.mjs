// The tutorial (/learn): a learner opens it from the site's header, goes
// through every lesson in order by clicking (the reserve, the turn control,
// the board's cells), sees one wrong try explained and the board showing
// Black's winning answer, a covered piece explained, then after the last
// lesson starts a first game against the AI at level 1. The move played
// in each lesson is the one the API offers as its example (the judge is
// the server's); it is made through the page, as a person would. Progress
// survives a reload. On a phone (390 × 844, touch) a lesson is played by
// taps with the confirmation, and nothing scrolls sideways. Screenshots
// at 1366 × 768 and 390 × 844.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, shot, withArtifacts, tid, clickCell, waitGamePage } from '../lib/browser.mjs';
import { DESKTOP, PHONE, overflow, lessonFeedback as feedback, clickPlay, waitLesson } from '../lib/learn.mjs';

const PREFIX = 'tutorial';
const env = serverAndBrowser();
const pages = [];
/** Texts on the page that are message keys, not words (a missing catalogue entry). */
const rawKeys = (page) => page.evaluate(() => (document.body.innerText.match(/\btutorial\.[a-z_.]+/g) || []));

/** Makes `move` on the lesson's board by clicks (taps, then the confirmation, on a touch screen). */
const play = (page, move, t) => clickPlay(page, move, 'white', t);

test('a learner goes through every lesson by clicking and ends in a first game', { timeout: 160000 }, async (t) => {
  const { server } = env;
  const { lessons } = await server.api.req('GET', '/api/learn/lessons');
  assert.ok(lessons.length >= 10, `${lessons.length} lessons`);
  const page = await newPage(env.browser, 'desktop', DESKTOP);
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    // From the start screen's header to the overview, then the first lesson.
    await page.goto(server.url + '/');
    await page.locator(tid('nav-learn')).click();
    await page.waitForURL(/\/learn$/);
    await page.locator(tid('lesson-start')).waitFor();
    assert.equal(await page.locator(tid('nav-learn')).getAttribute('aria-current'), 'page');
    assert.equal(await page.locator(`${tid('lesson-list')} li`).count(), lessons.length);
    assert.deepEqual(await rawKeys(page), []);
    await shot(page, PREFIX, 'overview-1366x768');
    await page.locator(tid('lesson-start')).click();

    for (const [i, lesson] of lessons.entries()) {
      // The board shows the lesson's pieces and marks the goal's cells.
      await waitLesson(page, lesson);
      const title = (await page.locator(tid('lesson-title')).textContent()).trim();
      assert.ok(title && !title.startsWith('tutorial.'), `lesson ${lesson.id}: title ${title}`);
      assert.ok((await page.locator(tid('lesson-goal')).textContent()).trim().length > 20);
      await shot(page, PREFIX, `lesson-${lesson.id}-1366x768`);

      if (lesson.id === 'rotate') {
        // A wrong try, explained: an E along the column fills one cell of three.
        await play(page, 'E@C4/0', t);
        const text = await feedback(page, 'wrong');
        assert.match(text, /D4, E4/, text);
        await shot(page, PREFIX, 'wrong-try-1366x768');
        await page.locator(tid('lesson-retry')).click();
        await page.locator(tid('lesson-feedback')).waitFor({ state: 'hidden' });
      }
      if (lesson.id === 'reach') {
        // A legal addition in a lesson on moving: not "not allowed", but
        // what the lesson asks for.
        const { state } = await server.api.req('GET', `/api/learn/lessons/${lesson.id}`);
        await play(page, state.legal_moves.find((m) => m.startsWith('T@')), t);
        const text = await feedback(page, 'wrong');
        assert.match(text, /moving a piece/, text);
        assert.doesNotMatch(text, /not allowed/, text);
      }
      if (lesson.id === 'pin') {
        // One's own covered piece cannot move: choosing it says why.
        await clickCell(page, 'N11');
        const text = await feedback(page, 'illegal');
        assert.match(text, /N11/, text);
        assert.match(text, /covered/, text);
      }
      if (lesson.id === 'block') {
        // A move elsewhere leaves Black its win, drawn on the board.
        await play(page, 'T@B3/0', t);
        const text = await feedback(page, 'wrong');
        assert.match(text, /[A-Q]\d+/, text);
        await page.locator(`${tid('board')} [data-best]`).waitFor({ state: 'attached' });
        await shot(page, PREFIX, 'block-threat-1366x768');
        await page.locator(tid('lesson-retry')).click();
      }

      await play(page, lesson.example, t);
      const text = await feedback(page, 'right');
      assert.ok(text.length > 20, `lesson ${lesson.id}: ${text}`);
      await page.locator(`${tid(`lesson-link-${lesson.id}`)}[data-done="true"]`).waitFor();
      if (['connect', 'central'].includes(lesson.id)) await shot(page, PREFIX, `lesson-${lesson.id}-won-1366x768`);
      if (i < lessons.length - 1) await page.locator(tid('lesson-next')).click();
    }
    assert.equal(await overflow(page), 0, 'the lesson scrolls sideways');
    assert.deepEqual(await rawKeys(page), []);

    // Progress stays in this browser: the overview counts every lesson done.
    await page.goto(server.url + '/learn');
    await page.locator(tid('lesson-progress')).waitFor();
    assert.match(await page.locator(tid('lesson-progress')).textContent(), new RegExp(`${lessons.length} of ${lessons.length}`));
    for (const l of lessons) assert.equal(await page.locator(tid(`lesson-link-${l.id}`)).getAttribute('data-done'), 'true');
    await shot(page, PREFIX, 'overview-done-1366x768');

    // The first game: against the AI at level 1, the learner White.
    await page.goto(`${server.url}/learn/${lessons.at(-1).id}`);
    await play(page, lessons.at(-1).example, t);
    await feedback(page, 'right');
    await page.locator(tid('first-game')).click();
    const { id, token } = await waitGamePage(page);
    assert.ok(token, 'the page keeps the seat of the new game');
    const game = await server.api.game(id);
    assert.equal(game.mode, 'ai');
    assert.deepEqual(game.ai, { level: 1, side: 'black' });
    assert.equal(await server.api.seatOf(id, token), 'white');
    await shot(page, PREFIX, 'first-game-1366x768');
  });
});

test('on a phone a lesson is played by taps and nothing scrolls sideways', { timeout: 60000 }, async (t) => {
  const { server } = env;
  const page = await newPage(env.browser, 'phone', PHONE);
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    const lesson = await server.api.req('GET', '/api/learn/lessons/jump');
    await page.goto(server.url + '/learn/jump');
    await page.locator(`${tid('board')} [data-goal="F3"]`).waitFor({ state: 'attached' });
    assert.equal(await overflow(page), 0);
    const box = await page.locator(tid('board')).boundingBox();
    assert.ok(box.width >= 300, `the board is ${box.width} px wide`);
    await shot(page, PREFIX, 'lesson-jump-390x844');
    // An illegal try first: the PÜNCT on Black's colour.
    await play(page, 'L8-F2/4', t);
    const text = await feedback(page, 'illegal');
    assert.match(text, /F2/, text);
    await shot(page, PREFIX, 'illegal-try-390x844');
    // The piece stays chosen for another try; start afresh instead.
    assert.equal(await page.locator(tid('rotation')).textContent(), '4');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator(tid('rotation')).textContent(), '–');
    await play(page, lesson.example, t);
    await feedback(page, 'right');
    assert.equal(await overflow(page), 0);
    await shot(page, PREFIX, 'lesson-jump-done-390x844');
    await page.goto(server.url + '/learn');
    await page.locator(tid('lesson-start')).waitFor();
    assert.equal(await overflow(page), 0);
    await shot(page, PREFIX, 'overview-390x844');
  });
});
