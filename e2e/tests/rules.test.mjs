// The rules page (/rules): reached from every screen's header, it has its
// table of contents and every section, draws every diagram of
// GET /api/learn/diagrams with as many pieces as the diagram's state has
// and every move it shows (a ghost each, named in words below), shows no
// untranslated key, ends with links to the lessons and the puzzles, and
// reads on a phone without sideways scrolling. Screenshots at 1366 × 768
// and 390 × 844.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, shot, withArtifacts, tid } from '../lib/browser.mjs';

const PREFIX = 'rules';
const env = serverAndBrowser();
const pages = [];
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
// The sections the page explains, in order (rules.js SECTIONS, then the links).
const SECTIONS = ['board', 'pieces', 'turn', 'adding', 'moving', 'stacking', 'bridges', 'covered',
  'winning', 'end', 'variants', 'notation', 'more'];

async function openRules(label, options) {
  const page = await newPage(env.browser, label, options);
  pages.push(page);
  await page.goto(env.server.url + '/rules');
  await page.locator(`${tid('rules')}[data-diagrams="ready"]`).waitFor();
  return page;
}

/** What the page drew of each diagram: pieces on the board, ghosts, words for the moves, the caption. */
function drawn(page) {
  return page.evaluate(() => [...document.querySelectorAll('figure[data-diagram]')].map((f) => ({
    id: f.dataset.diagram,
    section: f.closest('section')?.id,
    boards: f.querySelectorAll('svg.board').length,
    pieces: f.querySelectorAll('svg.board g.pieces > g.piece').length,
    ghosts: [...f.querySelectorAll('svg.board g.overlay g.piece[data-shown]')].map((g) => ({ move: g.dataset.shown, bad: g.classList.contains('bad') })),
    words: [...f.querySelectorAll('.rules-shown li')].map((li) => ({ move: li.dataset.shown, text: li.textContent })),
    caption: f.querySelector('figcaption')?.firstChild?.textContent || '',
    label: f.querySelector('svg.board').getAttribute('aria-label'),
    width: f.querySelector('svg.board').getBoundingClientRect().width,
    chain: f.querySelectorAll('svg.board .chain').length,
  })));
}

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('the rules page explains every section and draws every diagram', { timeout: 90000 }, async () => {
  const { server } = env;
  const { diagrams } = await server.api.req('GET', '/api/learn/diagrams');
  assert.ok(diagrams.length >= 12, `${diagrams.length} diagrams`);
  const page = await newPage(env.browser, 'desktop', DESKTOP);
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    // Reached from the start screen's header, without a reload.
    await page.goto(server.url + '/');
    await page.locator(tid('nav-rules')).click();
    await page.waitForURL(/\/rules$/);
    await page.locator(`${tid('rules')}[data-diagrams="ready"]`).waitFor();
    assert.equal(await page.locator(tid('nav-rules')).getAttribute('aria-current'), 'page');
    assert.match(await page.title(), /PÜNCT/);

    // The contents name every section, in order, and each is on the page.
    const toc = await page.locator(`${tid('rules-toc')} a`).evaluateAll((as) => as.map((a) => a.dataset.section));
    assert.deepEqual(toc, SECTIONS);
    for (const s of SECTIONS) {
      const section = page.locator(tid(`rules-section-${s}`));
      assert.equal(await section.count(), 1, `section ${s}`);
      assert.ok((await section.locator('h2').textContent()).trim().length > 0, `section ${s} has a title`);
      assert.ok((await section.locator('p').count()) >= 1, `section ${s} has text`);
    }
    // Every kind of piece in the table, with its count.
    assert.equal(await page.locator(`${tid('rules-kinds')} li`).count(), 6);
    assert.match(await page.locator(`${tid('rules-kinds')} li[data-kind="E"]`).textContent(), /4/);

    // Every diagram drawn in its section: the pieces of its state, a ghost
    // for every move it shows (crossed when not allowed), the moves in words.
    const figures = await drawn(page);
    assert.deepEqual(figures.map((f) => f.id), diagrams.map((d) => d.id));
    for (const d of diagrams) {
      const f = figures.find((x) => x.id === d.id);
      assert.equal(f.section, `rules-${d.section}`, `${d.id} in its section`);
      assert.equal(f.boards, 1, `${d.id}: one board`);
      assert.equal(f.pieces, d.state.pieces.length, `${d.id}: pieces drawn`);
      assert.deepEqual(f.ghosts, d.show.map((s) => ({ move: s.move, bad: !s.legal })), `${d.id}: moves drawn`);
      assert.deepEqual(f.words.map((w) => w.move), d.show.map((s) => s.move), `${d.id}: moves in words`);
      for (const w of f.words) assert.ok(w.text.includes(w.move), `${d.id}: ${w.text}`);
      assert.ok(f.caption.length > 20 && !f.caption.startsWith('rules.'), `${d.id}: caption ${f.caption}`);
      assert.equal(f.label, f.caption, `${d.id}: the picture is named by its caption`);
      assert.ok(f.width >= 250, `${d.id} is ${f.width} px wide`);
      if (d.state.result?.chain) assert.equal(f.chain, d.state.result.chain.length, `${d.id}: the chain`);
    }
    // No key without its text anywhere.
    const text = await page.locator(tid('rules')).innerText();
    assert.doesNotMatch(text, /\brules\.[a-z]/, 'a catalogue key shows');

    // A contents link brings its section into view (the address stays /rules).
    await page.locator(`${tid('rules-toc')} a[data-section="winning"]`).click();
    await page.waitForFunction(() => {
      const r = document.getElementById('rules-winning').getBoundingClientRect();
      return r.top >= -2 && r.top < window.innerHeight / 2;
    });
    assert.match(page.url(), /\/rules$/);
    assert.equal(await page.locator(`${tid('rules')}[data-diagrams="ready"]`).count(), 1, 'the page was not rebuilt');

    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, PREFIX, 'desktop-1366x768');

    // The end links to the lessons and the puzzles, inside the site.
    assert.equal(await page.locator(tid('rules-to-learn')).getAttribute('href'), '/learn');
    assert.equal(await page.locator(tid('rules-to-puzzles')).getAttribute('href'), '/puzzles');
    await page.locator(tid('rules-to-learn')).click();
    await page.waitForURL(/\/learn$/);
    assert.equal(await page.locator(tid('rules')).count(), 0, 'the rules screen left');
    // The other screens link back to the rules from their header too.
    for (const where of ['/learn', '/puzzles']) {
      await page.goto(server.url + where);
      assert.equal(await page.locator(tid('nav-rules')).getAttribute('href'), '/rules', `${where} links to /rules`);
    }
    assert.deepEqual(page.problems, [], 'console errors');
  });
});

test('on a phone the rules read without sideways scrolling', { timeout: 60000 }, async () => {
  const { diagrams } = await env.server.api.req('GET', '/api/learn/diagrams');
  const page = await openRules('phone', PHONE);
  await withArtifacts(PREFIX, () => pages, async () => {
    assert.ok((await overflow(page)) <= 1, 'the rules page scrolls sideways');
    const figures = await drawn(page);
    assert.equal(figures.length, diagrams.length);
    for (const f of figures) {
      assert.ok(f.width >= 250 && f.width <= 390, `${f.id} is ${f.width} px wide on a 390 px screen`);
      assert.equal(f.pieces, diagrams.find((d) => d.id === f.id).state.pieces.length, `${f.id}: pieces drawn`);
    }
    // Every figure fits in the screen's width.
    const wide = await page.evaluate(() => [...document.querySelectorAll('figure[data-diagram], .rules-page p, .rules-kinds li')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1).map((el) => el.dataset.diagram || el.textContent.slice(0, 30)));
    assert.deepEqual(wide, []);
    await shot(page, PREFIX, 'phone-390x844');
    assert.deepEqual(page.problems, [], 'console errors');
  });
});
