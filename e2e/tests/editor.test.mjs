// The board editor (/editor): pieces of both sides laid by clicks (the
// palette's side, kind and turn), one stacked on another at level 1 (its
// ghost and the hint saying the level first) and one as a bridge; a
// refused placement said in words (a White PÜNCT on a Black dot: the
// rules' punct_on_opponent sentence) with the position unchanged; a piece
// that others rest on refused by the erase tool, the top one erased, one
// taken off by a right-click, the last edit undone; side to move and
// variant rewritten; the position string shown is the one the rules
// write (the server reads it back the same); the address and the share
// link reopen the same position, a bad link says why and starts empty; a
// finished position is not offered for play (and says why); "Play it
// against the AI" makes a game whose start is the position, shown by the
// game page; "Analyse it" opens /analysis#position=…; the board by
// keyboard (Enter on the cursor's cell); axe clean in English and German
// (dark; the German refusal in German); 1366 × 768 and 390 × 844 (a tap on the
// phone, no sideways scroll), with screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, newPage, shot, withArtifacts, tid, clickCell, cellLocator, waitGamePage, waitBoardShows, T,
} from '../lib/browser.mjs';
import { axeViolations, serious, describeViolations } from '../lib/axe.mjs';
import { loadCatalogues, tr } from '../lib/i18n.mjs';

const PREFIX = 'editor';
const env = serverAndBrowser();
const pages = [];
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const EMPTY = 'standard:w:0:-';

async function openEditor(label, options, hash = '') {
  const page = await newPage(env.browser, label, options);
  pages.push(page);
  await goEditor(page, hash);
  return page;
}

async function goEditor(page, hash = '') {
  await page.goto(`${env.server.url}/editor${hash}`);
  await page.locator(`${tid('editor')}[data-ready="true"]`).waitFor({ timeout: T.move });
}

/** The position the editor shows: its field, which must agree with the screen's data-position. */
async function shown(page) {
  const field = await page.locator(tid('editor-position')).inputValue();
  const data = await page.locator(tid('editor')).getAttribute('data-position');
  assert.equal(field, data, 'the position field and the screen agree');
  return field;
}

async function waitPosition(page, want, what) {
  try {
    await page.waitForFunction((w) => document.querySelector('[data-testid="editor"]')?.dataset.position === w, want, { timeout: T.step });
  } catch {
    const msg = await page.locator(tid('editor-message')).textContent();
    throw new Error(`${what}: the editor shows ${await shown(page)}, wanted ${want}; message ${JSON.stringify(msg)}`);
  }
}

async function message(page) {
  return ((await page.locator(tid('editor-message')).textContent()) || '').trim();
}

/** Waits until the message reads `want` (every edit says something: a change is awaited by its words). */
async function waitMessage(page, want, what) {
  try {
    await page.waitForFunction((w) => document.querySelector('[data-testid="editor-message"]')?.textContent.trim() === w, want, { timeout: T.step });
  } catch {
    throw new Error(`${what}: the message reads ${JSON.stringify(await message(page))}, wanted ${JSON.stringify(want)}`);
  }
}

/** Picks side, kind and rotation in the palette (the turn button until the rotation reads `rot`). */
async function choose(page, side, kind, rot) {
  await page.locator(tid(`editor-side-${side}`)).click();
  await page.locator(tid(`editor-kind-${kind}`)).click();
  assert.equal(await page.locator(tid(`editor-kind-${kind}`)).getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator(tid(`editor-side-${side}`)).getAttribute('aria-pressed'), 'true');
  for (let i = 0; i < 7; i++) {
    if ((await page.locator(tid('editor-rotation')).textContent()).trim() === String(rot)) return;
    await page.locator(tid('editor-rotate')).click();
  }
  throw new Error(`rotation ${rot} not reached`);
}

/** The pieces drawn on the board: "cell/level/side/kind", sorted. */
function drawn(page) {
  return page.locator('[data-testid="board"] [data-piece-cell]').evaluateAll((els) =>
    els.map((e) => `${e.dataset.pieceCell}/${e.dataset.level}/${e.dataset.side}/${e.dataset.kind}`).sort());
}

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function checkAxe(page, what) {
  const found = serious(await axeViolations(page));
  assert.equal(found.length, 0, `${what}: axe finds\n  ${describeViolations(found)}`);
}

