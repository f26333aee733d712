// Notifications (docs/API.md, "Notifications"): two accounts in two
// browser contexts; Ann challenges Bob to a correspondence game and Bob's
// bell counts it live on another screen; opening the list and clicking it
// leads to the lobby's challenge and the count falls; Bob accepts, Ann
// moves, and Bob's bell counts "your move", whose click opens the game.
// The tab's title carries the unread count, "(1) PÜNCT · …".
// Axe on the open list in the four languages; a 390×844 screenshot of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, newPage, shot, withArtifacts, tid, T, waitGamePage,
} from '../lib/browser.mjs';
import { axeViolations, serious, describeViolations } from '../lib/axe.mjs';

const PREFIX = 'notifications';
const env = serverAndBrowser();
const pages = [];
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** A page signed in as a new account `name`, on instance `instance` (its `base`). */
async function member(label, name, options, instance) {
  const { server } = env;
  const page = await newPage(env.browser, label, options);
  pages.push(page);
  page.base = server.at(instance);
  const res = await page.request.post(`${page.base}/api/account/signup`, {
    data: { name, password: 'quiet harbour lanterns 42' }, headers: { origin: page.base },
  });
  assert.equal(res.status(), 201, `sign-up of ${name}: ${await res.text()}`);
  return page;
}

/** Waits until the page's bell counts `n`. */
function bellCount(page, n) {
  return page.locator(`${tid('bell')}[data-count="${n}"]`).waitFor({ state: 'attached', timeout: T.step * 2 });
}

test('the bell counts a challenge and a correspondence move live; a click opens it and marks it read', { timeout: 120000 }, async () => {
  const { server } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const ann = await member('ann', 'Notes_Ann', DESKTOP, 0);
    const bob = await member('bob', 'Notes_Bob', PHONE, 1);
    await bob.goto(`${bob.base}/rules`);
    await bellCount(bob, 0);

    // Ann challenges Bob to a correspondence game from the lobby.
    await ann.goto(`${ann.base}/?challenge=Notes_Bob`);
    await ann.waitForFunction(() => {
      const create = document.querySelector('[data-testid="seek-create"]');
      return create && !create.disabled
        && document.querySelector('[data-testid="seek-opponent"]')?.value === 'Notes_Bob';
    }, null, { timeout: T.step * 2 });
    await ann.locator(tid('seek-clock')).selectOption('cor-3');
    await ann.locator(tid('seek-colour')).selectOption('white');
    await ann.locator(tid('seek-create')).click();

    // Bob, reading the rules, sees it counted without a reload, on the
    // bell and in the tab's title.
    await bellCount(bob, 1);
    await bob.waitForFunction(() => document.title.startsWith('(1) PÜNCT'), null, { timeout: T.step });
    await bob.locator(tid('bell-summary')).click();
    const item = bob.locator(tid('bell-item')).first();
    await item.waitFor({ timeout: T.step });
    assert.equal(await item.getAttribute('data-kind'), 'challenge');
    assert.match(await item.innerText(), /Notes_Ann challenges you/);
    await shot(bob, PREFIX, 'list-390x844');
    const found = serious(await axeViolations(bob));
    assert.equal(found.length, 0, `the open list: ${describeViolations(found)}`);
    // The open list in the other languages: its words, and axe.
    for (const lang of ['de', 'ja', 'sk']) {
      await bob.goto(`${bob.base}/rules?lang=${lang}`);
      await bellCount(bob, 1);
      await bob.locator(tid('bell-summary')).click();
      await item.waitFor({ timeout: T.step });
      const said = await item.innerText();
      assert.ok(said.includes('Notes_Ann') && !said.includes('challenges you'), `${lang}: ${said}`);
      const bad = serious(await axeViolations(bob));
      assert.equal(bad.length, 0, `the open list in ${lang}: ${describeViolations(bad)}`);
    }
    await bob.goto(`${bob.base}/rules?lang=en`);
    await bellCount(bob, 1);
    await bob.locator(tid('bell-summary')).click();
    await item.waitFor({ timeout: T.step });

    // The click leads to the lobby, where the challenge waits; read now.
    await item.click();
    await bob.waitForURL(`${bob.base}/`, { timeout: T.step });
    await bellCount(bob, 0);
    await bob.waitForFunction(() => document.title === 'PÜNCT', null, { timeout: T.step });
    const incoming = bob.locator(`${tid('lobby-challenges')} li[data-incoming]`);
    await incoming.waitFor({ timeout: T.step * 2 });
    await incoming.locator(tid('accept-challenge')).click();
    const [ga, gb] = await Promise.all([waitGamePage(ann), waitGamePage(bob)]);
    assert.equal(ga.id, gb.id);

    // Bob goes elsewhere; Ann moves: Bob's bell counts his turn.
    await bob.goto(`${bob.base}/rules`);
    await bellCount(bob, 0);
    const state = await server.api.game(ga.id);
    await server.api.move(ga.id, ga.token, state.legal_moves[0]);
    await bellCount(bob, 1);
    // The rules screen's own title, the count in front of it.
    await bob.waitForFunction(() => /^\(1\) PÜNCT · \S/.test(document.title), null, { timeout: T.step });
    await bob.locator(tid('bell-summary')).click();
    const turn = bob.locator(`${tid('bell-item')}[data-kind="your_turn"]`);
    await turn.waitFor({ timeout: T.step });
    assert.match(await turn.innerText(), /Your move against Notes_Ann/);
    // The header at 390 px with the bell and "your turn" side by side.
    await bob.locator(tid('turns')).waitFor({ timeout: T.step * 2 });
    // Nothing in it cut off: the short form there, the words its name.
    const summary = bob.locator(tid('turns-summary'));
    assert.equal((await summary.locator('.turns-short').innerText()).trim(), '1 to play');
    const cut = await summary.evaluate((el) => el.scrollWidth - el.clientWidth);
    assert.ok(cut <= 1, `"your turn" at 390 px is cut by ${cut} px`);
    assert.equal(await summary.locator('.turns-count').textContent(), 'Your turn in 1 game', 'the words stay, for screen readers');
    await shot(bob, PREFIX, 'turn-390x844');
    await turn.click();
    await waitGamePage(bob);
    assert.equal(new URL(bob.url()).pathname, `/game/${ga.id}`);
    await bellCount(bob, 0);
    for (const p of [ann, bob]) await p.context().close();
    pages.length = 0;
  });
});
