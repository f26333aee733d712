// The site without a server: `punct site --out DIR` written, DIR served
// by Python's plain static file server (no API, no sockets), and in real
// Chromium a whole game against level 1 played by clicks (reloaded midway
// from its own address), a game of two at one screen, a lesson and a
// puzzle judged by the page's own module, and the rules page's diagrams.
// What needs a server (accounts, the lobby, online games) is not offered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverBinary } from '../lib/server.mjs';
import { launchBrowser, newPage, withArtifacts, shot, tid, BOARD, clickMove, playOutByClicks, openStart } from '../lib/browser.mjs';
import { DESKTOP, PHONE, lessonFeedback, clickPlay, waitLesson, openPuzzle, solvePuzzle, overflow } from '../lib/learn.mjs';

/** Serves `dir` with `python3 -m http.server` on a free loopback port; {url, stop}. */
async function staticServer(dir) {
  const proc = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  // Its log of every request, read so that the pipe never fills (a full
  // pipe would stop the server mid-site). DEBUG_STATIC=1 shows it.
  proc.stderr.on('data', (d) => { if (process.env.DEBUG_STATIC) process.stderr.write(d); });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`python3 -m http.server did not start: ${out}`)), 10000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/port (\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    });
    proc.on('exit', (code) => reject(new Error(`python3 -m http.server exited (${code}): ${out}`)));
  });
  return { url, stop: () => proc.kill() };
}

/** What the page's own module answers (the static site's api.js). */
const pageApi = (page, method, ...args) => page.evaluate(async ([m, a]) => {
  const { api } = await import('/static/api.js');
  return api[m](...a);
}, [method, args]);

/** The local game's state as the page holds it. */
const localState = (page, id) => page.evaluate(async (gameId) => {
  const { LocalGame } = await import('/static/localgame.js');
  return new LocalGame(gameId).game();
}, id);

const gameId = (page) => new URL(page.url()).searchParams.get('id');

test('the static site, on a plain file server, plays, teaches and judges with no server', { timeout: 170000 }, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'punct-site-'));
  execFileSync(serverBinary(), ['site', '--out', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const f of ['index.html', 'sw.js', 'static/punct.wasm', 'learn/index.html', 'game/index.html']) {
    assert.ok(existsSync(path.join(dir, f)), `the site has ${f}`);
  }
  const host = await staticServer(dir);
  const browser = await launchBrowser();
  const pages = [];
  try {
    await withArtifacts('staticsite', () => pages, async () => {
      const page = await newPage(browser, 'static', DESKTOP);
      pages.push(page);
      await page.goto(`${host.url}/`);
      await page.locator(tid('start')).waitFor();
      // Nothing that needs a server is offered.
      for (const gone of ['nav-signin', 'nav-leaderboard', 'start-online', 'lobby', 'rated', 'time-control', 'watch-games', 'start-ai-server', 'ai-where', 'to-lobby']) {
        assert.equal(await page.locator(tid(gone)).count(), 0, `${gone} is not offered`);
      }
      await shot(page, 'staticsite', 'start-1366x768');
      // The AI thinks 100 ms a move here (as long as the server would say).
      await page.evaluate(() => localStorage.setItem('punct.local-games.movetime', '100'));

      // A whole game against level 1, by clicks.
      await openStart(page, 'ai');
      await page.locator(tid('ai-level')).selectOption('1');
      await page.locator(tid('ai-color')).selectOption('white');
      await page.locator(tid('start-ai')).click();
      await page.waitForURL(/\/game\/\?id=local-[a-z0-9]+$/);
      await page.locator(`${BOARD} [data-cell]`).first().waitFor({ state: 'attached' });
      const id = gameId(page);
      const state = await playOutByClicks(page, () => localState(page, id), {
        afterMove: async (n) => {
          if (n !== 3) return;
          // Reloaded from its own address: a file the host has.
          await page.reload();
          await page.locator(`${BOARD} [data-cell]`).first().waitFor({ state: 'attached' });
          assert.equal(gameId(page), id);
        },
      });
      assert.equal(state.status, 'over', 'the game ended');
      await page.locator(tid('result-banner')).waitFor();
      await shot(page, 'staticsite', 'game-over-1366x768');
      t.diagnostic(`against level 1: ${state.ply} plies, ${state.result.reason}, winner ${state.result.winner}`);

      // Two people at one screen: each side's move by clicks.
      await page.goto(`${host.url}/`);
      await openStart(page, 'people');
      await page.locator(tid('start-hotseat')).click();
      await page.waitForURL(/\/game\/\?id=local-/);
      await page.locator(`${BOARD} [data-cell]`).first().waitFor({ state: 'attached' });
      const seat = gameId(page);
      for (const [i, side] of ['white', 'black'].entries()) {
        const s = await localState(page, seat);
        assert.equal(s.to_move, side);
        assert.deepEqual(s.you, ['white', 'black']);
        await clickMove(page, s.legal_moves.find((m) => m.startsWith('C@')), side, { checkLegal: true });
        await page.waitForFunction((n) => Number(document.querySelector('[data-testid="game"]')?.dataset.ply) === n, i + 1);
      }

      // A position set up in the editor, played against the AI here.
      await page.goto(`${host.url}/editor`);
      await page.locator(`${tid('editor-play')}:enabled`).waitFor();
      await page.locator(tid('editor-play')).click();
      await page.waitForURL(/\/game\/\?id=local-/);
      await page.locator(`${BOARD} [data-cell]`).first().waitFor({ state: 'attached' });
      const edited = await localState(page, gameId(page));
      assert.equal(edited.mode, 'ai');

      // A lesson, judged by the page's module (the server's judge, compiled in).
      const { lessons } = await pageApi(page, 'lessons');
      const lesson = await pageApi(page, 'lesson', lessons[1].id);
      await page.goto(`${host.url}/learn/${lesson.id}`);
      await waitLesson(page, lesson);
      await clickPlay(page, lesson.example, 'white', t);
      assert.ok((await lessonFeedback(page, 'right')).length > 20);
      await shot(page, 'staticsite', 'lesson-1366x768');

      // A puzzle, solved; the puzzle of the day is there too.
      const { puzzles } = await pageApi(page, 'puzzles');
      const puzzle = await pageApi(page, 'puzzle', puzzles[0].id);
      await openPuzzle(page, host.url, puzzle);
      assert.ok((await solvePuzzle(page, puzzle, t)).length > 10);
      const daily = await pageApi(page, 'dailyPuzzle');
      assert.ok(puzzles.some((p) => p.id === daily.puzzle.id), 'the puzzle of the day is one of the puzzles');

      // The rules page draws its diagrams.
      await page.goto(`${host.url}/rules`);
      await page.locator(`${tid('rules')}[data-diagrams="ready"]`).waitFor();
      assert.ok(await page.locator('[data-piece-cell]').count() > 50, 'the diagrams show their pieces');

      // On a phone the start page fits.
      const phone = await newPage(browser, 'static-phone', PHONE);
      pages.push(phone);
      await phone.goto(`${host.url}/`);
      await phone.locator(tid('start')).waitFor();
      assert.equal(await overflow(phone), 0);
      await shot(phone, 'staticsite', 'start-390x844');
    });
  } finally {
    await browser.close();
    host.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
