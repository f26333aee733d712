// Passkeys for the browser tests: Chromium's virtual authenticators
// (the DevTools protocol's WebAuthn domain), each a device that makes and
// uses real passkeys (keys, signatures, user verification) with no
// person to touch it; and the page's passkey sign-up. A page that uses
// passkeys must be opened by the site's name (`server.siteUrl`,
// http://localhost:PORT), never by an IP address.
import { tid } from './browser.mjs';

/**
 * A virtual authenticator on `page`'s tab: a platform authenticator
 * (resident keys, user verification that passes) that answers at once.
 * Answers {cdp, id}.
 */
export async function addDevice(page) {
  const cdp = page.passkeyCdp ?? (page.passkeyCdp = await page.context().newCDPSession(page));
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

/** The passkeys `device` holds (the DevTools protocol's credentials, private keys included). */
export async function passkeysOn(device) {
  return (await device.cdp.send('WebAuthn.getCredentials', { authenticatorId: device.id })).credentials;
}

/** Takes `device` away from the tab (its passkeys with it). */
export async function removeDevice(device) {
  await device.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: device.id });
}

/**
 * Another device in place of `device`: `device` is taken away and a new
 * one added (one device at a time, so the browser asks no one which).
 * With `keep`, the new device holds those passkeys (from `passkeysOn`).
 */
export async function swapDevice(page, device, keep = []) {
  await removeDevice(device);
  const next = await addDevice(page);
  for (const credential of keep) {
    await next.cdp.send('WebAuthn.addCredential', { authenticatorId: next.id, credential });
  }
  return next;
}

/** Whether the device's user verification passes (false: as a person who cancels). */
export async function setVerified(device, yes) {
  await device.cdp.send('WebAuthn.setUserVerified', { authenticatorId: device.id, isUserVerified: yes });
}

/**
 * Signs up as `name` with a passkey on the page's device, through the
 * sign-up screen at `siteUrl` (the name typed, no password); waits until
 * the header shows the name.
 */
export async function signUpWithPasskey(page, siteUrl, name) {
  await page.goto(`${siteUrl}/signup`);
  await page.locator(tid('signup-name')).fill(name);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/account/passkey/signup/finish'));
  await page.locator(tid('signup-passkey')).click();
  const res = await answer;
  if (res.status() !== 201) throw new Error(`${page.label}: signing up ${name} with a passkey answered ${res.status()}: ${await res.text()}`);
  await page.locator(`${tid('nav-user')}[data-user="${name}"]`).waitFor();
}

/**
 * Adds a passkey called `label` to the signed-in account on the account
 * screen (open), from the device the page has now; waits until the list
 * has `count` passkeys.
 */
export async function addPasskeyHere(page, label, count) {
  if (label) await page.locator(tid('passkey-label')).fill(label);
  await page.locator(tid('passkey-add')).click();
  await page.locator(`${tid('passkey-list')}[data-count="${count}"]`).waitFor();
}
