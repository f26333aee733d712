// Accounts in the page: signing up (the name in the header, kept over a
// reload by the session cookie), signing out and in again, a wrong
// password said in words, the per-account limit on sign-in tries said
// with when to try again; the account screen (the sessions with this
// device marked, signing out everywhere else, changing the password: a
// second browser signed in is signed out; this browser's games added to
// the account; the account deleted); a rated game's end with each
// side's new rating and change, one against the AI too (the level a bot
// account with its profile); the profile (its rating chart, results,
// games playing now and the games list with filters and pages) at
// 1366 × 768 and 390 × 844; the leaderboard's tabs and its empty state;
// axe on every account screen in the four languages (by 127.0.0.1, which
// says why it offers no passkey, and by name: the passkey buttons, an
// account with two passkeys); and a request with the session cookie from
// another origin, or none, refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, shot, withArtifacts, tid, T, allowRefusedRequest, openStart } from '../lib/browser.mjs';
import { axeViolations, serious, describeViolations } from '../lib/axe.mjs';
import { loadCatalogues, tr, isText } from '../lib/i18n.mjs';
import { DESKTOP, PHONE, overflow } from '../lib/learn.mjs';
import { addDevice, swapDevice, signUpWithPasskey, addPasskeyHere } from '../lib/passkeys.mjs';

const PREFIX = 'accounts';
// Every test signs up and in from 127.0.0.1: the per-client limit on
// those (--rate-account, 10 a minute) is off, the per-account one stays.
const env = serverAndBrowser({ args: ['--rate-account', 'off'] });
const pages = [];
const LANGS = ['en', 'de', 'ja', 'sk'];
const PASSWORD = 'plum orbit lantern 42';
const NEW_PASSWORD = 'quiet harbour kettle 7';
/** The per-account limit on sign-in tries (a minute). */
const ACCOUNT_TRIES = 6;

let cats = null;
const catalogues = async () => (cats ??= await loadCatalogues(env.server.url));
/** The English text of `key` with `params` (the catalogue's, as the page makes it). */
const en = async (key, params = {}) => tr(await catalogues(), 'en', key, params);

async function open(label, options = DESKTOP) {
  const page = await newPage(env.browser, label, options);
  pages.push(page);
  return page;
}

const text = async (page, testid) => ((await page.locator(tid(testid)).textContent()) || '').trim();

/** Waits until the header shows `name` signed in. */
async function waitSignedIn(page, name) {
  await page.locator(`${tid('nav-user')}[data-user="${name}"]`).waitFor();
  assert.equal(await page.locator(tid('nav-signin')).count(), 0, `${page.label}: no "Sign in" beside the name`);
}

/** Waits until the header offers to sign in. */
async function waitSignedOut(page) {
  await page.locator(tid('nav-signin')).waitFor();
  assert.equal(await page.locator(tid('nav-user')).count(), 0, `${page.label}: no user name in the header`);
}

