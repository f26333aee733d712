// Playing by keyboard alone (no mouse, no taps): a whole game at one
// screen, both sides, from the start screen to the result — Tab to the
// controls, a kind picked by its letter or from the reserve with Enter,
// turned with ] [ and R, the board's cursor walked with the arrow keys
// (Shift for the diagonal) and Enter to play or to pick up one's piece,
// Escape to drop a selection — and the live region says every move in
// words as it happens, and the end. Also two moves against the AI, whose
// replies are said too. (White connects row 1 and row 17 in the basic
// game in six moves; Black adds far away and moves one piece.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Geometry, parseMove } from '../lib/rules.mjs';
import { serverAndBrowser, newPage, shot, withArtifacts, tid, T, BOARD, waitGamePage, waitInSync, waitPly } from '../lib/browser.mjs';
import { tabTo, chooseByKeys, cursorOf, cursorTo, rotationShown, turnTo, said, waitSaid, countPointers } from '../lib/keys.mjs';

const PREFIX = 'keyboard';
const env = serverAndBrowser();
const pages = [];
const DESKTOP = { viewport: { width: 1366, height: 768 } };

const WIN = ['E@H1/4', 'E@I3/3', 'E@I6/3', 'E@I9/3', 'C@I13/0', 'L@I15/3'];

/** Plays `move` for the side to move by keyboard only, the focus on the board. */
async function playByKeys(page, geo, move, { viaReserve = false, side = null } = {}) {
  const mv = parseMove(move);
  if (mv.type === 'add') {
    if (viaReserve) {
      // Tab to the reserve button and press it, then back to the board.
      await tabTo(page, tid(`reserve-${side}-${mv.kind}`));
      await page.keyboard.press('Enter');
      await tabTo(page, tid('board'));
    } else {
      await page.keyboard.press(mv.kind);
    }
  } else {
    await cursorTo(page, geo, mv.from);
    await page.keyboard.press('Enter'); // picks the piece up
    await page.locator(`${BOARD} [data-origin="${mv.from}"]`).waitFor({ state: 'attached' });
  }
  await turnTo(page, mv.rotation);
  await cursorTo(page, geo, mv.to);
  // The cursor's cell is said with the verdict for the piece there.
  await page.waitForFunction(() => /can go here\./.test(document.querySelector('[data-testid="cursor-info"]')?.textContent || ''), null, { timeout: T.step })
    .catch(async () => { throw new Error(`${page.label}: for ${move} the cursor on ${mv.to} says ${JSON.stringify(await page.locator(tid('cursor-info')).textContent())}`); });
  await page.keyboard.press('Enter');
}

// Fails the test if anything clicks: every pointerdown on the page is counted.
const mouseFree = countPointers;

