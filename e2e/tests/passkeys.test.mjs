// Passkeys in the page, answered by Chromium's virtual authenticators
// (lib/passkeys.mjs: real keys and signatures, no person to touch them),
// on the page opened as the server prints it, http://localhost:PORT:
// signing up with a user name and a passkey (no password), signing out
// and in again with the passkey and no name typed, the same account;
// on the account screen the list of passkeys (label, added, last used),
// a device that holds one already refused in words, a second passkey
// added from another device, one removed, the last refused with its
// reason; the removed passkey signs in no more, a cancelled passkey is
// said calmly; a passkey-only account deleted, confirmed by its passkey;
// the same page reached by http://127.0.0.1:PORT offers no passkey but
// says why (in the four languages), and a browser without WebAuthn says
// so; the sign-in and account screens at 1366 × 768 and 390 × 844.
// (axe on these screens in the four languages: accounts.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, newPage, shot, withArtifacts, tid, allowRefusedRequest } from '../lib/browser.mjs';
import { loadCatalogues, tr, isText } from '../lib/i18n.mjs';
import { DESKTOP, PHONE, overflow } from '../lib/learn.mjs';
import { addDevice, passkeysOn, swapDevice, setVerified, signUpWithPasskey, addPasskeyHere } from '../lib/passkeys.mjs';

const PREFIX = 'passkeys';
// Sign-ups and sign-ins come from one address: the per-client limit off.
const env = serverAndBrowser({ args: ['--rate-account', 'off'] });
const pages = [];
const LANGS = ['en', 'de', 'ja', 'sk'];

let cats = null;
const catalogues = async () => (cats ??= await loadCatalogues(env.server.url));
const en = async (key, params = {}) => tr(await catalogues(), 'en', key, params);

async function open(label, options = DESKTOP) {
  const page = await newPage(env.browser, label, options);
  pages.push(page);
  return page;
}

const text = async (page, testid) => ((await page.locator(tid(testid)).first().textContent()) || '').trim();

/** Waits until `testid` says the English text of `key` (with `params`). */
async function says(page, testid, key, params = {}) {
  const want = await en(key, params);
  await page.locator(`${tid(testid)}:text-is("${want.replace(/"/g, '\\"')}")`).waitFor();
}

async function waitSignedIn(page, name) {
  await page.locator(`${tid('nav-user')}[data-user="${name}"]`).waitFor();
}

/** The server's id of a device's passkey (the DevTools protocol gives base64, the API base64url). */
const apiId = (credential) => credential.credentialId.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Clicks "Sign in with a passkey" on the sign-in screen at `base`; answers the finish's response. */
async function passkeySignIn(page, base) {
  await page.goto(`${base}/signin`);
  assert.equal(await page.locator(tid('signin-name')).inputValue(), '', 'no name typed');
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/account/passkey/signin/finish'));
  await page.locator(tid('signin-passkey')).click();
  return answer;
}

test('sign up with a name and a passkey, sign out, sign in with the passkey and no name: the same account', { timeout: 60000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { siteUrl } = env.server;
    assert.equal(new URL(siteUrl).hostname, 'localhost', `the server prints its address by name: ${siteUrl}`);
    const page = await open('pia');
    const device = await addDevice(page);
    await page.goto(`${siteUrl}/signup`);
    assert.equal(await page.locator(tid('passkey-unavailable')).count(), 0, 'passkeys are offered on localhost');
    // The passkey needs the name typed first.
    await page.locator(tid('signup-passkey')).click();
    await says(page, 'signup-name-error', 'account.name.empty');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'signup-name');
    assert.equal((await passkeysOn(device)).length, 0, 'no passkey made without a name');

    await signUpWithPasskey(page, siteUrl, 'Pia');
    assert.equal(new URL(page.url()).pathname, '/', 'home after signing up');
    const held = await passkeysOn(device);
    assert.equal(held.length, 1, 'the device holds the new passkey');
    assert.equal(held[0].rpId, 'localhost');
    assert.equal(held[0].isResidentCredential, true, 'a discoverable passkey');

    // The account: no password, its passkey listed (named after this browser, never used yet).
    await page.goto(`${siteUrl}/account`);
    await page.locator(`${tid('passkey-list')}[data-count="1"]`).waitFor();
    assert.equal(await page.locator(`${tid('passkey-item')}`).getAttribute('data-id'), apiId(held[0]));
    const ua = await page.evaluate(() => navigator.userAgent);
    if (/Chrome\//.test(ua) && /Linux/.test(ua) && !/Android/.test(ua)) {
      assert.equal(await text(page, 'passkey-name'), 'Chrome on Linux', 'named after the browser it was made in');
    }
    assert.ok(isText(await catalogues(), 'en', 'passkey.times.unused', await page.locator(`${tid('passkey-item')} .passkey-times`).textContent()));
    assert.equal(await page.locator('#password-title').textContent(), await en('account.password.first_title'), 'a first password may be set');
    assert.equal(await page.locator(tid('password-current')).count(), 0, 'no current password asked');
    assert.equal(await page.locator(tid('delete-password')).count(), 0);
    await says(page, 'delete-by-passkey', 'account.delete.with_passkey');

    // Signed out, then in again with the passkey alone.
    await page.locator(tid('account-signout')).click();
    await page.locator(tid('account-signed-out')).waitFor();
    const res = await passkeySignIn(page, siteUrl);
    assert.equal(res.status(), 200);
    assert.equal((await res.json()).user.name, 'Pia');
    await waitSignedIn(page, 'Pia');
    assert.equal(new URL(page.url()).pathname, '/');
    await page.goto(`${siteUrl}/account`);
    await page.locator(`${tid('passkey-list')}[data-count="1"]`).waitFor();
    assert.equal(await text(page, 'account-name'), 'Pia');
    assert.ok(isText(await catalogues(), 'en', 'passkey.times.used', await page.locator(`${tid('passkey-item')} .passkey-times`).textContent()), 'its last use shown');
  });
});