/** Sends `form`'s (signin or signup) name and password and waits for the server's answer. */
async function submit(page, form, name, password) {
  await page.locator(tid(`${form}-name`)).fill(name);
  await page.locator(tid(`${form}-password`)).fill(password);
  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/account/${form}`) && r.request().method() === 'POST');
  await page.locator(tid(`${form}-submit`)).click();
  return answer;
}

/** The error a field shows once the page has written it (it does so just after the server's answer). */
async function shownError(page, testid) {
  await page.locator(tid(testid)).filter({ hasText: /\S/ }).waitFor();
  return text(page, testid);
}

/** Creates account `name` through the sign-up screen; the page ends signed in. */
async function signUp(page, name, password = PASSWORD) {
  await page.goto(`${env.server.url}/signup`);
  const res = await submit(page, 'signup', name, password);
  assert.equal(res.status(), 201, `${page.label}: signing up ${name} answers 201`);
  await waitSignedIn(page, name);
}

/** Signs in as `name` through the sign-in screen (of the instance at `base`). */
async function signIn(page, name, password = PASSWORD, base = env.server.url) {
  await page.goto(`${base}/signin`);
  const res = await submit(page, 'signin', name, password);
  assert.equal(res.status(), 200, `${page.label}: signing in ${name} answers 200`);
  await waitSignedIn(page, name);
}

/**
 * A client of the API with `page`'s session cookie and the page's own
 * Origin (as a browser sends on a POST): for what the page does not do
 * by itself (a second seat, a resignation).
 */
async function apiOf(page) {
  const cookies = await page.context().cookies(env.server.url);
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const origin = new URL(env.server.url).origin;
  return (method, path, body) => env.server.api.req(method, path, body, { cookie, origin });
}

test('sign up, the name in the header, a reload keeps it, sign out, a wrong password said, sign in', { timeout: 60000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { url } = env.server;
    const page = await open('ada');
    await page.goto(`${url}/`);
    await waitSignedOut(page);
    await page.locator(tid('nav-signin')).click();
    await page.waitForURL(/\/signin$/);
    await page.locator(tid('to-signup')).click();
    await page.waitForURL(/\/signup$/);
    // The rules beside the fields, and autocomplete for password managers.
    assert.equal(await page.locator(tid('signup-name')).getAttribute('autocomplete'), 'username');
    assert.equal(await page.locator(tid('signup-password')).getAttribute('autocomplete'), 'new-password');
    const described = await page.locator(tid('signup-name')).getAttribute('aria-describedby');
    assert.match(await page.locator(`[id="${described.split(' ')[0]}"]`).textContent(), /2.20/, 'the name field is described by its rules');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'signup-name', 'the focus starts in the name field');

    // Refusals said beside their field, in words, from their codes.
    allowRefusedRequest(page, 422, `${url}/api/account/signup`, 'a name and a password the server refuses, on purpose');
    allowRefusedRequest(page, 409, `${url}/api/account/signup`, 'a name that is taken, on purpose');
    let res = await submit(page, 'signup', 'a', PASSWORD);
    assert.equal(res.status(), 422);
    const nameError = await shownError(page, 'signup-name-error');
    assert.ok(isText(await catalogues(), 'en', 'error.name_length', nameError), `the name's error is error.name_length: ${nameError}`);
    assert.equal(await page.locator(tid('signup-name')).getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator(tid('signup-name')).getAttribute('aria-describedby'), /-error/, 'the error is tied to the field');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'signup-name', 'the focus goes to the field in error');
    res = await submit(page, 'signup', 'Ada', 'short');
    assert.equal(res.status(), 422);
    assert.equal(await shownError(page, 'signup-password-error'), await en('error.password_short', { min: 10 }));
    assert.equal(await text(page, 'signup-name-error'), '', 'the name is fine now');
    await shot(page, PREFIX, 'signup-errors');

    await signUp(page, 'Ada');
    assert.equal(new URL(page.url()).pathname, '/', 'home after signing up');
    assert.match(await text(page, 'nav-user'), /Ada/);
    // The name is taken now (from another browser).
    const other = await open('other');
    allowRefusedRequest(other, 409, `${url}/api/account/signup`, 'a name that is taken, on purpose');
    await other.goto(`${url}/signup`);
    res = await submit(other, 'signup', 'Ada', PASSWORD);
    assert.equal(res.status(), 409);
    // (The answer has come; the page words it a moment later.)
    await other.locator(tid('signup-name-error')).filter({ hasText: /\S/ }).waitFor();
    assert.equal(await text(other, 'signup-name-error'), await en('error.name_taken', { name: 'Ada' }));
    await other.context().close();

    // The session cookie keeps the page signed in.
    await page.reload();
    await waitSignedIn(page, 'Ada');
    const cookies = await page.context().cookies(url);
    assert.ok(cookies.length >= 1 && cookies.every((c) => c.httpOnly), 'the session cookie is HttpOnly');

    // Signing out from the header's menu.
    await page.goto(`${url}/rules`);
    await page.locator(tid('nav-user')).click();
    await page.locator(tid('nav-signout')).click();
    await waitSignedOut(page);
    await page.reload();
    await waitSignedOut(page);

    // "Sign in" comes back to this screen; a wrong password is said.
    await page.locator(tid('nav-signin')).click();
    await page.waitForURL(/\/signin\?next=%2Frules$/);
    allowRefusedRequest(page, 401, `${url}/api/account/signin`, 'a wrong password, on purpose');
    res = await submit(page, 'signin', 'Ada', 'not the password');
    assert.equal(res.status(), 401);
    assert.equal(await shownError(page, 'signin-password-error'), await en('error.wrong_credentials'));
    await waitSignedOut(page);
    await shot(page, PREFIX, 'signin-wrong');
    res = await submit(page, 'signin', 'Ada', PASSWORD);
    assert.equal(res.status(), 200);
    await waitSignedIn(page, 'Ada');
    await page.waitForURL(/\/rules$/);
  });
});