test('a whole game at one screen by keyboard alone, every move said in words', { timeout: 150000 }, async (t) => {
  const { server, browser } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const { api } = server;
    const geo = new Geometry(await api.board());
    const page = await newPage(browser, 'keys-hotseat', DESKTOP);
    pages.push(page);
    await page.goto(server.url + '/');
    await page.locator(tid('start')).waitFor();
    await mouseFree(page);
    // The start screen: "Play someone" opened, the basic game, at one screen, by Tab, arrows and Enter.
    await tabTo(page, tid('home-people'));
    await page.keyboard.press('Enter');
    await tabTo(page, tid('variant'));
    await chooseByKeys(page, 'basic');
    await tabTo(page, tid('start-hotseat'));
    await page.keyboard.press('Enter');
    const { id } = await waitGamePage(page);
    let g = await api.game(id);
    assert.equal(g.mode, 'hotseat');
    assert.equal(g.variant, 'basic');
    await mouseFree(page);

    // The board is reached by Tab; its cursor starts in the centre and shows.
    await tabTo(page, tid('board'));
    assert.equal(await cursorOf(page), 'I9');
    assert.notEqual(await page.locator(`${BOARD} .kbd-cursor`).evaluate((el) => getComputedStyle(el).display), 'none');
    assert.match(await page.locator(tid('cursor-info')).textContent(), /^I9, central hexagon: empty\./);

    // Picking and dropping: a kind by its letter, Escape drops it.
    await page.keyboard.press('T');
    await page.locator(`${tid('reserve-white-T')}.selected`).waitFor();
    await page.waitForFunction(() => /^Adding T, turned to 0: it fits on \d+ cells\. I9, central hexagon: empty\. The piece cannot go here\.$/.test(document.querySelector('[data-testid="cursor-info"]').textContent));
    await page.keyboard.press('Escape');
    await page.locator(`${tid('reserve-white-T')}.selected`).waitFor({ state: 'detached' });
    assert.equal(await page.locator(tid('cursor-info')).textContent(), 'Nothing selected.');
    // 2 picks the second kind (C); [ turns back; R turns on (a piece is selected).
    await page.keyboard.press('2');
    await page.locator(`${tid('reserve-white-C')}.selected`).waitFor();
    await page.keyboard.press('[');
    assert.equal(await rotationShown(page), 2, '[ turns a C from 0 back to 2');
    await page.keyboard.press('r');
    assert.equal(await rotationShown(page), 0, 'R turns it on again');
    await page.keyboard.press('Escape');

    const blackMoves = [];
    let viaReserve = true; // the first addition through the reserve buttons, the rest by letters
    for (const w of WIN) {
      g = await api.game(id);
      assert.equal(g.to_move, 'white');
      assert.ok(g.legal_moves.includes(w), `${w} is legal at ply ${g.ply}`);
      await playByKeys(page, geo, w, { viaReserve, side: 'white' });
      viaReserve = false;
      await waitPly(page, g.ply + 1);
      const mv = parseMove(w);
      await waitSaid(page, `White adds ${mv.kind} on ${mv.to}, turned to ${mv.rotation}.`);
      g = await waitInSync(page, api, id);
      if (g.status !== 'ongoing') break;
      // Black: adds far from the fight; its second move moves its first piece along its line.
      const own = g.pieces.find((p) => p.side === 'black');
      let b = null;
      if (blackMoves.length === 1 && own) {
        b = g.legal_moves.find((m) => {
          const x = parseMove(m);
          return x.type === 'move' && x.from === own.punct && x.to !== own.punct && /^[A-C]/.test(x.to);
        });
      }
      b ||= g.legal_moves.find((m) => /^T@[A-C]\d+\//.test(m));
      blackMoves.push(b);
      await playByKeys(page, geo, b);
      await waitPly(page, g.ply + 1);
      const bm = parseMove(b);
      await waitSaid(page, bm.type === 'add'
        ? `Black adds ${bm.kind} on ${bm.to}, turned to ${bm.rotation}.`
        : new RegExp(`^Black moves the piece on ${bm.from} to ${bm.to}, turned to ${bm.rotation}\\.`));
    }
    assert.ok(blackMoves.some((m) => parseMove(m).type === 'move'), `Black moved a piece by keyboard (${blackMoves.join(' ')})`);
    g = await api.game(id);
    assert.equal(g.status, 'over');
    assert.equal(g.result.winner, 'white');
    assert.equal(g.result.reason, 'connection');
    await page.locator(`${tid('game')}[data-status="over"]`).waitFor();
    await waitSaid(page, /^Game over\. .+/);
    const entries = await said(page);
    t.diagnostic(`the live region said:\n${entries.join('\n')}`);
    const moveEntries = entries.filter((e) => /^(White|Black) (adds|moves|turns|passes)/.test(e));
    assert.equal(moveEntries.length, g.moves.length, 'one entry for every move');
    assert.equal(await page.evaluate(() => window.__clicks), 0, 'no pointer was used');
    await shot(page, PREFIX, 'hotseat-over');
    await page.context().close();
  });
});

test('against the AI by keyboard: the AI\'s replies are said too', { timeout: 90000 }, async (t) => {
  const { server, browser } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const { api } = server;
    const geo = new Geometry(await api.board());
    const page = await newPage(browser, 'keys-ai', DESKTOP);
    pages.push(page);
    await page.goto(server.url + '/');
    await page.locator(tid('start')).waitFor();
    await mouseFree(page);
    await tabTo(page, tid('home-ai'));
    await page.keyboard.press('Enter');
    await tabTo(page, tid('ai-level'));
    await chooseByKeys(page, '1');
    await tabTo(page, tid('ai-color'));
    assert.equal(await page.evaluate(() => document.activeElement.value), 'white');
    await tabTo(page, tid('start-ai-server'));
    await page.keyboard.press('Enter');
    const { id } = await waitGamePage(page);
    await mouseFree(page);
    await tabTo(page, tid('board'));
    for (let n = 0; n < 2; n++) {
      const g = await waitInSync(page, api, id, { timeout: T.ai });
      assert.equal(g.to_move, 'white');
      const m = g.legal_moves.find((x) => /^[ELM]@/.test(x) && !x.endsWith('/0'));
      await playByKeys(page, geo, m);
      const after = await api.waitFor(id, (s) => s.ply === g.ply + 2, { timeout: T.ai, what: 'the AI to reply' });
      const reply = parseMove(after.moves[g.ply + 1]);
      await waitSaid(page, `White adds ${parseMove(m).kind} on ${parseMove(m).to}, turned to ${parseMove(m).rotation}.`);
      await waitSaid(page, reply.type === 'add'
        ? `Black adds ${reply.kind} on ${reply.to}, turned to ${reply.rotation}.`
        : new RegExp(`^Black (moves|turns|passes)`));
    }
    t.diagnostic(`said: ${(await said(page)).join(' | ')}`);
    assert.equal(await page.evaluate(() => window.__clicks), 0, 'no pointer was used');
    await page.context().close();
  });
});
