// Keyboard-only steps shared by the tests that use no pointer: Tab to a
// control, choose in a <select> with the arrows, walk the board's cursor
// (kbd.js) with the arrow keys, turn the selected piece, and read what the
// live regions said (announce.js: `announcer` logs the moves,
// `cursor-info` says the cursor's cell).
import { T } from './browser.mjs';

const tid = (id) => `[data-testid="${id}"]`;

/** Presses Tab until the focus is on `selector` (at most `max` presses); answers the presses. */
export async function tabTo(page, selector, max = 80) {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => !!document.activeElement?.matches(s), selector)) return i;
  }
  throw new Error(`${page.label}: ${max} presses of Tab never reached ${selector}`);
}

/** Chooses `value` in the focused <select> with the arrow keys. */
export async function chooseByKeys(page, value) {
  for (let i = 0; i < 10; i++) {
    const [now, want] = await page.evaluate((v) => {
      const el = document.activeElement;
      return [el.selectedIndex, [...el.options].findIndex((o) => o.value === v)];
    }, value);
    if (want < 0) throw new Error(`${page.label}: the select has no option ${value}`);
    if (now === want) return;
    await page.keyboard.press(want > now ? 'ArrowDown' : 'ArrowUp');
  }
  throw new Error(`${page.label}: the select never showed ${value}`);
}

/** The cursor's cell on the board. */
export const cursorOf = (page) => page.locator(tid('board')).getAttribute('data-cursor');

/**
 * Walks the board's cursor to `target` with the arrow keys: ↑ ↓ along the
 * column, ← → along the row, Shift+← → along the diagonal (a monotone
 * path, so it stays on the board). `geo`: lib/rules.mjs Geometry.
 * Answers the keys pressed.
 */
export async function cursorTo(page, geo, target) {
  let presses = 0;
  for (;;) {
    const at = await cursorOf(page);
    if (at === target) return presses;
    if (presses > 40) throw new Error(`${page.label}: the cursor is on ${at} after ${presses} keys, not ${target}`);
    const a = geo.cells.get(at);
    const b = geo.cells.get(target);
    const dc = b.col - a.col;
    const dr = b.row - a.row;
    let key;
    if (dc > 0 && dr > 0) key = 'Shift+ArrowRight';
    else if (dc < 0 && dr < 0) key = 'Shift+ArrowLeft';
    else if (dr !== 0) key = dr > 0 ? 'ArrowUp' : 'ArrowDown';
    else key = dc > 0 ? 'ArrowRight' : 'ArrowLeft';
    await page.keyboard.press(key);
    presses++;
  }
}

/** The number in the rotation display. */
export async function rotationShown(page) {
  const m = ((await page.locator(tid('rotation')).textContent()) || '').match(/\d/);
  return m ? Number(m[0]) : NaN;
}

/** Turns the selected piece with `key` (`]`, R) until the display reads `r`. */
export async function turnTo(page, r, key = ']') {
  for (let i = 0; i < 7; i++) {
    if (await rotationShown(page) === r) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${page.label}: the rotation shows ${await rotationShown(page)}, wanted ${r}`);
}

/** The live region's entries (the moves said). */
export const said = (page) => page.locator(tid('announcer')).evaluate((el) => [...el.children].map((p) => p.textContent));

/** Waits until the live region has said `text` (a string: exactly one entry; a RegExp: any entry matching). */
export async function waitSaid(page, text) {
  try {
    await page.waitForFunction((want) => {
      const el = document.querySelector('[data-testid="announcer"]');
      const entries = el ? [...el.children].map((p) => p.textContent) : [];
      return want.re ? entries.some((e) => new RegExp(want.re).test(e)) : entries.includes(want.text);
    }, text instanceof RegExp ? { re: text.source } : { text }, { timeout: T.move, polling: 50 });
  } catch {
    throw new Error(`${page.label}: the live region never said ${text}; it said ${JSON.stringify(await said(page))}`);
  }
}

/** Counts every pointerdown on the page from now on (window.__clicks): a keyboard-only test checks it stays 0. */
export async function countPointers(page) {
  await page.evaluate(() => {
    window.__clicks = 0;
    document.addEventListener('pointerdown', () => { window.__clicks++; }, true);
  });
}