test('the per-account limit on sign-in tries is said with when to try again', { timeout: 60000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { url } = env.server;
    const setup = await open('limit-setup');
    await signUp(setup, 'Bo');
    await setup.context().close();
    const page = await open('limit');
    allowRefusedRequest(page, 401, `${url}/api/account/signin`, 'wrong passwords, on purpose');
    allowRefusedRequest(page, 429, `${url}/api/account/signin`, 'the per-account limit, reached on purpose');
    await page.goto(`${url}/signin`);
    let refused = null;
    let tries = 0;
    while (!refused) {
      tries++;
      assert.ok(tries <= ACCOUNT_TRIES + 2, `no refusal after ${tries - 1} wrong passwords (the limit is ${ACCOUNT_TRIES} a minute)`);
      const res = await submit(page, 'signin', 'Bo', `wrong password ${tries}`);
      if (res.status() === 429) refused = res;
      else assert.equal(res.status(), 401, `try ${tries}: a wrong password`);
    }
    assert.ok(tries > ACCOUNT_TRIES, `refused only after ${ACCOUNT_TRIES} tries (at try ${tries})`);
    const body = await refused.json();
    assert.equal(body.error.code, 'account_limited');
    const retry = Number(refused.headers()['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${refused.headers()['retry-after']}`);
    const said = await text(page, 'signin-message');
    assert.equal(said, await en('error.account_limited', { seconds: retry }), 'the page says when to try again (Retry-After)');
    await waitSignedOut(page);
    await shot(page, PREFIX, 'signin-limited');
  });
});

test('the account screen: sessions, sign out everywhere else, change the password', { timeout: 90000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { url } = env.server;
    // The other browser on another instance when there are several: what
    // one instance ends, every instance refuses.
    const elsewhere = env.server.at(1);
    const here = await open('cy-here');
    const there = await open('cy-there', PHONE);
    await signUp(here, 'Cy');
    await signIn(there, 'Cy', PASSWORD, elsewhere);
    await here.goto(`${url}/account`);
    await here.locator(`${tid('session-list')} li`).nth(1).waitFor();
    assert.equal(await here.locator(`${tid('session-list')} li`).count(), 2);
    assert.equal(await here.locator(`${tid('session-list')} li[data-current="true"] ${tid('this-device')}`).count(), 1, 'this device is marked');
    assert.equal(await text(here, 'account-name'), 'Cy');
    assert.match(await text(here, 'account-since'), /\d/);
    assert.equal(await here.locator(tid('account-profile')).getAttribute('href'), '/@/Cy');
    await shot(here, PREFIX, 'account-1366');

    // Sign out everywhere else: the other browser is signed out.
    await here.locator(tid('account-signout-elsewhere')).click();
    await here.locator(`${tid('account-notice')}:text("${await en('account.sessions.ended', { count: 1 })}")`).waitFor();
    assert.equal(await here.locator(`${tid('session-list')} li`).count(), 1);
    await there.reload();
    await waitSignedOut(there);
    await here.reload();
    await waitSignedIn(here, 'Cy');

    // Change the password: a wrong one first, then the right one; the other browser is signed out again.
    await signIn(there, 'Cy', PASSWORD, elsewhere);
    await here.goto(`${url}/account`);
    await here.locator(tid('password-current')).waitFor();
    assert.equal(await here.locator(tid('password-current')).getAttribute('autocomplete'), 'current-password');
    assert.equal(await here.locator(tid('password-new')).getAttribute('autocomplete'), 'new-password');
    allowRefusedRequest(here, 403, `${url}/api/account/password`, 'a wrong current password, on purpose');
    await here.locator(tid('password-current')).fill('not the password');
    await here.locator(tid('password-new')).fill(NEW_PASSWORD);
    await here.locator(tid('password-submit')).click();
    await here.locator(`${tid('password-current-error')}:text("${await en('error.wrong_password')}")`).waitFor();
    assert.equal(await here.evaluate(() => document.activeElement?.dataset.testid), 'password-current');
    await here.locator(tid('password-current')).fill(PASSWORD);
    await here.locator(tid('password-submit')).click();
    await here.locator(`${tid('account-notice')}:text("${await en('account.password.changed', { count: 1 })}")`).waitFor();
    await there.reload();
    await waitSignedOut(there);
    await signIn(there, 'Cy', NEW_PASSWORD, elsewhere);
    await here.reload();
    await waitSignedIn(here, 'Cy');
    await there.goto(`${elsewhere}/account`);
    await there.locator(`${tid('session-list')} li`).first().waitFor();
    await shot(there, PREFIX, 'account-phone');
    assert.equal(await overflow(there), 0, 'the phone does not scroll sideways');

    // Signing out here: the account screen says so.
    await here.goto(`${url}/account`);
    await here.locator(tid('account-signout')).click();
    await here.locator(tid('account-signed-out')).waitFor();
    await waitSignedOut(here);
  });
});