test('passkeys added and removed, never the last way in; a removed passkey signs in no more; a cancelled one said calmly', { timeout: 90000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { siteUrl } = env.server;
    const page = await open('quinn');
    const laptop = await addDevice(page);
    await signUpWithPasskey(page, siteUrl, 'Quinn');
    const [first] = await passkeysOn(laptop);
    await page.goto(`${siteUrl}/account`);
    await page.locator(`${tid('passkey-list')}[data-count="1"]`).waitFor();

    // The same device again: it holds this account's passkey already (the options exclude it).
    await page.locator(tid('passkey-add')).click();
    await says(page, 'passkeys-status', 'error.passkey_exists');
    assert.equal(await page.locator(`${tid('passkey-list')}[data-count="1"]`).count(), 1);

    // Another device (one at a time in this tab): a second passkey, named.
    let phone = await swapDevice(page, laptop);
    await addPasskeyHere(page, 'Phone', 2);
    await says(page, 'passkeys-status', 'passkey.added', { name: 'Phone' });
    const [second] = await passkeysOn(phone);
    const item = (credential) => page.locator(`${tid('passkey-item')}[data-id="${apiId(credential)}"]`);
    assert.equal(await item(second).locator(tid('passkey-name')).textContent(), 'Phone');
    assert.equal(await item(first).count(), 1);
    await shot(page, PREFIX, 'account-two-passkeys');

    // The first removed; the last is refused, in words.
    const firstName = await item(first).locator(tid('passkey-name')).textContent();
    await item(first).locator(tid('passkey-remove')).click();
    await page.locator(`${tid('passkey-list')}[data-count="1"]`).waitFor();
    await says(page, 'passkeys-status', 'passkey.removed', { name: firstName });
    assert.equal(await item(first).count(), 0);
    allowRefusedRequest(page, 409, `${siteUrl}/api/account/passkey/remove`, 'removing the last way to sign in, on purpose');
    await item(second).locator(tid('passkey-remove')).click();
    await says(page, 'passkeys-status', 'error.last_sign_in');
    assert.equal(await page.locator(`${tid('passkey-list')}[data-count="1"]`).count(), 1, 'the last passkey stays');
    assert.equal(await item(second).locator(tid('passkey-remove')).isDisabled(), false);

    // Signed out: the removed passkey (the laptop again) is refused in words.
    await page.locator(tid('account-signout')).click();
    await page.locator(tid('account-signed-out')).waitFor();
    const laptopAgain = await swapDevice(page, phone, [first]);
    allowRefusedRequest(page, 401, `${siteUrl}/api/account/passkey/signin/finish`, 'a removed passkey, on purpose');
    let res = await passkeySignIn(page, siteUrl);
    assert.equal(res.status(), 401);
    assert.equal((await res.json()).error.code, 'passkey_unknown');
    await says(page, 'passkey-message', 'error.passkey_unknown');
    assert.equal(await page.locator(tid('passkey-message')).getAttribute('data-kind'), 'error');

    // A person who cancels (the device's check fails): said calmly, nothing sent.
    await setVerified(laptopAgain, false);
    await page.locator(tid('signin-passkey')).click();
    await says(page, 'passkey-message', 'error.passkey_cancelled');
    assert.equal(await page.locator(tid('passkey-message')).getAttribute('data-kind'), 'info', 'not an error');
    assert.equal(await page.locator(tid('signin-passkey')).isDisabled(), false, 'it may be tried again');

    // The phone's passkey signs in.
    phone = await swapDevice(page, laptopAgain, [second]);
    res = await passkeySignIn(page, siteUrl);
    assert.equal(res.status(), 200);
    await waitSignedIn(page, 'Quinn');
  });
});

test('a passkey-only account is deleted, confirmed by its passkey', { timeout: 60000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { siteUrl } = env.server;
    const page = await open('rue');
    await addDevice(page);
    await signUpWithPasskey(page, siteUrl, 'Rue');
    await page.goto(`${siteUrl}/account`);
    const remove = page.locator(tid('delete-submit'));
    await remove.waitFor();
    assert.equal(await remove.isDisabled(), true);
    await page.locator(tid('delete-confirm')).fill('Rue');
    assert.equal(await remove.isDisabled(), false, 'the name typed is enough: the passkey confirms');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/account/delete'));
    await remove.click();
    assert.equal((await answer).status(), 200);
    await says(page, 'account-notice', 'account.delete.done', { name: 'Rue' });
    await page.locator(tid('nav-signin')).waitFor();
    await page.goto(`${siteUrl}/@/Rue`);
    await page.locator(`${tid('profile')}[data-status="ready"] ${tid('profile-deleted')}`).waitFor();
  });
});

