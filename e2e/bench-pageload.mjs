// The page's weight and speed, for docs/PERFORMANCE.md (not a test):
// what a first visit transfers (compressed, nothing cached) and a second
// (the service worker and entity tags in place), and the time from
// navigation to a board one can play on, on the phone profile with
// Chromium's CPU slowed 4× (CDP Emulation.setCPUThrottlingRate): a game
// against the AI on this device, and a server game.
//
//   cd e2e && PUNCT_BIN=../target/debug/punct node bench-pageload.mjs
import { startServer } from './lib/server.mjs';
import { launchBrowser } from './lib/browser.mjs';

const server = await startServer();
const browser = await launchBrowser();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
try {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let bytes = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; requests++; });
  const visit = async (label) => {
    bytes = 0;
    requests = 0;
    await page.goto(`${server.url}/`);
    await page.locator('[data-testid="ai-level"]').waitFor();
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 30000 }).catch(() => {});
    await page.waitForTimeout(1500); // the worker's install fetches
    console.log(`${label}: ${requests} requests, ${(bytes / 1024).toFixed(1)} KB transferred`);
  };
  await visit('first visit (cold)');
  await visit('second visit (warm)');

  // Time to a playable board, CPU 4× slower.
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const created = await server.api.create({ mode: 'ai', level: 1, side: 'white' });
  for (const [label, url] of [
    ['a server game against the AI', `${server.url}/game/${created.id}#token=${created.seats.white}`],
  ]) {
    for (const run of [1, 2]) {
      const t0 = Date.now();
      await page.goto(url);
      await page.locator('[data-testid="board"] .cell.legal, [data-testid="board"] [data-cell]').first().waitFor();
      await page.waitForFunction(() => document.querySelector('[data-testid="game"]')?.dataset.ply === '0');
      await page.locator('[data-testid="reserve-white-T"]').waitFor();
      console.log(`${label} (${run === 1 ? 'first' : 'again'}): playable in ${Date.now() - t0} ms at CPU ÷4`);
    }
  }
  // A game on this device, started from the start page.
  await page.goto(`${server.url}/`);
  await page.locator('[data-testid="ai-level"]').waitFor();
  const t0 = Date.now();
  await page.locator('[data-testid="time-control"]').selectOption('none');
  await page.locator('[data-testid="start-ai"]').click();
  await page.waitForURL(/\/game\/local-/);
  await page.locator('[data-testid="reserve-white-T"]').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="game"]')?.dataset.ply === '0');
  console.log(`a game on this device from the start page's click: playable in ${Date.now() - t0} ms at CPU ÷4`);
  const t1 = Date.now();
  await page.reload();
  await page.locator('[data-testid="reserve-white-T"]').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="game"]')?.dataset.ply === '0');
  console.log(`the same reloaded: playable in ${Date.now() - t1} ms at CPU ÷4`);
} finally {
  await browser.close();
  await server.stop();
}