test('the account screen adds the games this browser played signed out, and deletes the account', { timeout: 60000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { url, api } = env.server;
    const page = await open('hal');
    // A game against the AI on the server, signed out: its seat is this browser's only.
    await page.goto(`${url}/`);
    await openStart(page, 'ai');
    await page.locator(tid('start-ai-server')).click();
    await page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
    const id = new URL(page.url()).pathname.split('/').pop();
    assert.equal((await api.game(id)).white_user, null);
    await signUp(page, 'Hal');
    await page.goto(`${url}/account`);
    await page.locator(tid('account-seats')).waitFor();
    await page.locator(tid('attach-seats')).click();
    await page.locator(`${tid('seats-status')}:text("${await en('account.seats.added', { count: 1 })}")`).waitFor();
    const attached = await api.game(id);
    assert.ok(attached.white_user, 'the seat is the account\'s now');
    assert.equal(attached.players.white.name, 'Hal');
    await page.reload();
    await page.locator(tid('session-list')).waitFor();
    assert.equal(await page.locator(tid('account-seats')).count(), 0, 'not offered again');

    // Deleting: the typed name unlocks the button, a wrong password is said, then the account is gone.
    const remove = page.locator(tid('delete-submit'));
    assert.equal(await remove.isDisabled(), true);
    await page.locator(tid('delete-confirm')).fill('hal');
    await page.locator(tid('delete-password')).fill('not the password');
    assert.equal(await remove.isDisabled(), true, 'the name typed exactly');
    await page.locator(tid('delete-confirm')).fill('Hal');
    assert.equal(await remove.isDisabled(), false);
    allowRefusedRequest(page, 403, `${url}/api/account/delete`, 'a wrong password, on purpose');
    await remove.click();
    await page.locator(`${tid('delete-password-error')}:text("${await en('error.wrong_password')}")`).waitFor();
    await page.locator(tid('delete-password')).fill(PASSWORD);
    await remove.click();
    await page.locator(`${tid('account-notice')}:text("${await en('account.delete.done', { name: 'Hal' })}")`).waitFor();
    await waitSignedOut(page);
    await page.goto(`${url}/@/Hal`);
    await page.locator(`${tid('profile')}[data-status="ready"] ${tid('profile-deleted')}`).waitFor();
    allowRefusedRequest(page, 401, `${url}/api/account/signin`, 'the deleted account, on purpose');
    await page.goto(`${url}/signin`);
    const res = await submit(page, 'signin', 'Hal', PASSWORD);
    assert.equal(res.status(), 401);
  });
});

