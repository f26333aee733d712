// A newcomer's whole journey, in each language (en, de, ja, sk), each in
// one browser context whose locale is the language's (de-DE, ja-JP, …)
// and with no ?lang in any address, so the page takes its language from
// the browser's: the start screen → the header's link to the rules → the
// tutorial (/learn), its lessons passed one by one → a first game against
// the AI at level 1 (one move, and the AI's reply) → the puzzles, the
// puzzle of the day solved. Each language plays another way:
//
//   de  mouse clicks, 1366 × 768       every lesson (and one wrong try)
//   ja  keyboard alone, 1366 × 768     every lesson; no pointer event at all
//   sk  finger taps, 390 × 844 touch   every lesson, each move confirmed
//   en  mouse clicks, 1366 × 768       the first 2 lessons, then the first
//                                       game from the overview; at the end
//                                       the header's language select
//
// (English passes only the first lessons to keep the file near a minute
// and a half; the first game is reached from the last lesson in de, ja
// and sk and from the tutorial's overview in en.) The move in each lesson
// is the one GET /api/learn/lessons offers as its `example` (the judge is
// the server's), made through the page as a person would.
//
// On every screen visited: <html lang> is the language; the headings,
// lesson titles and goals, the judge's answers, the puzzle's task are the
// catalogue's texts in it; no catalogue key shows in place of its text;
// no English catalogue text shows (or is read out: aria-labels, titles
// and screen-reader text count) where the language has its own text, and
// no English word that none of the language's texts uses — what an
// untranslated string hard-coded in the page looks like (names, notation
// and text marked with another lang, such as the language select's
// names, are allowed); and axe-core finds no serious or critical WCAG 2.1
// A/AA violation (on the start screen, the rules, the tutorial's
// overview, the first lesson answered, German's wrong try, the game, the
// puzzles' overview and the solved puzzle; the words on every lesson).
// By keyboard the live regions speak the language: the cursor's cell and
// its verdict ("ピースをここに置けます。") before each Enter, the game's moves
// after it. By touch every move waits for its confirmation, which asks in
// the language. The page's problems are collected and reported together
// at the end of each language's journey.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, watchPage, shot, withArtifacts, tid, T, waitGamePage } from '../lib/browser.mjs';
import { Geometry, parseMove } from '../lib/rules.mjs';
import { tabTo, waitSaid, countPointers, said } from '../lib/keys.mjs';
import { axeViolations, serious, describeViolations } from '../lib/axe.mjs';
import { loadCatalogues, tr, isText, shownTexts, rawKeys, englishLeftovers, foreignWords } from '../lib/i18n.mjs';
import {
  DESKTOP, PHONE, overflow, lessonFeedback, waitLesson, waitPuzzle, solvePuzzle, clickPlay, tapPlay, keyPlay,
} from '../lib/learn.mjs';

const PREFIX = 'journey';
const env = serverAndBrowser();
const pages = [];

const JOURNEYS = [
  { lang: 'de', locale: 'de-DE', input: 'mouse', options: DESKTOP, lessons: Infinity, size: '1366x768' },
  { lang: 'ja', locale: 'ja-JP', input: 'keyboard', options: DESKTOP, lessons: Infinity, size: '1366x768' },
  { lang: 'sk', locale: 'sk-SK', input: 'touch', options: PHONE, lessons: Infinity, size: '390x844' },
  { lang: 'en', locale: 'en-US', input: 'mouse', options: DESKTOP, lessons: 2, size: '1366x768' },
];

// What every journey needs from the server, fetched once.
let known = null;
async function knowledge() {
  const { api, url } = env.server;
  known ??= (async () => ({
    cats: await loadCatalogues(url),
    lessons: (await api.req('GET', '/api/learn/lessons')).lessons,
    daily: await api.req('GET', '/api/learn/puzzles/daily'),
    geo: new Geometry(await api.board()),
  }))();
  return known;
}

/**
 * What is wrong on the screen shown in `lang`: <html lang>, catalogue keys
 * in place of texts, English texts and words, and (with `axe`) axe-core's
 * serious and critical violations. Answers the problems in words.
 */
async function checkScreen(page, cats, lang, screen, { axe = true } = {}) {
  const problems = [];
  const shownLang = await page.evaluate(() => document.documentElement.lang);
  if (shownLang !== lang) problems.push(`${lang} ${screen}: <html lang> is ${JSON.stringify(shownLang)}`);
  const texts = await shownTexts(page);
  for (const k of await rawKeys(page, cats, texts)) problems.push(`${lang} ${screen}: a catalogue key shows: ${k}`);
  for (const e of await englishLeftovers(page, cats, lang, texts)) {
    problems.push(`${lang} ${screen}: English text ${JSON.stringify(e.text)} (${e.key}) at ${e.where}`);
  }
  for (const e of await foreignWords(page, cats, lang, texts)) {
    problems.push(`${lang} ${screen}: the English word ${JSON.stringify(e.word)}, in no ${lang} text, in ${JSON.stringify(e.text)} at ${e.where}`);
  }
  if (axe) {
    const bad = serious(await axeViolations(page));
    if (bad.length) {
      problems.push(`${lang} ${screen}: axe:\n  ${describeViolations(bad)}`);
      await shot(page, PREFIX, `axe-${lang}-${screen}`);
    }
  }
  return problems;
}

