// The installable site: a manifest, and a service worker that keeps the
// page, its files, its WebAssembly and what the rules read, so that once
// visited the site opens and works with the network gone — the start
// page, the rules with their diagrams, the rules and the AI in the
// page's worker — in the same tab and in a new one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, appendFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverAndBrowser, newPage, withArtifacts, shot, tid, allowOffline, watchPage, launchBrowser } from '../lib/browser.mjs';
import { startServer, REPO_DIR } from '../lib/server.mjs';

const env = serverAndBrowser();
const pages = [];

test('the site installs, and opens and plays offline once visited', { timeout: 90000 }, async () => {
  await withArtifacts('pwa', () => pages, async () => {
    const page = await newPage(env.browser, 'pwa', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, serviceWorkers: 'allow' });
    pages.push(page);
    const { url } = env.server;

    const manifest = await (await fetch(`${url}/static/manifest.webmanifest`)).json();
    assert.equal(manifest.start_url, '/');
    assert.equal(manifest.display, 'standalone');
    assert.ok(manifest.name.includes('PÜNCT') && manifest.icons.length > 0, JSON.stringify(manifest));
    const sw = await fetch(`${url}/sw.js`);
    assert.equal(sw.status, 200);
    const script = await sw.text();
    assert.doesNotMatch(script, /__VERSION__|__FILES__/, 'the release is written into the worker');
    // The page's files by this release's names, which never change.
    assert.match(script, /"\/static\/v-[0-9a-f-]+\/punct\.wasm"/);
    const { lessons } = await env.server.api.req('GET', '/api/learn/lessons');
    const lesson = await env.server.api.req('GET', `/api/learn/lessons/${lessons[2].id}`);

    await page.goto(`${url}/`);
    await page.locator(tid('home-ai')).waitFor();
    assert.equal(await page.locator('link[rel="manifest"]').count(), 1);
    // The worker installs (every file fetched) and takes the page over.
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 30000 });
    await page.goto(`${url}/rules`);
    await page.locator(`${tid('rules')}[data-diagrams="ready"]`).waitFor();

    // The network goes.
    allowOffline(page, 'the test takes the network away: the account, lists and live sockets fail to reach the server');
    await page.context().setOffline(true);
    await page.goto(`${url}/`);
    await page.locator(tid('home-ai')).waitFor();
    await page.goto(`${url}/rules`);
    await page.locator(`${tid('rules')}[data-diagrams="ready"]`).waitFor();
    // The rules and the AI in the page's worker, offline.
    // (The page's own modules: by the names the page loaded, which the worker keeps.)
    const played = await page.evaluate(async ([id, move]) => {
      const at = (name) => new URL(name, document.querySelector('script[type="module"]').src).href;
      const engine = await import(at('engine.js'));
      const check = await engine.ask({ op: 'check', move: 'T@I9/0' });
      const ai = await engine.ask({ op: 'ai', level: 4, movetime: 300 });
      // A lesson never opened here, judged by the page's module.
      const { api } = await import(at('api.js'));
      const judged = await api.tryLesson(id, move);
      return { check, ai, judged };
    }, [lesson.id, lesson.example]);
    assert.equal(played.check.reason, 'add_in_centre');
    assert.match(played.ai.move, /^[TCELMR]@/);
    assert.equal(played.judged.correct, true, JSON.stringify(played.judged));
    // Reopened in a new tab, still offline.
    const again = watchPage(await page.context().newPage(), 'pwa-again');
    pages.push(again);
    allowOffline(again, 'opened with the network gone');
    await again.goto(`${url}/puzzles`);
    await again.locator('main').waitFor();
    await again.goto(`${url}/`);
    await again.locator(tid('home-ai')).waitFor();
    await shot(page, 'pwa', 'offline-rules');
    await page.context().setOffline(false);
  });
});

test('a new release is offered as a reload, and the reload runs it', { timeout: 90000 }, async () => {
  // The server reads its page from a copy of web/ (PUNCT_WEB_DIR), which
  // the test then changes: a new release, as a deployment makes one.
  const web = mkdtempSync(path.join(tmpdir(), 'punct-web-'));
  cpSync(path.join(REPO_DIR, 'web'), web, { recursive: true });
  const server = await startServer({ env: { PUNCT_WEB_DIR: web } });
  const browser = await launchBrowser();
  const mine = [];
  try {
    await withArtifacts('pwa-update', () => mine, async () => {
      const page = await newPage(browser, 'update', { viewport: { width: 1366, height: 768 }, serviceWorkers: 'allow' });
      mine.push(page);
      await page.goto(`${server.url}/`);
      await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 30000 });
      const first = await page.evaluate(() => document.querySelector('script[type="module"]').src);
      assert.equal(await page.locator(tid('update-ready')).count(), 0, 'nothing to offer yet');

      // A new release: one file changes.
      appendFileSync(path.join(web, 'style.css'), '\n/* the next release */\n');
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
      await page.locator(tid('update-ready')).waitFor({ timeout: 30000 });
      await shot(page, 'pwa-update', 'offered-1366x768');
      await page.locator(tid('update-reload')).click();
      // The page reloads under the new release's worker, with its files.
      await page.waitForFunction((old) => document.querySelector('script[type="module"]')?.src !== old, first, { timeout: 30000 });
      await page.locator(tid('home-ai')).waitFor();
      assert.equal(await page.locator(tid('update-ready')).count(), 0, 'the offer is gone');
      const css = await page.evaluate(async () => (await fetch(document.querySelector('link[rel="stylesheet"]').href)).text());
      assert.match(css, /the next release/);
    });
  } finally {
    await browser.close();
    await server.stop();
    rmSync(web, { recursive: true, force: true });
  }
});