test('a rated game: the end shows each side\'s rating change; the profile its chart, results and games; phone and desktop', { timeout: 120000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { url } = env.server;
    const white = await open('dee');
    const black = await open('eve');
    await signUp(white, 'Dee');
    await signUp(black, 'Eve');
    // Dee creates a rated 5 + 3 game from the start screen; Eve takes the other seat.
    await white.goto(`${url}/`);
    assert.match(await text(white, 'playing-as'), /Dee/);
    await openStart(white, 'people');
    await white.locator(tid('time-control')).selectOption('rt-5-3');
    await white.locator(tid('ai-color')).selectOption('white');
    await white.locator(tid('rated')).check();
    await white.locator(tid('start-online')).click();
    await white.waitForURL(/\/game\/[A-Za-z0-9]+$/);
    const id = new URL(white.url()).pathname.split('/').pop();
    const created = await env.server.api.game(id);
    assert.equal(created.rated, true, 'the game is rated');
    assert.ok(created.white_user, 'White is an account');
    const eve = await apiOf(black);
    const invite = await white.evaluate((gid) => JSON.parse(localStorage.getItem('punct:games'))[gid].invite, id);
    const claimed = await eve('POST', `/api/games/${id}/claim`, { invite });
    assert.equal(claimed.game.players.white.name, 'Dee');
    assert.equal(claimed.game.players.black.name, 'Eve');
    // A move each (a game ended before its second ply changes no rating), then Black resigns.
    const token = await white.evaluate((gid) => JSON.parse(localStorage.getItem('punct:games'))[gid].token, id);
    let g = await env.server.api.game(id);
    g = await env.server.api.move(id, token, g.legal_moves[0]);
    await env.server.api.move(id, claimed.token, g.legal_moves[0]);
    await eve('POST', `/api/games/${id}/resign`, { token: claimed.token });
    await white.locator(`${tid('result-title')}:text("You won")`).waitFor({ timeout: T.move });
    // The ratings are worked out after the game: the page asks until they are there.
    await white.locator(`${tid('result-rating')}:not([hidden])`).waitFor({ timeout: 20000 });
    const change = Number(await white.locator(tid('rating-white')).getAttribute('data-change'));
    assert.ok(change > 0, `White's rating went up (${change})`);
    assert.match(await text(white, 'rating-white'), /^White \d+\??\s?\(\+\d+\)$/);
    assert.match(await text(white, 'rating-black'), /^Black \d+\??\s?\(−\d+\)$/);
    // The opponent's name leads to their profile.
    assert.equal(await white.locator(tid('profile-link-black')).getAttribute('href'), '/@/Eve');
    await shot(white, PREFIX, 'rated-end-1366');

    // A game Dee plays now, for "Playing now".
    await white.goto(`${url}/`);
    await openStart(white, 'people');
    await white.locator(tid('time-control')).selectOption('none');
    await white.locator(tid('start-online')).click();
    await white.waitForURL(/\/game\/[A-Za-z0-9]+$/);
    const ongoing = new URL(white.url()).pathname.split('/').pop();

    for (const [label, options, size] of [['profile-desktop', DESKTOP, '1366'], ['profile-phone', PHONE, 'phone']]) {
      const page = await open(label, options);
      await page.goto(`${url}/@/Dee`);
      await page.locator(`${tid('profile')}[data-status="ready"]`).waitFor();
      assert.match(await text(page, 'profile-name'), /^Dee/);
      assert.match(await text(page, 'profile-facts'), /Member since/);
      // The rating of the game's category, with its history drawn.
      const chart = page.locator(`${tid('rating-chart')}[data-status="ready"]`);
      await chart.waitFor();
      assert.equal(await chart.getAttribute('data-points'), '1');
      assert.ok(await chart.locator('.chart-label.y').count() >= 2, 'ratings on the y axis');
      assert.ok(await chart.locator('.chart-label.x').count() >= 1, 'dates on the x axis');
      assert.match(await page.locator(`${tid('profile-ratings')} .rating-value`).first().textContent(), /^\d+\??$/);
      // Results: one win with White in the standard game.
      assert.equal(await page.locator(`${tid('profile-stats')} tbody[data-variant="standard"] tr[data-side="white"] td`).first().textContent(), '1');
      // Playing now, and the games list (newest first) with links to the games.
      await page.locator(`${tid('profile-playing')} a[href="/game/${ongoing}"]`).waitFor();
      await page.locator(`${tid('profile-games')}:not([aria-busy]) a[href="/game/${id}"]`).waitFor();
      assert.equal(await page.locator(`${tid('profile-games')} li[data-game="${id}"]`).getAttribute('data-side'), 'white');
      assert.equal(await page.locator(tid('games-next')).isDisabled(), true, 'one page only');
      assert.equal(await page.locator(tid('games-prev')).isDisabled(), true);
      assert.equal(await overflow(page), 0, `${label}: no sideways scroll`);
      await shot(page, PREFIX, `profile-${size}`);
      // Filters: finished games only, then games lost (none).
      await page.locator(tid('filter-status')).selectOption('over');
      await page.locator(`${tid('profile-games')}:not([aria-busy]) li[data-game="${id}"]`).waitFor();
      assert.equal(await page.locator(`${tid('profile-games')} li[data-game="${ongoing}"]`).count(), 0);
      await page.locator(tid('filter-result')).selectOption('lost');
      await page.locator(`${tid('profile-games')}:not([aria-busy]) ${tid('games-empty')}`).waitFor();
      // A line opens its game.
      await page.locator(tid('filter-result')).selectOption('');
      await page.locator(`${tid('profile-games')}:not([aria-busy]) a[href="/game/${id}"]`).click();
      await page.waitForURL(new RegExp(`/game/${id}$`));
      await page.context().close();
      pages.splice(pages.indexOf(page), 1);
    }
    // Eve's profile: the loss, and Eve is not playing now.
    const eveProfile = await open('eve-profile');
    await eveProfile.goto(`${url}/@/Eve`);
    await eveProfile.locator(`${tid('profile')}[data-status="ready"]`).waitFor();
    await eveProfile.locator(`${tid('profile-playing')} li.empty`).waitFor();
    assert.equal(await eveProfile.locator(`${tid('profile-stats')} tbody[data-variant="standard"] tr[data-side="black"] td`).nth(1).textContent(), '1');
    // A name nobody has.
    allowRefusedRequest(eveProfile, 404, `${url}/api/users/Nobody`, 'a profile that does not exist, on purpose');
    await eveProfile.goto(`${url}/@/Nobody`);
    await eveProfile.locator(`${tid('profile')}[data-status="missing"]`).waitFor();
    assert.equal(await text(eveProfile, 'profile-error'), await en('error.no_user'));
  });
});