/**
 * One newcomer: `plan` from JOURNEYS. Problems with the page's words or
 * accessibility are collected (all of them, then one assertion); a step
 * that does not work fails at once.
 */
async function journey(t, plan) {
  const { lang, locale, input, options, size } = plan;
  const { server, browser } = env;
  const { cats, lessons, daily, geo } = await knowledge();
  const say = (key, params) => tr(cats, lang, key, params);
  const problems = [];
  const page = await newPage(browser, `${lang}-${input}`, { ...options, locale });
  pages.push(page);
  const play = { mouse: clickPlay, touch: tapPlay, keyboard: keyPlay(geo) }[input];
  /** Activates a link or button the journey's way: a click, a tap, or Tab to it and Enter. */
  const act = async (selector) => {
    if (input === 'keyboard') {
      await tabTo(page, selector);
      await page.keyboard.press('Enter');
    } else if (input === 'touch') {
      await page.locator(selector).tap();
    } else {
      await page.locator(selector).click();
    }
  };
  /**
   * What is checked before a move is played: by keyboard the cursor's
   * cell is said, in the language, with "the piece can go here"; by touch
   * the confirmation asks "Play {move}?" in the language.
   */
  const beforePlay = (move) => async () => {
    if (input === 'keyboard') {
      const legal = say('a11y.cell.legal');
      try {
        await page.waitForFunction((w) => (document.querySelector('[data-testid="cursor-info"]')?.textContent || '').includes(w),
          legal, { timeout: T.step, polling: 50 });
      } catch {
        throw new Error(`${lang}: for ${move} the cursor's cell is said as ${JSON.stringify(await page.locator(tid('cursor-info')).textContent())}, without ${JSON.stringify(legal)}`);
      }
    } else if (input === 'touch') {
      const asked = ((await page.locator(tid('confirm-text')).textContent()) || '').trim();
      if (asked !== say('game.confirm.ask', { move })) problems.push(`${lang}: the touch confirmation for ${move} says ${JSON.stringify(asked)}, not ${JSON.stringify(say('game.confirm.ask', { move }))}`);
    }
  };
  const move = (m, side = 'white') => play(page, m, side, t, { beforePlay: beforePlay(m) });

  /** The checks on every screen (checkScreen), and a screenshot when `name` is given. */
  const check = async (screen, { axe = true, name = null } = {}) => {
    problems.push(...await checkScreen(page, cats, lang, screen, { axe }));
    if (name) await shot(page, PREFIX, `${lang}-${name}-${size}`);
    t.diagnostic(`${lang} ${screen}: checked`);
  };

  // ---- the start screen, in the browser's language
  await page.goto(server.url + '/');
  await page.locator(tid('start')).waitFor();
  if (input === 'keyboard') await countPointers(page);
  for (const id of ['play', 'rules', 'learn', 'puzzles']) {
    assert.equal((await page.locator(tid(`nav-${id}`)).textContent()).trim(), say(`nav.${id}`), `${lang}: the header's ${id}`);
  }
  assert.equal(await page.locator(tid('lang')).inputValue(), lang, `${lang}: the language select shows the browser's language`);
  await check('start');

  // ---- the rules, from the header
  await act(tid('nav-rules'));
  await page.waitForURL(/\/rules$/);
  await page.locator(`${tid('rules')}[data-diagrams="ready"]`).waitFor({ timeout: T.move });
  assert.equal((await page.locator(`${tid('rules')} h1`).textContent()).trim(), say('rules.heading'), `${lang}: the rules' heading`);
  const sections = await page.locator('[data-testid^="rules-section-"]').evaluateAll((els) =>
    els.map((s) => ({ id: s.dataset.testid.slice('rules-section-'.length), title: s.querySelector('h2').textContent.trim() })));
  assert.ok(sections.length >= 12, `${sections.length} sections`);
  for (const s of sections) assert.equal(s.title, say(`rules.${s.id}.title`), `${lang}: the title of the rules' section ${s.id}`);
  const toc = await page.locator(`${tid('rules-toc')} a`).evaluateAll((as) => as.map((a) => a.textContent.trim()));
  assert.deepEqual(toc, sections.map((s) => s.title), `${lang}: the contents name the sections`);
  await check('rules', { name: 'rules' });

  // ---- the tutorial: the overview, then the lessons
  await act(tid(lang === 'de' ? 'rules-to-learn' : 'nav-learn'));
  await page.waitForURL(/\/learn$/);
  await page.locator(tid('lesson-start')).waitFor();
  assert.equal((await page.locator(`${tid('tutorial')} h1`).textContent()).trim(), say('tutorial.heading'));
  await check('learn');
  await act(tid('lesson-start'));
  const count = Math.min(plan.lessons, lessons.length);
  for (const [i, lesson] of lessons.slice(0, count).entries()) {
    await waitLesson(page, lesson);
    assert.equal((await page.locator(tid('lesson-title')).textContent()).trim(), say(`tutorial.lesson.${lesson.id}.title`), `${lang}: lesson ${lesson.id}'s title`);
    assert.equal((await page.locator(tid('lesson-goal')).textContent()).trim(), say(`tutorial.lesson.${lesson.id}.goal`), `${lang}: lesson ${lesson.id}'s goal`);
    if (lang === 'de' && lesson.id === 'rotate') {
      // A wrong try (an E along the column fills one goal cell of three), answered in German.
      await move('E@C4/0');
      const wrong = await lessonFeedback(page, 'wrong');
      assert.ok(wrong.startsWith(say('tutorial.feedback.wrong')), wrong);
      await check('lesson-rotate-wrong', { name: 'wrong-try' });
      await act(tid('lesson-retry'));
      await page.locator(tid('lesson-feedback')).waitFor({ state: 'hidden' });
    }
    if (input === 'keyboard' && i === 0) {
      // Picking a kind by its letter is said, as on the game screen
      // (a11y.sel.add, "Adding T, turned to 0: …").
      const kind = parseMove(lesson.example).kind;
      await tabTo(page, tid('board'));
      await page.keyboard.press(kind);
      const spoken = await page.waitForFunction((w) => (document.querySelector('[data-testid="cursor-info"]')?.textContent || '').startsWith(w),
        say('a11y.sel.add', { kind, rotation: 0, count: 2 }).split(/\d|：|:/)[0], { timeout: 1000, polling: 50 }).then(() => true, () => false);
      assert.ok(spoken, `${lang} /learn/${lesson.id}: picking ${kind} by its key is not said (cursor-info: ${JSON.stringify(await page.locator(tid('cursor-info')).textContent())})`);
      await page.keyboard.press('Escape');
    }
    await move(lesson.example);
    const right = await lessonFeedback(page, 'right');
    const head = say('tutorial.feedback.right');
    assert.ok(right.startsWith(head), `${lang}: lesson ${lesson.id} answered ${JSON.stringify(right)}, not starting with ${head}`);
    const message = ((await page.locator(tid('lesson-message')).textContent()) || '').trim();
    assert.ok(isText(cats, lang, `tutorial.lesson.${lesson.id}.done`, message), `${lang}: lesson ${lesson.id}'s message ${JSON.stringify(message)}`);
    await page.locator(`${tid(`lesson-link-${lesson.id}`)}[data-done="true"]`).waitFor();
    // axe on the first lesson (answered); the words on every one.
    await check(`lesson-${lesson.id}`, { axe: i === 0, name: i === 0 ? `lesson-${lesson.id}` : null });
    if (i < count - 1) await act(tid('lesson-next'));
  }
  assert.ok((await overflow(page)) <= 0, `${lang}: the lesson scrolls sideways`);

  // ---- the first game: against the AI at level 1, White
  if (count < lessons.length) {
    await act(tid('lesson-overview'));
    await page.waitForURL(/\/learn$/);
    await page.locator(tid('lesson-progress')).waitFor();
    assert.equal((await page.locator(tid('lesson-progress')).textContent()).trim(), say('tutorial.progress', { done: count, count: lessons.length }));
  }
  await act(tid('first-game'));
  const { id, token } = await waitGamePage(page);
  const created = await server.api.game(id);
  assert.equal(created.mode, 'ai');
  assert.deepEqual(created.ai, { level: 1, side: 'black' });
  assert.equal(await server.api.seatOf(id, token), 'white');
  await page.locator(`${tid('game')}[data-to-move="white"]`).waitFor({ timeout: T.ai });
  // A first move near the centre, turned (the keyboard's cursor starts on I9).
  const first = created.legal_moves
    .filter((m) => /^[ELM]@/.test(m) && !m.endsWith('/0'))
    .sort((a, b) => geo.distance(parseMove(a).to, 'I8') - geo.distance(parseMove(b).to, 'I8'))[0];
  await move(first);
  const after = await server.api.waitFor(id, (g) => g.ply >= 2, { timeoutMs: T.ai, what: 'the move and the AI\'s reply' });
  assert.equal(after.moves[0], first);
  const mv = parseMove(first);
  // The live region says the move, and then whose turn it is, in the language.
  await waitSaid(page, say('a11y.said.add.white', { kind: mv.kind, cell: mv.to, rotation: mv.rotation }));
  await waitSaid(page, say('a11y.said.to_move.white'));
  // (a move's sentence may go on with where the piece lies)
  const reply = (await said(page)).filter((e) => ['add', 'move', 'turn', 'pass'].some((k) => isText(cats, lang, `a11y.said.${k}.black`, e, { prefix: true })));
  assert.ok(reply.length >= 1, `${lang}: the AI's reply is said in the language: ${JSON.stringify(await said(page))}`);
  await check('game', { name: 'first-game' });

  // ---- the puzzles: the overview, then the puzzle of the day
  await act(tid('nav-puzzles'));
  await page.waitForURL(/\/puzzles$/);
  await page.locator(tid('puzzle-daily')).waitFor();
  assert.equal((await page.locator(`${tid('puzzles')} h1`).first().textContent()).trim(), say('puzzles.heading'));
  await check('puzzles');
  await act(tid('puzzle-daily-open'));
  await page.waitForURL(new RegExp(`/puzzles/${daily.puzzle.id}\\?daily=${daily.date}$`));
  await waitPuzzle(page, daily.puzzle);
  const side = daily.puzzle.side;
  const task = (await page.locator(tid('puzzle-task')).textContent()).trim();
  assert.equal(task, say(`puzzles.task.${daily.puzzle.kind.replace(/-/g, '_')}.${side}`), `${lang}: the daily puzzle's task`);
  const solved = await solvePuzzle(page, daily.puzzle, t, (p, m, s) => play(p, m, s, t, { beforePlay: beforePlay(m) }));
  assert.ok(solved.startsWith(say('puzzles.feedback.right')), `${lang}: the puzzle answered ${JSON.stringify(solved)}`);
  await page.locator(`${tid(`puzzle-link-${daily.puzzle.id}`)}[data-solved="true"]`).waitFor();
  await check('puzzle-solved', { name: 'daily-solved' });

  if (input === 'keyboard') assert.equal(await page.evaluate(() => window.__clicks), 0, `${lang}: a pointer was used`);
  return { page, problems };
}