test('reached by 127.0.0.1 the page offers no passkey and says why; a browser without WebAuthn says so', { timeout: 60000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { url, siteUrl } = env.server;
    const c = await catalogues();
    const page = await open('by-ip');
    for (const lang of LANGS) {
      await page.goto(`${url}/signin?lang=${lang}`);
      const why = page.locator(tid('passkey-unavailable'));
      await why.waitFor();
      assert.equal(await page.locator(tid('signin-passkey')).count(), 0, `${lang}: no passkey button`);
      assert.equal(await why.getAttribute('data-code'), 'passkeys_need_host_name');
      const href = await why.locator(tid('passkey-localhost')).getAttribute('href');
      assert.equal(href, `${siteUrl}/signin?lang=${lang}`, 'a link to the same screen by name');
      assert.equal((await why.textContent()).trim(), tr(c, lang, 'passkey.site.ip_local', { link: href }), `${lang}: the reason in the page's language`);
    }
    // The link opens the screen by name, where passkeys are offered.
    await page.locator(tid('passkey-localhost')).click();
    await page.waitForURL(`${siteUrl}/signin?lang=sk`);
    await page.locator(tid('signin-passkey')).waitFor();
    await page.goto(`${url}/signup`);
    await page.locator(tid('passkey-unavailable')).waitFor();
    assert.equal(await page.locator(tid('signup-passkey')).count(), 0);
    await shot(page, PREFIX, 'signup-by-ip');
    // Signed in with a password here: the account lists no passkeys and offers none, saying why.
    await page.locator(tid('signup-name')).fill('Sam');
    await page.locator(tid('signup-password')).fill('plum orbit lantern 42');
    await page.locator(tid('signup-submit')).click();
    await waitSignedIn(page, 'Sam');
    await page.goto(`${url}/account`);
    await page.locator(`${tid('account-passkeys')} ${tid('passkeys-empty')}`).waitFor();
    assert.equal(await page.locator(`${tid('account-passkeys')} ${tid('passkey-unavailable')}`).count(), 1);
    assert.equal(await page.locator(tid('passkey-add')).count(), 0);
    assert.equal(await page.locator('#password-title').textContent(), await en('account.password.title'));

    // A browser without WebAuthn.
    const old = await open('no-webauthn');
    await old.context().addInitScript(() => { delete window.PublicKeyCredential; });
    await old.goto(`${siteUrl}/signin`);
    const why = old.locator(tid('passkey-unavailable'));
    await why.waitFor();
    assert.equal(await why.getAttribute('data-code'), 'no_webauthn');
    assert.equal((await why.textContent()).trim(), await en('error.passkey_unsupported'));
    assert.equal(await old.locator(tid('signin-passkey')).count(), 0);
  });
});

test('the sign-in screen and the account with two passkeys at 1366 × 768 and 390 × 844', { timeout: 90000 }, async () => {
  await withArtifacts(PREFIX, () => pages, async () => {
    const { siteUrl } = env.server;
    const desk = await open('tess-desktop', DESKTOP);
    const laptop = await addDevice(desk);
    await signUpWithPasskey(desk, siteUrl, 'Tess');
    const [first] = await passkeysOn(laptop);
    await desk.goto(`${siteUrl}/account`);
    await swapDevice(desk, laptop);
    await addPasskeyHere(desk, 'Security key', 2);
    // The same passkey in a phone's browser (a synced passkey) signs in there.
    const phone = await open('tess-phone', PHONE);
    await addDevice(phone).then((d) => swapDevice(phone, d, [first]));
    for (const [page, size] of [[desk, '1366'], [phone, 'phone']]) {
      const out = await open(`signin-${size}`, size === 'phone' ? PHONE : DESKTOP);
      await out.goto(`${siteUrl}/signin`);
      await out.locator(tid('signin-passkey')).waitFor();
      assert.equal(await overflow(out), 0, `${size}: the sign-in screen does not scroll sideways`);
      await shot(out, PREFIX, `signin-${size}`);
      if (page === phone) {
        const res = await passkeySignIn(phone, siteUrl);
        assert.equal(res.status(), 200);
        await waitSignedIn(phone, 'Tess');
      }
      await page.goto(`${siteUrl}/account`);
      await page.locator(`${tid('passkey-list')}[data-count="2"]`).waitFor();
      assert.equal(await overflow(page), 0, `${size}: the account screen does not scroll sideways`);
      for (const button of await page.locator(tid('passkey-remove')).all()) {
        const box = await button.boundingBox();
        const width = page.viewportSize().width;
        assert.ok(box && box.x >= 0 && box.x + box.width <= width, `${size}: the remove button is on screen`);
      }
      await shot(page, PREFIX, `account-passkeys-${size}`);
    }
  });
});