test('a rated game against the AI rates both sides; the level is a bot account with a profile', { timeout: 60000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { url, api } = env.server;
    const page = await open('ivy');
    await signUp(page, 'Ivy');
    await page.goto(`${url}/`);
    await openStart(page, 'ai');
    await page.locator(tid('time-control')).selectOption('rt-3-2');
    await page.locator(tid('ai-level')).selectOption('1');
    await page.locator(tid('ai-color')).selectOption('white');
    await page.locator(tid('rated')).check();
    await page.locator(tid('start-ai')).click();
    await page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
    const id = new URL(page.url()).pathname.split('/').pop();
    const token = await page.evaluate((gid) => JSON.parse(localStorage.getItem('punct:games'))[gid].token, id);
    let g = await api.game(id);
    assert.equal(g.rated, true);
    assert.ok(g.black_user, 'the level is an account');
    g = await api.move(id, token, g.legal_moves[0]);
    await api.waitFor(id, (s) => s.ply >= 2, { timeoutMs: T.ai, what: 'the AI\'s reply' });
    await api.req('POST', `/api/games/${id}/resign`, { token });
    await page.locator(`${tid('result-rating')}:not([hidden])`).waitFor({ timeout: 20000 });
    assert.match(await text(page, 'rating-white'), /^White \d+\??\s?\(−\d+\)$/);
    assert.match(await text(page, 'rating-black'), /^Black \d+\??\s?\(\+\d+\)$/);
    // The level's account (docs/API.md: level1 … level4), linked from the game's players.
    const level = `level${g.ai.level}`;
    assert.equal(await page.locator(tid('profile-link-black')).getAttribute('href'), `/@/${level}`);
    await page.goto(`${url}/@/${level}`);
    await page.locator(`${tid('profile')}[data-status="ready"] ${tid('profile-bot')}`).waitFor();
    await page.locator(`${tid('rating-chart')}[data-status="ready"]`).waitFor();
  });
});

test('the leaderboard: a tab per category, its table or its empty state', { timeout: 60000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { url } = env.server;
    const page = await open('leaderboard');
    await page.goto(`${url}/`);
    await page.locator(tid('nav-leaderboard')).click();
    await page.waitForURL(/\/leaderboard$/);
    await page.locator(`${tid('leaderboard')}:not([data-status="loading"])`).waitFor();
    assert.equal(await page.locator(tid('nav-leaderboard')).getAttribute('aria-current'), 'page');
    assert.equal(await page.locator(`${tid('leaderboard-tabs')} a`).count(), 5);
    // Nobody plays by correspondence here: the empty state.
    await page.locator(tid('leaderboard-tab-correspondence')).click();
    await page.waitForURL(/\/leaderboard\/correspondence$/);
    await page.locator(`${tid('leaderboard')}[data-status="empty"]`).waitFor();
    assert.equal(await page.locator(tid('leaderboard-tab-correspondence')).getAttribute('aria-current'), 'page');
    assert.equal(await text(page, 'leaderboard-empty'), await en('leaderboard.empty', { category: await en('rating.category.correspondence') }));
    await shot(page, PREFIX, 'leaderboard-empty-1366');
    const phone = await open('leaderboard-phone', PHONE);
    await phone.goto(`${url}/leaderboard/bullet`);
    await phone.locator(`${tid('leaderboard')}:not([data-status="loading"])`).waitFor();
    assert.equal(await overflow(phone), 0, 'the phone does not scroll sideways');
    await shot(phone, PREFIX, 'leaderboard-phone');
  });
});