test('setting up a position by clicks, refusals in words, and using it', { timeout: 180000 }, async () => {
  const { server } = env;
  const cats = await loadCatalogues(server.url);
  const en = (key, params) => tr(cats, 'en', key, params);
  const page = await openEditor('desktop', DESKTOP);
  await withArtifacts(PREFIX, () => pages, async () => {
    assert.match(await page.title(), /PÜNCT/);
    assert.equal(await shown(page), EMPTY, 'an empty standard board, White to move');
    assert.equal(await page.locator(tid('editor-to-move')).inputValue(), 'w');
    assert.equal(await page.locator(tid('editor-variant')).inputValue(), 'standard');
    for (const k of ['T', 'C', 'E', 'L', 'M', 'R']) {
      assert.equal(await page.locator(`${tid(`editor-kind-${k}`)} svg.piece-icon`).count(), 1, `kind ${k} drawn as an icon`);
    }
    const reserveT = () => page.locator(`${tid('editor-reserve-white')} td[data-kind="T"]`).textContent();
    assert.equal(await reserveT(), '6');

    // White's T on C5 and D4, Black's E on H5 (turned to 1).
    await choose(page, 'white', 'T', 0);
    await clickCell(page, 'C5');
    await waitPosition(page, 'standard:w:0:wT@C5/0', 'a white T on C5');
    assert.equal(await message(page), en('editor.placed.white', { kind: 'T', cell: 'C5', level: 0 }));
    await clickCell(page, 'D4');
    await waitPosition(page, 'standard:w:0:wT@C5/0,wT@D4/0', 'a white T on D4');
    await choose(page, 'black', 'E', 1);
    assert.equal(await page.locator(`${tid('editor-kind-E')} .count`).textContent(), '4', "Black's E count shown");
    await clickCell(page, 'H5');
    await waitPosition(page, 'standard:w:0:wT@C5/0,wT@D4/0,bE@H5/1', 'a black E on H5');
    assert.deepEqual(await drawn(page), ['C5/0/white/T', 'D4/0/white/T', 'H5/0/black/E']);
    assert.equal(await page.locator(`${tid('editor-reserve-black')} td[data-kind="E"]`).textContent(), '3');
    assert.equal(await reserveT(), '4');

    // Stacked: a white T turned to 5 on C4, D4, C3 rests at level 1; the ghost and the hint say so first.
    await choose(page, 'white', 'T', 5);
    await cellLocator(page, 'C4').hover();
    await page.locator('[data-testid="board"] [data-ghost="C4"]').waitFor();
    await page.waitForFunction((w) => document.querySelector('[data-testid="editor-hint"]').textContent === w,
      en('editor.hover.level', { kind: 'T', cell: 'C4', level: 1 }), { timeout: T.step });
    await clickCell(page, 'C4');
    await waitPosition(page, 'standard:w:0:wT@C5/0,wT@D4/0,bE@H5/1,wT@C4/5^1', 'a white T stacked on C4');
    assert.equal(await message(page), en('editor.placed.white', { kind: 'T', cell: 'C4', level: 1 }));
    assert.equal(await page.locator('[data-testid="board"] [data-piece-cell="C4"][data-level="1"]').count(), 1, 'drawn at level 1');
    assert.equal((await page.locator('[data-testid="board"] [data-height-cell="C4"]').textContent()).trim(), '2', 'height badge 2');

    // Refused: a white E on the black E puts its PÜNCT on a Black dot. The ghost is red first.
    await choose(page, 'white', 'E', 1);
    const before = await shown(page);
    await cellLocator(page, 'H5').hover();
    await page.locator('[data-testid="board"] [data-ghost="H5"].bad').waitFor();
    await clickCell(page, 'H5');
    const why = en('illegal.punct_on_opponent', { cell: 'H5' });
    await waitMessage(page, en('editor.refused.place', { kind: 'E', cell: 'H5', why }), 'a white PÜNCT on a black dot');
    assert.equal(await shown(page), before, 'the refusal leaves the position as it was');
    assert.equal(await page.locator(tid('editor-message')).getAttribute('role'), 'status');

    // A bridge: Black's E from L10 to L8 over the empty L9, on two black T.
    await choose(page, 'black', 'T', 2);
    await clickCell(page, 'L10');
    await waitMessage(page, en('editor.placed.black', { kind: 'T', cell: 'L10', level: 0 }), 'a black T on L10');
    await choose(page, 'black', 'T', 5);
    await clickCell(page, 'L8');
    await waitMessage(page, en('editor.placed.black', { kind: 'T', cell: 'L8', level: 0 }), 'a black T on L8');
    await choose(page, 'black', 'E', 0);
    await clickCell(page, 'L10');
    const bridged = 'standard:w:0:wT@C5/0,wT@D4/0,bE@H5/1,bT@L8/5,bT@L10/2,wT@C4/5^1,bE@L10/0^1';
    await waitPosition(page, bridged, 'a black E bridging L9');
    assert.equal(await message(page), en('editor.placed_bridge.black', { kind: 'E', cell: 'L10', level: 1 }));
    assert.equal(await page.locator('[data-testid="board"] .piece.bridge[data-piece-cell="L10"][data-level="1"]').count(), 1, 'drawn as a bridge');

    // The string shown is the rules' own: the server reads it back the same.
    const analysed = await server.api.analyse({ position: bridged, movetime: 50 });
    assert.equal(analysed.position, bridged, "the server's reading of the position string");
    assert.ok(decodeURIComponent(page.url()).endsWith(`/editor#position=${bridged}`), `the address follows: ${page.url()}`);

    // The erase tool: the T under the stack is refused (another rests on it), the top one goes.
    await page.locator(tid('editor-erase')).click();
    assert.equal(await page.locator(tid('editor-erase')).getAttribute('aria-pressed'), 'true');
    await cellLocator(page, 'C4').hover();
    await page.locator('[data-testid="board"] [data-erase="C4"]').first().waitFor();
    await clickCell(page, 'C5');
    await page.waitForFunction((lead) => document.querySelector('[data-testid="editor-message"]').textContent.startsWith(lead),
      en('editor.refused.remove', { cell: 'C5', message: '' }).replace(/\s*$/, ''), { timeout: T.step });
    assert.match(await message(page), /wT@C4\/5\^1. is not supported/, "the rules' reason follows");
    assert.equal(await shown(page), bridged);
    await clickCell(page, 'C4');
    const erased = 'standard:w:0:wT@C5/0,wT@D4/0,bE@H5/1,bT@L8/5,bT@L10/2,bE@L10/0^1';
    await waitPosition(page, erased, 'the stacked T erased');
    assert.equal(await message(page), en('editor.removed.white', { kind: 'T', cell: 'C4', punct: 'C4', level: 1 }));
    await clickCell(page, 'I9');
    await waitMessage(page, en('editor.refused.empty', { cell: 'I9' }), 'nothing to erase on I9');
    // A right-click takes the bridge off (with a kind picked again: not the erase tool).
    await page.locator(tid('editor-kind-T')).click();
    assert.equal(await page.locator(tid('editor-erase')).getAttribute('aria-pressed'), 'false');
    await cellLocator(page, 'L9').click({ button: 'right' });
    await waitPosition(page, 'standard:w:0:wT@C5/0,wT@D4/0,bE@H5/1,bT@L8/5,bT@L10/2', 'the bridge taken off by a right-click');
    // Undo brings it back.
    await page.locator(tid('editor-undo')).click();
    await waitPosition(page, erased, 'undo');

    // Side to move and variant: the string's first fields.
    await page.locator(tid('editor-to-move')).selectOption('b');
    await waitPosition(page, erased.replace('standard:w:', 'standard:b:'), 'Black to move');
    await page.locator(tid('editor-variant')).selectOption('basic');
    const basic = erased.replace('standard:w:', 'basic:b:');
    await waitPosition(page, basic, 'the basic game');
    assert.equal(await page.locator(tid('editor-play')).isEnabled(), true);

    // Shared: the link opens the same position elsewhere.
    await page.locator(tid('editor-share')).click();
    const link = (await page.locator(tid('editor-share-link')).textContent()).trim();
    assert.equal(link, `${server.url}/editor#position=${encodeURIComponent(basic)}`);
    const other = await newPage(env.browser, 'shared', DESKTOP);
    pages.push(other);
    await other.goto(link);
    await other.locator(`${tid('editor')}[data-ready="true"]`).waitFor({ timeout: T.move });
    assert.equal(await shown(other), basic, 'the shared link opens the same position');
    assert.deepEqual(await drawn(other), await drawn(page));
    assert.equal(await other.locator(tid('editor-to-move')).inputValue(), 'b');
    assert.equal(await other.locator(tid('editor-variant')).inputValue(), 'basic');
    // A link that cannot be read says why and starts empty.
    await goEditor(other, `#position=${encodeURIComponent('standard:x:0:-')}`);
    assert.equal(await shown(other), EMPTY);
    assert.equal(await message(other), en('editor.bad_link', { message: 'side to move `x` must be `w` or `b`' }));
    // A finished position is not offered for play, and says why (two passes in a row: the
    // standard game's central count decides, Black's T covering K10).
    await other.locator(tid('editor-position')).fill('standard:w:2:bT@L10/2');
    await other.locator(tid('editor-load')).click();
    await waitPosition(other, 'standard:w:2:bT@L10/2', 'a position typed in');
    assert.equal(await other.locator(tid('editor-play')).isDisabled(), true, 'no play from a finished position');
    assert.equal((await other.locator(tid('editor-play-note')).textContent()).trim(), en('editor.play.over.black'));
    // In the basic game the same is a draw.
    await other.locator(tid('editor-variant')).selectOption('basic');
    await waitPosition(other, 'basic:w:2:bT@L10/2', 'the basic game');
    assert.equal((await other.locator(tid('editor-play-note')).textContent()).trim(), en('editor.play.over.draw'));
    assert.equal(await other.locator(tid('editor-play')).isDisabled(), true);
    // A position string that cannot be read is said, and nothing changes.
    await other.locator(tid('editor-position')).fill('standard:w:0:wC@B7/3');
    await other.locator(tid('editor-position')).press('Enter');
    await waitMessage(other, en('editor.bad_position', { message: 'piece 1 `wC@B7/3`: a C piece has rotations 0–2' }), 'a bad position string');
    assert.equal(await other.locator(tid('editor')).getAttribute('data-position'), 'basic:w:2:bT@L10/2');
    assert.equal(await other.locator(tid('editor-position')).inputValue(), 'standard:w:0:wC@B7/3', 'the text typed stays, to be corrected');

    // The board by keyboard: the cursor starts on I9, Enter lays the piece there.
    await page.locator(tid('editor-side-white')).click();
    await page.locator(tid('editor-kind-C')).click();
    await page.locator('[data-testid="board"]').focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await waitMessage(page, en('editor.placed.white', { kind: 'C', cell: 'I10', level: 0 }), 'a C laid by keyboard on I10');
    const played = await shown(page);
    assert.match(played, /wC@I10\/0/);

    // Played against the AI: a game that starts from this position (White to move, the person White).
    await page.locator(tid('editor-to-move')).selectOption('w');
    const start = played.replace('basic:b:', 'basic:w:');
    await waitPosition(page, start, 'White to move again');
    await page.locator(tid('editor-level')).selectOption('1');
    await page.locator(tid('editor-play-side')).selectOption('white');
    await shot(page, PREFIX, 'desktop-before-play');
    await page.locator(tid('editor-play')).click();
    const { id, token } = await waitGamePage(page);
    assert.ok(token, 'the seat kept in this browser');
    assert.deepEqual(await server.api.you(id, token), ['white'], 'the person holds White');
    const game = await server.api.game(id);
    assert.equal(game.start, start, "the game's start is the editor's position");
    assert.equal(game.variant, 'basic');
    assert.equal(game.mode, 'ai');
    assert.equal(game.ply, 0);
    assert.equal(game.to_move, 'white');
    await waitBoardShows(page, game, 'the game page');

    // Analysed: the analysis board at the position.
    await goEditor(page, `#position=${encodeURIComponent(start)}`);
    assert.equal(await shown(page), start);
    await page.locator(tid('editor-analyse')).click();
    await page.waitForURL(/\/analysis#position=/);
    const asked = new URL(page.url()).hash.replace(/^#position=/, '');
    assert.equal(decodeURIComponent(asked), start);
  });
});

test('the editor in German and on a phone: words, axe, fitting the screen', { timeout: 120000 }, async () => {
  const { server } = env;
  const cats = await loadCatalogues(server.url);
  const stacked = 'standard:w:0:wT@C5/0,wT@D4/0,bE@H5/1,wT@C4/5^1';
  const page = await openEditor('desktop-en', DESKTOP, `#position=${encodeURIComponent(stacked)}`);
  await withArtifacts(PREFIX, () => pages, async () => {
    // English: a refusal shown and the erase tool pointing at a piece.
    await choose(page, 'white', 'E', 1);
    await clickCell(page, 'H5');
    await waitMessage(page, tr(cats, 'en', 'editor.refused.place', {
      kind: 'E', cell: 'H5', why: tr(cats, 'en', 'illegal.punct_on_opponent', { cell: 'H5' }),
    }), 'refused in English');
    await page.locator(tid('editor-erase')).click();
    await cellLocator(page, 'C4').hover();
    await shot(page, PREFIX, 'desktop-1366x768');
    await checkAxe(page, 'the editor in English');
    assert.ok(await overflow(page) <= 0, 'nothing sideways at 1366 × 768');
    // Everything of the palette and the position's use in the window, without scrolling.
    for (const id of ['editor-side-white', 'editor-kind-R', 'editor-rotate', 'editor-erase', 'editor-message',
      'editor-to-move', 'editor-variant', 'editor-position', 'editor-play', 'editor-analyse', 'editor-share']) {
      const box = await page.locator(tid(id)).boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= 768 && box.x + box.width <= 1366, `${id} in the window: ${JSON.stringify(box)}`);
    }

    // German, dark: the same refusal in German, axe clean.
    const de = await openEditor('desktop-de', { ...DESKTOP, colorScheme: 'dark' }, `?lang=de#position=${encodeURIComponent(stacked)}`);
    assert.equal(await de.locator('html').getAttribute('lang'), 'de');
    assert.equal((await de.locator(tid('editor-play')).textContent()).trim(), tr(cats, 'de', 'editor.play'));
    await choose(de, 'white', 'E', 1);
    await clickCell(de, 'H5');
    await waitMessage(de, tr(cats, 'de', 'editor.refused.place', {
      kind: 'E', cell: 'H5', why: tr(cats, 'de', 'illegal.punct_on_opponent', { cell: 'H5' }),
    }), 'refused in German');
    await choose(de, 'black', 'L', 0);
    await clickCell(de, 'M12');
    await waitMessage(de, tr(cats, 'de', 'editor.placed.black', { kind: 'L', cell: 'M12', level: 0 }), 'placed, said in German');
    await de.locator(tid('editor-side-white')).click();
    await shot(de, PREFIX, 'desktop-de-dark');
    await checkAxe(de, 'the editor in German, dark');

    // A phone: a piece laid by a tap, nothing sideways, the board as wide as the screen allows.
    const phone = await openEditor('phone', PHONE);
    await phone.locator(tid('editor-kind-M')).tap();
    await cellLocator(phone, 'F10').tap();
    await waitPosition(phone, 'standard:w:0:wM@F10/0', 'an M laid by a tap');
    assert.ok(await overflow(phone) <= 0, `no sideways scroll on the phone (${await overflow(phone)} px)`);
    const boardBox = await phone.locator('[data-testid="board"]').boundingBox();
    assert.ok(boardBox.width >= 330, `the board is ${boardBox.width} px wide on the phone`);
    // The message comes right under the board.
    const msgBox = await phone.locator(tid('editor-message')).boundingBox();
    assert.ok(msgBox.y >= boardBox.y + boardBox.height - 2 && msgBox.y < boardBox.y + boardBox.height + 40, 'the message under the board');
    await shot(phone, PREFIX, 'phone-390x844');
    await checkAxe(phone, 'the editor on a phone');
  });
});
