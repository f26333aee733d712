// 1. A whole game against the AI (level 1, the person White, standard),
// every move made by clicking: it includes a rotation chosen with the
// rotate control, a flat jump onto a piece and a bridge, and ends with the
// result banner and a downloadable record.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Geometry } from '../lib/rules.mjs';
import { loadCatalogues, tr } from '../lib/i18n.mjs';
import { chooseMove, newProgress, noteMove } from '../lib/strategy.mjs';
import {
  serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage, waitInSync,
  playByClicks, gameAttrs, checkGameContract, BOARD, waitBoardShows, openStart, showTab,
} from '../lib/browser.mjs';

const PREFIX = 'ai-game';
const MAX_PLIES = 120;

const env = serverAndBrowser();
const pages = [];

test('a whole game against the AI by clicking', { timeout: 150000 }, async (t) => {
  const { server, browser } = env;
  const { api } = server;
  const page = await newPage(browser, 'white');
  pages.push(page);
  await withArtifacts(PREFIX, () => pages, async () => {
    await page.goto(server.url + '/');
    await page.locator(tid('start')).waitFor();
    await openStart(page, 'ai');
    await page.locator(tid('variant')).selectOption('standard');
    await page.locator(tid('ai-level')).selectOption('1');
    await page.locator(tid('ai-color')).selectOption('white');
    await shot(page, PREFIX, 'start-screen');
    await page.locator(tid('start-ai-server')).click();
    const { id, token } = await waitGamePage(page);
    assert.ok(token, 'the AI game page carries the seat token');
    await checkGameContract(page);

    let g = await api.game(id);
    assert.equal(g.mode, 'ai');
    assert.equal(g.variant, 'standard');
    assert.deepEqual(g.ai, { level: 1, side: 'black' });

    const geo = new Geometry(await api.board());
    const progress = newProgress();
    const played = [];
    let rotationByControl = null;

    while (g.status === 'ongoing') {
      assert.ok(g.ply < MAX_PLIES, `the game is still going after ${MAX_PLIES} plies`);
      if (g.to_move !== 'white') {
        g = await api.waitFor(id, (s) => s.status === 'over' || s.to_move === 'white', { timeoutMs: T.ai, what: 'the AI to move' });
        continue;
      }
      g = await waitInSync(page, api, id);
      const { move, why } = await chooseMove(api, geo, g, progress);
      const ply = g.ply;
      const { rotateClicks } = await playByClicks(page, api, id, move);
      const afterMine = await api.game(id, ply + 1);
      assert.equal(afterMine.moves[ply], move, `the page sent the move that was clicked (${why})`);
      const piece = noteMove(progress, move, afterMine, 'white');
      if (!rotationByControl && rotateClicks > 0 && /\/[1-5]$/.test(move)) rotationByControl = move;
      played.push(`${move} (${why})`);
      if (progress.bridge === move || progress.jump === move) {
        // the page draws the moved piece where it landed, at its level
        await waitInSync(page, api, id);
        const drawn = page.locator(`${BOARD} [data-piece-cell="${piece.punct}"][data-level="${piece.level}"][data-side="white"][data-kind="${piece.kind}"]`);
        assert.equal(await drawn.count(), 1, `the page draws ${piece.kind} on ${piece.punct} at level ${piece.level}`);
      }
      if (progress.bridge === move) {
        assert.ok(piece.bridge && piece.level > 0);
        await shot(page, PREFIX, `bridge-${move}`);
      } else if (progress.jump === move) {
        assert.ok(piece.level > 0);
        await shot(page, PREFIX, `jump-${move}`);
      } else if (ply === 0) {
        await shot(page, PREFIX, 'first-move');
      }
      g = await api.game(id);
    }
    t.diagnostic(`game ${id}: ${g.ply} plies, ${g.result.text}; white played ${played.join(', ')}`);

    assert.ok(rotationByControl, `a move with rotation ≠ 0 chosen with the rotate control (${progress.rotation})`);
    assert.ok(progress.jump, 'a jump onto a piece was played');
    assert.ok(progress.bridge, 'a bridge was played');

    // the end: the page shows it
    g = await waitInSync(page, api, id);
    const attrs = await gameAttrs(page);
    assert.equal(attrs.status, 'over');
    const banner = page.locator(tid('result-banner'));
    await banner.waitFor({ state: 'visible' });
    const bannerText = (await banner.textContent()) || '';
    await shot(page, PREFIX, 'game-over');
    await waitBoardShows(page, g, 'the final position');
    const status = ((await page.locator(tid('status')).innerText()) || '').trim();
    assert.ok(status.length > 0, 'the status line says something at the end');
    // The banner says the server's result in the page's words (English
    // here, endgame.js): the outcome for White, the score, the reason.
    const cats = await loadCatalogues(server.url);
    const en = (key, params) => tr(cats, 'en', key, params);
    const r = g.result;
    const reason = {
      'connection': () => en(`game.reason.connection.${r.winner}`, { a: r.sides[0], b: r.sides[1] }),
      'central count': () => (r.winner ? en(`game.reason.central.${r.winner}`, r.central) : en('game.reason.central_tie', r.central)),
      'no connection': () => en('game.reason.no_connection'),
    }[r.reason];
    assert.ok(reason, `a game played to its end ends by connection or the central count, not ${JSON.stringify(r)}`);
    const inBanner = async (testid) => ((await banner.locator(tid(testid)).innerText()) || '').trim();
    assert.equal(await inBanner('result-title'), en(!r.winner ? 'game.end.draw' : r.winner === 'white' ? 'game.end.won' : 'game.end.lost'),
      `the banner's headline for White (${r.text})`);
    assert.equal(await inBanner('result-reason'), reason(), `the banner's reason for the server's result ${JSON.stringify(r.text)}`);
    assert.ok(bannerText.includes(r.score), `the banner shows the score ${r.score}: ${JSON.stringify(bannerText.trim())}`);

    // the record downloads and is the server's record
    await showTab(page, 'moves');
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: T.step }),
      page.locator(tid('download-record')).click(),
    ]);
    const file = await download.path();
    const text = readFileSync(file, 'utf8');
    assert.equal(text, await api.record(id), 'the downloaded record is the server\'s');
    assert.match(text, new RegExp(`\\[Result "${g.result.score.replace('/', '\\/')}"\\]`));
    assert.ok(text.includes(progress.bridge) && text.includes(progress.jump));
    assert.match(download.suggestedFilename(), /\.pgn$/);
  });
});