test('axe finds no serious or critical violation on the account screens, in every language', { timeout: 120000 }, async (t) => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { url } = env.server;
    const page = await open('axe');
    await signUp(page, 'Fay');
    await page.locator(tid('nav-user')).click(); // the menu open, too
    const screens = [
      ['signin-signed-in', '/signin', tid('signed-in-already')],
      ['account', '/account', tid('session-list')],
      ['profile', '/@/Fay', `${tid('profile')}[data-status="ready"]`],
      ['leaderboard', '/leaderboard', `${tid('leaderboard')}:not([data-status="loading"])`],
    ];
    const out = await open('axe-out');
    const signedOut = [
      ['signin', '/signin', tid('passkey-unavailable')],
      ['signup', '/signup', tid('passkey-unavailable')],
      ['account-out', '/account', tid('account-signed-out')],
    ];
    // By name (http://localhost:PORT): passkeys offered, and an account with two.
    const { siteUrl } = env.server;
    const keys = await open('axe-passkeys');
    const device = await addDevice(keys);
    await signUpWithPasskey(keys, siteUrl, 'Gil');
    await keys.goto(`${siteUrl}/account`);
    await swapDevice(keys, device);
    await addPasskeyHere(keys, 'Phone', 2);
    const withPasskeys = [['account-passkeys', '/account', `${tid('passkey-list')}[data-count="2"]`]];
    const keysOut = await open('axe-passkeys-out');
    const offered = [
      ['signin-passkey', '/signin', tid('signin-passkey')],
      ['signup-passkey', '/signup', tid('signup-passkey')],
    ];
    const failures = [];
    for (const lang of LANGS) {
      for (const [p, base, list] of [[page, url, screens], [out, url, signedOut], [keys, siteUrl, withPasskeys], [keysOut, siteUrl, offered]]) {
        for (const [name, path, ready] of list) {
          await p.goto(`${base}${path}?lang=${lang}`);
          await p.locator(ready).first().waitFor();
          await p.waitForFunction((l) => document.documentElement.lang === l, lang);
          if (name === 'signup') {
            // With errors shown beside the fields.
            allowRefusedRequest(p, 422, `${url}/api/account/signup`, 'a name the server refuses, on purpose');
            await submit(p, 'signup', '-', 'short');
            await p.locator(`${tid('signup-name-error')}:not(:empty)`).waitFor();
          }
          if (name === 'account') await p.locator(tid('nav-user')).click();
          const bad = serious(await axeViolations(p));
          t.diagnostic(`${lang} ${name}: ${bad.length} serious/critical`);
          if (bad.length) {
            failures.push(`${lang} ${name}:\n  ${describeViolations(bad)}`);
            await shot(p, PREFIX, `axe-${lang}-${name}`);
          }
        }
      }
    }
    assert.equal(failures.length, 0, `axe violations:\n${failures.join('\n')}`);
  });
});

test('a request with the session cookie from another origin, or without an Origin, is refused', { timeout: 30000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { url } = env.server;
    const page = await open('gus');
    await signUp(page, 'Gus');
    const cookies = await page.context().cookies(url);
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const post = (headers) => fetch(`${url}/api/account/signout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...headers },
      body: '{}',
      signal: AbortSignal.timeout(15000),
    });
    let res = await post({ origin: 'http://evil.example' });
    assert.equal(res.status, 403, 'another origin is refused');
    assert.equal((await res.json()).error.code, 'cross_origin');
    res = await post({});
    assert.equal(res.status, 403, 'no Origin is refused');
    // The session is still there.
    await page.reload();
    await waitSignedIn(page, 'Gus');
  });
});
