// The installable site: a manifest, and a service worker that keeps the
// page, its files, its WebAssembly and what the rules read, so that once
// visited the site opens and works with the network gone — the start
// page, the rules with their diagrams, the rules and the AI in the
// page's worker — in the same tab and in a new one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, withArtifacts, shot, tid, allowOffline, watchPage } from '../lib/browser.mjs';

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
    assert.match(script, /"\/static\/punct\.wasm"/);

    await page.goto(`${url}/`);
    await page.locator(tid('ai-level')).waitFor();
    assert.equal(await page.locator('link[rel="manifest"]').count(), 1);
    // The worker installs (every file fetched) and takes the page over.
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 30000 });
    await page.goto(`${url}/rules`);
    await page.locator(`${tid('rules')}[data-diagrams="ready"]`).waitFor();

    // The network goes.
    allowOffline(page, 'the test takes the network away: the account, lists and live sockets fail to reach the server');
    await page.context().setOffline(true);
    await page.goto(`${url}/`);
    await page.locator(tid('ai-level')).waitFor();
    await page.goto(`${url}/rules`);
    await page.locator(`${tid('rules')}[data-diagrams="ready"]`).waitFor();
    // The rules and the AI in the page's worker, offline.
    const played = await page.evaluate(async () => {
      const engine = await import('/static/engine.js');
      const check = await engine.ask({ op: 'check', move: 'T@I9/0' });
      const ai = await engine.ask({ op: 'ai', level: 4, movetime: 300 });
      return { check, ai };
    });
    assert.equal(played.check.reason, 'add_in_centre');
    assert.match(played.ai.move, /^[TCELMR]@/);
    // Reopened in a new tab, still offline.
    const again = watchPage(await page.context().newPage(), 'pwa-again');
    pages.push(again);
    allowOffline(again, 'opened with the network gone');
    await again.goto(`${url}/puzzles`);
    await again.locator('main').waitFor();
    await again.goto(`${url}/`);
    await again.locator(tid('ai-level')).waitFor();
    await shot(page, 'pwa', 'offline-rules');
    await page.context().setOffline(false);
  });
});
