// Direct challenges and blocks (docs/API.md, "Challenges and blocks"): from
// a player's profile, "Challenge" opens the lobby's form set to challenge
// them; the one challenged sees it live, declines one (the challenger is
// told) and accepts another (both pages on one game); a third page
// watches the game; the one to move sees "your turn in 1 game" in the
// header; a block hides the challenge button and refuses a challenge in
// the page's words; axe on the screens with challenges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serverAndBrowser, waitLobby, newPage, shot, withArtifacts, tid, T, waitGamePage,
} from '../lib/browser.mjs';
import { axeViolations, serious, describeViolations } from '../lib/axe.mjs';

const PREFIX = 'challenges';
const env = serverAndBrowser();
const pages = [];
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/**
 * A page signed in as a new account `name`, on instance `instance` (its
 * `base`: each person on an instance of their own when the run has several).
 */
async function member(label, name, options = DESKTOP, instance = 0) {
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

/** `page` on the start screen (with `query`), the lobby's first message drawn. */
async function openLobby(page, query = '') {
  await page.goto(`${page.base}/${query}`);
  await waitLobby(page);
}

async function noSeriousAxe(page, what) {
  const found = serious(await axeViolations(page));
  assert.equal(found.length, 0, `${what}: ${describeViolations(found)}`);
}

test('a challenge from a profile: declined once, accepted the second time, watched by a third page', { timeout: 120000 }, async () => {
  const { server } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const ann = await member('ann', 'Chal_Ann');
    const bob = await member('bob', 'Chal_Bob', DESKTOP, 1);
    await openLobby(bob);
    // Ann on Bob's profile: Challenge opens the lobby's form set to him.
    await ann.goto(`${ann.base}/@/Chal_Bob`);
    await ann.locator(tid('profile-challenge')).click();
    await ann.waitForFunction(() => document.querySelector('[data-testid="seek-opponent"]')?.value === 'Chal_Bob',
      null, { timeout: T.step * 2 });
    await ann.waitForFunction(() => !document.querySelector('[data-testid="seek-create"]')?.disabled,
      null, { timeout: T.step * 2 });
    assert.equal((await ann.locator(tid('seek-create')).innerText()).trim(), 'Challenge');
    await ann.locator(tid('seek-clock')).selectOption('rt-5-3');
    await ann.locator(tid('seek-colour')).selectOption('white');
    await ann.locator(tid('seek-create')).click();
    // Ann's outgoing line; Bob's incoming one, live; not an open seek.
    await ann.locator(`${tid('lobby-challenges')} li`).filter({ hasText: 'Chal_Bob' }).waitFor({ timeout: T.step });
    const incoming = bob.locator(`${tid('lobby-challenges')} li[data-incoming]`);
    await incoming.waitFor({ timeout: T.step });
    assert.match(await incoming.innerText(), /Chal_Ann challenges you/);
    assert.match(await incoming.innerText(), /5 min \+ 3 s/);
    assert.match(await incoming.innerText(), /you play Black/i);
    await bob.locator(tid('lobby-empty')).waitFor();
    await shot(bob, PREFIX, 'incoming-1366x768');
    await noSeriousAxe(bob, 'the lobby with an incoming challenge');

    // Declined: Ann is told in words, both lines go.
    await incoming.locator(tid('decline-challenge')).click();
    await incoming.waitFor({ state: 'detached', timeout: T.step });
    await ann.locator(tid('lobby-message')).filter({ hasText: 'Chal_Bob declined your challenge.' })
      .waitFor({ timeout: T.step });
    await ann.locator(`${tid('lobby-challenges')} li`).waitFor({ state: 'detached', timeout: T.step });

    // Again, accepted: one game, Ann White as she asked.
    await ann.locator(tid('seek-create')).click();
    await incoming.waitFor({ timeout: T.step });
    await incoming.locator(tid('accept-challenge')).click();
    const [ga, gb] = await Promise.all([waitGamePage(ann), waitGamePage(bob)]);
    assert.equal(ga.id, gb.id);
    const g = await server.api.game(ga.id);
    assert.equal(g.players.white.name, 'Chal_Ann');
    assert.equal(g.players.black.name, 'Chal_Bob');
    // A third page watches the game.
    const carl = await newPage(env.browser, 'spectator', DESKTOP);
    pages.push(carl);
    await carl.goto(`${server.at(2)}/game/${ga.id}`);
    await carl.locator(tid('board')).waitFor({ timeout: T.step * 2 });
    await carl.getByText('Chal_Ann').first().waitFor({ timeout: T.step });
    // Coming back: Ann (White, to move) sees "your turn in 1 game" in the header, with the game;
    // Bob (waiting) sees nothing of it.
    await ann.goto(`${ann.base}/rules`);
    const turns = ann.locator(tid('turns-summary'));
    await turns.filter({ hasText: 'Your turn in 1 game' }).waitFor({ timeout: T.step * 2 });
    await turns.click();
    const line = ann.locator(`${tid('turns-list')} li[data-game="${ga.id}"]`);
    await line.waitFor({ timeout: T.step });
    assert.match(await line.innerText(), /Chal_Bob/);
    await shot(ann, PREFIX, 'turns-1366x768');
    await noSeriousAxe(ann, 'the header with the turns list open');
    await line.locator('a').click();
    await ann.waitForURL(`**/game/${ga.id}`, { timeout: T.step });
    await bob.goto(`${bob.base}/rules`);
    await bob.locator(tid('nav-user')).waitFor();
    await bob.waitForTimeout(500);
    assert.equal(await bob.locator(tid('turns')).isHidden(), true, 'not Bob\'s turn');
    for (const p of [ann, bob, carl]) await p.context().close();
    pages.length = 0;
  });
});

test('a block hides Challenge, refuses a challenge in words, and is lifted', { timeout: 90000 }, async () => {
  const { server } = env;
  await withArtifacts(PREFIX, () => pages, async () => {
    const dora = await member('dora', 'Chal_Dora');
    const emil = await member('emil', 'Chal_Emil', PHONE, 1);
    await emil.goto(`${emil.base}/@/Chal_Dora`);
    const block = emil.locator(tid('profile-block'));
    await block.waitFor();
    await emil.locator(tid('profile-challenge')).waitFor();
    await block.click();
    await emil.locator(tid('profile-blocked')).filter({ hasText: 'You block Chal_Dora' }).waitFor({ timeout: T.step });
    assert.equal(await emil.locator(tid('profile-challenge')).isHidden(), true);
    assert.equal((await block.innerText()).trim(), 'Unblock');
    await shot(emil, PREFIX, 'profile-blocked-390x844');
    await noSeriousAxe(emil, 'a blocked player\'s profile');
    // Dora's challenge to Emil is refused in the page's words.
    await openLobby(dora, '?challenge=Chal_Emil');
    await dora.locator(tid('seek-create')).click();
    await dora.locator(tid('lobby-message')).filter({ hasText: 'one of you blocks the other' })
      .waitFor({ timeout: T.step });
    // Lifted: the challenge goes through.
    await block.click();
    await emil.locator(tid('profile-challenge')).waitFor({ timeout: T.step });
    await dora.locator(tid('seek-create')).click();
    await dora.locator(`${tid('lobby-challenges')} li`).filter({ hasText: 'Chal_Emil' }).waitFor({ timeout: T.step });
    await shot(dora, PREFIX, 'outgoing-1366x768');
    for (const p of [dora, emil]) await p.context().close();
    pages.length = 0;
  });
});
