// The chat of an online game (docs/API.md, "The chat"): fixed phrases only,
// each page showing them in its own language whoever said them. White (in
// English) says "Good luck", Black's page (in German) shows "Viel Glück" and
// answers "Gut gespielt", a spectator (in Japanese) sees both and has no
// buttons; axe on the chat in the four languages, a phone screenshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, shot, withArtifacts, tid, T, showTab } from '../lib/browser.mjs';
import { axeViolations, serious, describeViolations } from '../lib/axe.mjs';

const PREFIX = 'chat';
const env = serverAndBrowser();
const pages = [];
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/**
 * Opens game `id` in `lang` holding `token`'s seat (none: watching) on
 * instance `instance`; waits for the chat's state.
 */
async function openGame(label, id, lang, token, instance, options = { viewport: { width: 1366, height: 768 } }) {
  const page = await newPage(env.browser, label, options);
  pages.push(page);
  await page.goto(`${env.server.at(instance)}/game/${id}?lang=${lang}${token ? `#token=${token}` : ''}`);
  await page.locator(`${tid('game')}[data-ply]`).waitFor({ timeout: T.step * 2 });
  await showTab(page, 'players'); // the chat is with the players
  return page;
}

/** The phrases the page's chat shows, as [side, text] pairs. */
function said(page) {
  return page.locator(`${tid('chat-lines')} li[data-phrase]`).evaluateAll((lis) =>
    lis.map((li) => [li.dataset.side, li.querySelector('.chat-phrase').textContent]));
}

test('phrases said by one seat reach the other and a spectator, each in their own language', { timeout: 90000 }, async () => {
  const { api } = env.server;
  await withArtifacts(PREFIX, () => pages, async () => {
    const made = await api.create({ mode: 'online' });
    const claimed = await api.req('POST', `/api/games/${made.id}/claim`, { invite: made.invite.code });
    const white = await openGame('white', made.id, 'en', made.seats.white, 0, PHONE);
    const black = await openGame('black', made.id, 'de', claimed.token, 1);
    const watcher = await openGame('watcher', made.id, 'ja', null, 2);
    assert.equal(await watcher.locator(tid('chat')).isVisible(), false, 'no chat to show a spectator yet');

    await white.locator(tid('chat-good_luck')).click();
    await black.locator(`${tid('chat-lines')} li[data-phrase="good_luck"]`).waitFor({ timeout: T.move });
    assert.deepEqual(await said(black), [['white', 'Viel Glück']]);
    await black.locator(tid('chat-well_played')).click();
    await white.locator(`${tid('chat-lines')} li[data-phrase="well_played"]`).waitFor({ timeout: T.move });
    assert.deepEqual(await said(white), [['white', 'Good luck'], ['black', 'Well played']]);
    await watcher.locator(`${tid('chat-lines')} li[data-phrase="well_played"]`).waitFor({ timeout: T.move });
    assert.deepEqual(await said(watcher), [['white', 'よろしくお願いします'], ['black', 'お見事です']]);
    assert.equal(await watcher.locator(tid('chat-good_luck')).isVisible(), false, 'a spectator says nothing');
    const state = await api.game(made.id);
    assert.deepEqual(state.chat.map((l) => [l.side, l.phrase, l.ply]), [['white', 'good_luck', 0], ['black', 'well_played', 0]]);

    await white.locator(tid('chat')).scrollIntoViewIfNeeded();
    await shot(white, PREFIX, 'chat-390x844');
    await shot(black, PREFIX, 'chat-de-1366x768');
    // Axe on the chat in every language: the seats in English and German,
    // the spectator in Japanese, and a Slovak seat reopened.
    const slovak = await openGame('white-sk', made.id, 'sk', made.seats.white, 1);
    await slovak.locator(`${tid('chat-lines')} li[data-phrase="well_played"]`).waitFor({ timeout: T.move });
    assert.deepEqual(await said(slovak), [['white', 'Veľa šťastia'], ['black', 'Dobre zahrané']]);
    for (const page of [white, black, watcher, slovak]) {
      const bad = serious(await axeViolations(page));
      assert.equal(bad.length, 0, `${page.label}: ${describeViolations(bad)}`);
    }
  });
});