for (const plan of JOURNEYS) {
  const how = { mouse: 'by mouse', keyboard: 'by keyboard alone', touch: 'by taps on a phone' }[plan.input];
  test(`a newcomer in ${plan.lang} (${plan.locale}) ${how}: rules, lessons, a first game, the puzzle of the day`, { timeout: 120000 }, async (t) => {
    await withArtifacts(PREFIX, () => pages, async () => {
      const { page, problems } = await journey(t, plan);
      if (plan.lang === 'en') {
        // The header's language select: choosing Slovenčina shows the same
        // screen in Slovak (a reload), and this browser keeps the choice
        // over its own language (en-US) in a new tab.
        const { cats, daily } = await knowledge();
        await page.locator(tid('lang')).selectOption('sk');
        await page.waitForFunction(() => document.documentElement.lang === 'sk', null, { timeout: T.move });
        await page.locator(tid('puzzle-task')).waitFor();
        assert.match(page.url(), new RegExp(`/puzzles/${daily.puzzle.id}\\?daily=`), 'the same screen');
        assert.equal((await page.locator(tid('puzzle-task')).textContent()).trim(),
          tr(cats, 'sk', `puzzles.task.${daily.puzzle.kind.replace(/-/g, '_')}.${daily.puzzle.side}`));
        assert.equal((await page.locator(tid('nav-rules')).textContent()).trim(), tr(cats, 'sk', 'nav.rules'));
        assert.equal(await page.locator(tid('lang')).inputValue(), 'sk');
        problems.push(...await checkScreen(page, cats, 'sk', 'puzzle after the switch', { axe: false }));
        const again = watchPage(await page.context().newPage(), `${page.label}-new-tab`);
        await again.goto(env.server.url + '/rules');
        await again.locator(`${tid('rules')} h1`).waitFor();
        assert.equal(await again.evaluate(() => document.documentElement.lang), 'sk', 'a new tab keeps the chosen language over the browser\'s');
        assert.equal((await again.locator(`${tid('rules')} h1`).textContent()).trim(), tr(cats, 'sk', 'rules.heading'));
        await shot(again, PREFIX, 'en-switched-to-sk-rules');
        await again.close();
      }
      if (problems.length) t.diagnostic(problems.join('\n'));
      assert.deepEqual(problems, [], `${plan.lang}: ${problems.length} problems with the page's words or accessibility`);
    });
  });
}
