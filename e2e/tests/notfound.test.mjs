// Addresses with nothing behind them: a page address the site does not
// have answers 404 with the page, which says so in the reader's language
// with a way back; an API address keeps its JSON error; a game that does
// not exist says so in place of "Loading the game…".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, withArtifacts, shot, tid } from '../lib/browser.mjs';
import { loadCatalogues, tr } from '../lib/i18n.mjs';

const env = serverAndBrowser();
const pages = [];

test('a page that does not exist is a translated page with a way back; the API keeps JSON', { timeout: 60000 }, async () => {
  const { url } = env.server;
  const cats = await loadCatalogues(url);
  // The API's JSON, whatever the client accepts.
  const api = await fetch(`${url}/api/nonsense`, { headers: { accept: 'text/html' } });
  assert.equal(api.status, 404);
  assert.equal((await api.json()).error.code, 'not_found');
  const script = await fetch(`${url}/nonsense`);
  assert.equal(script.status, 404);
  assert.equal((await script.json()).error.code, 'not_found', 'a client that does not ask for HTML gets JSON');

  await withArtifacts('notfound', () => pages, async () => {
    for (const [lang, viewport] of [['en', { width: 1366, height: 768 }], ['de', { width: 390, height: 844 }]]) {
      const page = await newPage(env.browser, `notfound-${lang}`, { viewport, locale: lang });
      pages.push(page);
      page.allowedProblems.push({ pattern: /^console\.error: Failed to load resource: the server responded with a status of 404/, why: 'the address asked for is not a page: its answer is the 404 page' });
      const answer = await page.goto(`${url}/nonsense/deeper`);
      assert.equal(answer.status(), 404);
      await page.locator(tid('not-found')).waitFor();
      assert.equal((await page.locator(`${tid('not-found')} h1`).textContent()).trim(), tr(cats, lang, 'notfound.title'));
      assert.doesNotMatch(await page.locator('body').innerText(), /"error"|not_found/, 'no raw JSON');
      await shot(page, 'notfound', `page-${lang}`);

      // A game that does not exist: said in place of "Loading…".
      await page.goto(`${url}/game/doesnotexist`);
      const failed = page.locator(tid('game-load-failed'));
      await failed.waitFor();
      assert.equal(await page.locator(tid('game-loading')).count(), 0, '"Loading the game…" is gone');
      assert.ok((await failed.textContent()).trim().length > 5);
      await shot(page, 'notfound', `game-${lang}`);

      // The way back.
      await page.goto(`${url}/nonsense`);
      await page.locator(tid('not-found-back')).click();
      await page.locator(tid('start')).waitFor();
    }
  });
});
