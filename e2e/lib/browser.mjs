// The browser side: Debian's Chromium driven by playwright-core, and the
// page's test contract (data-testid names, see README.md) wrapped in helpers.
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';
import { mkdirSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { E2E_DIR, startServer } from './server.mjs';
import { parseMove } from './rules.mjs';

export const ARTIFACTS = path.join(E2E_DIR, 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** Timeouts (ms): one UI step, a move to show up, the AI to answer. */
export const T = { step: 5000, move: 10000, ai: 15000 };

export function chromiumPath() {
  return process.env.PUNCT_CHROMIUM || '/usr/bin/chromium';
}

/**
 * Debian's Chromium started headless. A start that fails is tried once
 * more: on the 2-core CI machine Chromium has, rarely, died of SIGSEGV
 * while starting, before any page existed (no test had run yet, so
 * nothing is hidden); a second failure fails the test file.
 */
export async function launchBrowser() {
  const launch = () =>
    chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      timeout: 30000,
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    });
  try {
    return await launch();
  } catch (e) {
    process.stderr.write(`Chromium did not start (${String(e.message).split('\n')[0]}); trying once more\n`);
    return launch();
  }
}

/**
 * The test file's server (fresh data directory) and browser: started
 * before its tests, stopped after them. Read `env.server` and
 * `env.browser` inside the tests.
 */
export function serverAndBrowser(serverOptions = {}) {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer(serverOptions);
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/** Every page `newPage` (or `watchPage`) opened in this test file: `withArtifacts` checks them all. */
const watched = [];

/**
 * Records what page `page` reports that must fail a test: uncaught
 * exceptions (`pageerror`), `console.error` messages (the browser's own
 * included, such as a resource that failed to load) and, across
 * navigations and reloads, Content-Security-Policy violations (the
 * context's init script set up by `newPage`). `withArtifacts` fails the
 * test with them.
 */
export function watchPage(page, label) {
  page.label = label;
  page.problems = [];
  page.cspViolations = page.cspViolations || [];
  page.allowedProblems = [];
  page.seen = { problems: 0, csp: 0 };
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const loc = m.location();
    const where = loc && loc.url ? ` (${loc.url}${loc.lineNumber ? `:${loc.lineNumber}` : ''})` : '';
    page.problems.push(`console.error: ${m.text()}${where}`);
  });
  watched.push(page);
  return page;
}

/**
 * A context with a page whose console errors, uncaught exceptions and
 * Content-Security-Policy violations fail the test (`withArtifacts`; they
 * are also written next to the screenshots).
 * `contextOptions` replace the desktop defaults (a phone's viewport, touch).
 */
export async function newPage(browser, label, contextOptions = {}) {
  // Service workers only where a test asks for them (the PWA's): each
  // would fetch the whole release into its cache, in every context.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, serviceWorkers: 'block', ...contextOptions });
  context.setDefaultTimeout(T.step);
  // Every Content-Security-Policy violation, across navigations and reloads.
  const csp = [];
  await context.exposeBinding('__punctCspViolation', (source, text) => { csp.push(text); });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__punctCspViolation(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile || '?'}:${e.lineNumber}`);
    });
  });
  const page = await context.newPage();
  page.cspViolations = csp;
  return watchPage(page, label);
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Lets `page` log one kind of console error without failing the test:
 * Chromium's "Failed to load resource" line for a request to exactly
 * `url` that the server answers with HTTP `status` — only for a request
 * the test provokes on purpose and the server is meant to refuse (the
 * page then says why). `why` says which. Every other console error still
 * fails; the allowed lines are still written to the console artifact.
 */
export function allowRefusedRequest(page, status, url, why) {
  if (!why) throw new Error('allowRefusedRequest wants the reason');
  const pattern = new RegExp(`^console\\.error: Failed to load resource: the server responded with a status of ${status} \\([^)]*\\) \\(${escapeRe(url)}\\)$`);
  page.allowedProblems.push({ pattern, why });
}

/**
 * Lets `page` log Chromium's lines for requests that fail because the test
 * took the network away (`context.setOffline(true)`): the page's own
 * requests to the server (its account, lists, live sockets) then fail as
 * they would on a train. `why` says which test does so. Page exceptions
 * and every other console error still fail.
 */
export function allowOffline(page, why) {
  if (!why) throw new Error('allowOffline wants the reason');
  page.allowedProblems.push({ pattern: /^console\.error: .*net::ERR_INTERNET_DISCONNECTED/, why });
}

/**
 * The problems page `p` reported since the last call (page exceptions,
 * console errors other than the allowed ones, CSP violations), marked as
 * seen, so each fails one test only.
 */
export function takeProblems(p) {
  const errors = p.problems.slice(p.seen.problems)
    .filter((x) => !p.allowedProblems.some((a) => a.pattern.test(x)));
  const csp = p.cspViolations.slice(p.seen.csp).map((v) => `Content-Security-Policy violation: ${v}`);
  p.seen = { problems: p.problems.length, csp: p.cspViolations.length };
  return [...errors, ...csp];
}

let shotCount = 0;
/** Saves a screenshot to e2e/artifacts/<prefix>-NN-<name>.png (never throws). */
export async function shot(page, prefix, name) {
  const file = path.join(ARTIFACTS, `${prefix}-${String(++shotCount).padStart(2, '0')}-${name}.png`.replace(/[^\w.-]+/g, '_'));
  try {
    await page.screenshot({ path: file, fullPage: true, timeout: 5000 });
  } catch (e) {
    // a closed or crashed page has no screenshot; the failure says why
  }
  return file;
}

/**
 * Runs `fn`, then fails when any page of this test file reported a
 * problem meanwhile (`takeProblems`: an uncaught exception, a console
 * error, a Content-Security-Policy violation). On any failure saves a
 * screenshot and the HTML of every page of `pages()` under
 * `prefix-FAIL-…`, then rethrows. The pages' console problems go to
 * `prefix-console.txt` either way.
 */
export async function withArtifacts(prefix, pages, fn) {
  const firstProblem = new Map(watched.map((p) => [p, p.problems.length]));
  try {
    const result = await fn();
    // The page must work under the server's Content-Security-Policy, and
    // without an uncaught exception or a console error.
    const found = watched.flatMap((p) => takeProblems(p).map((x) => `${p.label}: ${x}`));
    if (found.length) throw new Error(`the pages reported ${found.length} problem(s):\n${found.join('\n')}`);
    return result;
  } catch (e) {
    // A failure of the test's own: the problems the pages reported meanwhile may say why.
    const pending = watched.flatMap((p) => takeProblems(p).map((x) => `${p.label}: ${x}`));
    if (pending.length && e instanceof Error) e.message += `\nthe pages also reported:\n${pending.join('\n')}`;
    for (const p of pages()) {
      await shot(p, prefix, `FAIL-${p.label || 'page'}`);
      try {
        const html = await p.content();
        writeFileSync(path.join(ARTIFACTS, `${prefix}-FAIL-${p.label || 'page'}.html`), html);
      } catch {}
    }
    throw e;
  } finally {
    const lines = watched.flatMap((p) => p.problems.slice(firstProblem.get(p) ?? 0).map((x) => `${p.label}: ${x}`));
    if (lines.length) appendFileSync(path.join(ARTIFACTS, `${prefix}-console.txt`), lines.join('\n') + '\n');
  }
}

export const tid = (id) => `[data-testid="${id}"]`;

/** The board: the contract's [data-testid=board]. */
export const BOARD = '[data-testid="board"]';

/** Test ids the contract promises on the game screen (some appear only when relevant). */
const GAME_IDS = ['game', 'board', 'rotate', 'rotation', 'message', 'move-input', 'move-list', 'status',
  'result-banner', 'takeback', 'resign', 'offer-draw', 'download-record', 'replay-slider', 'replay-prev',
  'replay-next', 'analyse', 'analysis', 'eval-graph', 'stack-view', 'accept-draw', 'decline-draw',
  'accept-takeback', 'decline-takeback', 'pass',
  ...['white', 'black'].flatMap((s) => ['T', 'C', 'E', 'L', 'M', 'R'].map((k) => `reserve-${s}-${k}`))];

/**
 * Fails unless the game page has every contract test id (in the DOM at
 * all, shown or not) and the game root's data attributes.
 */
export async function checkGameContract(page) {
  const missing = [];
  for (const id of GAME_IDS) if ((await page.locator(tid(id)).count()) === 0) missing.push(id);
  const root = await page.locator(tid('game')).evaluate((el) => Object.keys(el.dataset));
  const attrs = ['ply', 'version', 'toMove', 'status'].filter((a) => !root.includes(a));
  const wrong = [];
  if (missing.length) wrong.push(`the game screen lacks [data-testid] ${missing.join(', ')}`);
  if (attrs.length) wrong.push(`the game root lacks the data attributes ${attrs.map((a) => `data-${a.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')}`);
  if (wrong.length) throw new Error(`${page.label}: ${wrong.join('; ')}`);
}

/** The game root's data attributes. */
export async function gameAttrs(page) {
  return page.locator(tid('game')).evaluate((el) => ({
    ply: Number(el.dataset.ply),
    version: Number(el.dataset.version),
    toMove: el.dataset.toMove,
    status: el.dataset.status,
  }));
}

export async function waitGameAttr(page, pred, arg, { timeout = T.move, what = 'game state' } = {}) {
  try {
    await page.waitForFunction(pred, arg, { timeout, polling: 50 });
  } catch (e) {
    let now = '(no game root)';
    try { now = JSON.stringify(await gameAttrs(page)); } catch {}
    throw new Error(`${page.label || 'page'}: timed out after ${timeout} ms waiting for ${what}; page shows ${now}`);
  }
}

/** Waits until the page's data-ply is n. */
export function waitPly(page, n, opts = {}) {
  return waitGameAttr(page, (n) => Number(document.querySelector('[data-testid="game"]')?.dataset.ply) === n, n, { what: `data-ply=${n}`, ...opts });
}

/**
 * Waits until the page shows exactly the server's state (ply and version).
 * The game may move on meanwhile (the AI answers at once): then the newer
 * state is the one to be in sync with.
 */
export async function waitInSync(page, api, id, opts = {}) {
  const deadline = Date.now() + (opts.timeout ?? T.move);
  for (;;) {
    const g = await api.game(id);
    await waitGameAttr(page, ([p, v]) => {
      const el = document.querySelector('[data-testid="game"]');
      if (!el) return false;
      const shown = Number(el.dataset.version);
      return shown > v || (shown === v && Number(el.dataset.ply) === p);
    }, [g.ply, g.version], { what: `data-ply=${g.ply} data-version=${g.version}`, ...opts, timeout: Math.max(1, deadline - Date.now()) });
    const shown = await gameAttrs(page);
    if (Number(shown.version) === g.version) return g;
  }
}

/** Parses /game/{id}#token=T, /game/{id}#invite=C and the old /game/{id}?token=T. */
export function gameUrlParts(url) {
  const u = new URL(url);
  const m = u.pathname.match(/^\/game\/([^/]+)$/);
  if (!m) return null;
  const fragment = new URLSearchParams(u.hash.slice(1));
  return { id: m[1], token: fragment.get('token') || u.searchParams.get('token'), invite: fragment.get('invite') };
}

/** The seat token the page keeps for game `id` in the browser's storage (null: none). */
export function storedToken(page, id) {
  return page.evaluate((id) => {
    try {
      const v = JSON.parse(localStorage.getItem('punct:games') || '{}')[id];
      return (typeof v === 'string' ? v : v && v.token) || null;
    } catch {
      return null;
    }
  }, id);
}

/**
 * Waits for the game screen; answers {id, token}: the token from the
 * browser's storage, where the page keeps it (never in the address).
 */
export async function waitGamePage(page, timeout = T.step * 2) {
  await page.waitForURL(/\/game\/[^/?#]+/, { timeout });
  await page.locator(tid('game')).waitFor({ state: 'visible', timeout });
  await page.locator(`${BOARD} [data-cell]`).first().waitFor({ state: 'attached', timeout });
  const parts = gameUrlParts(page.url());
  return { id: parts.id, token: await storedToken(page, parts.id) };
}

/**
 * Waits until the start screen's lobby has drawn its first list (the seeks
 * or the empty state) and its form is on: the lobby socket's first message
 * has come.
 */
export async function waitLobby(page) {
  await page.locator(tid('lobby')).waitFor();
  await page.waitForFunction(() => {
    const list = document.querySelector('[data-testid="lobby-seeks"]');
    const create = document.querySelector('[data-testid="seek-create"]');
    return list && list.children.length > 0 && create && !create.disabled;
  }, null, { timeout: T.step * 2 });
}

/** The seats the page says it holds (the game root's data-seats). */
export async function pageSeats(page) {
  const seats = await page.locator(tid('game')).evaluate((el) => el.dataset.seats || '');
  return seats.split(' ').filter(Boolean);
}

/**
 * Opens one of the start screen's three ways in — 'ai' (play the AI),
 * 'people' (online, the lobby, at one screen) or 'learn' — by its big
 * button, so that its settings and buttons show under it; one already
 * open stays open. `tap`: by touch.
 */
export async function openStart(page, way, { tap = false } = {}) {
  const button = page.locator(tid(`home-${way}`));
  if ((await button.getAttribute('aria-expanded')) !== 'true') await (tap ? button.tap() : button.click());
  await page.locator(tid(`home-${way}-panel`)).waitFor();
}

/**
 * From the start screen: a standard game against the AI at level 1 on the
 * server, the person playing White. Answers the game page's {id, token}.
 */
export async function startAiGame(page, url) {
  await page.goto(url + '/');
  await openStart(page, 'ai');
  await page.locator(tid('variant')).selectOption('standard');
  await page.locator(tid('ai-level')).selectOption('1');
  await page.locator(tid('ai-color')).selectOption('white');
  await page.locator(tid('start-ai-server')).click();
  return waitGamePage(page);
}

export const cellLocator = (page, cell) => page.locator(`${BOARD} [data-cell="${cell}"]`).first();

/**
 * Clicks a board cell as a person would: the cell must be shown, on
 * screen (scrolled to if need be) and itself receive the click, not a
 * piece or anything else drawn over it. A cell people cannot click fails
 * the test, with Playwright's reason.
 */
export async function clickCell(page, cell) {
  const loc = cellLocator(page, cell);
  try {
    await loc.click({ timeout: T.step });
  } catch (e) {
    // Playwright's call log says why: the last of its reasons (ANSI colours dropped)
    const log = e.message.replace(/\x1b\[\d+m/g, '').split('\n').map((l) => l.replace(/^\s*(?:\d+ × )?-?\s*/, ''));
    const why = log.filter((l) => /intercepts pointer events|is not visible|outside of the viewport|is not stable|is not enabled|detached/.test(l));
    throw new Error(`${page.label}: a person cannot click cell ${cell}: ${why.at(-1) || log[0]}`);
  }
}

export async function readRotation(page) {
  const text = (await page.locator(tid('rotation')).textContent()) || '';
  const m = text.match(/\d/);
  return m ? Number(m[0]) : NaN;
}

/** Clicks the rotate control until the rotation reads r; returns the clicks used. */
export async function setRotation(page, r) {
  let clicks = 0;
  for (;;) {
    const now = await readRotation(page);
    if (now === r) return clicks;
    if (clicks >= 7) throw new Error(`${page.label}: rotation shows ${now} after ${clicks} clicks on rotate, wanted ${r}`);
    await page.locator(tid('rotate')).click();
    clicks++;
    // the text follows the click
    await page.waitForFunction((prev) => {
      const t = document.querySelector('[data-testid="rotation"]')?.textContent || '';
      return !t.includes(String(prev));
    }, now, { timeout: T.step, polling: 20 })
      .catch(() => { throw new Error(`${page.label}: a click on rotate leaves the rotation at ${now}`); });
  }
}

/**
 * Makes `move` by clicking: ADD = reserve button, rotate, target cell;
 * MOVE = PÜNCT cell, rotate, target cell; pass = the pass button. With
 * checkLegal, first checks that the target cell is marked `legal`.
 * Returns {rotateClicks}.
 */
export async function clickMove(page, move, side, { checkLegal = false } = {}) {
  const mv = parseMove(move);
  if (mv.type === 'pass') {
    await page.locator(tid('pass')).click();
    return { rotateClicks: 0 };
  }
  if (mv.type === 'add') {
    await page.locator(tid(`reserve-${side}-${mv.kind}`)).click();
  } else {
    await clickCell(page, mv.from);
  }
  const rotateClicks = await setRotation(page, mv.rotation);
  if (checkLegal) {
    const cls = (await cellLocator(page, mv.to).getAttribute('class')) || '';
    if (!/\blegal\b/.test(cls)) throw new Error(`${page.label}: for the legal move ${move} the target cell ${mv.to} lacks class "legal" (class="${cls}")`);
  }
  await clickCell(page, mv.to);
  return { rotateClicks };
}

/**
 * Plays a game against the AI as White by clicks until it ends (at most
 * 40 moves of White's): an addition picked by `stride` through the legal
 * list each time (the first legal move when none is left), then the AI's
 * answer awaited. `read()` gives the game's state, checked after each
 * move; `afterMove(n)` runs after White's n-th. Answers the last state.
 */
export async function playOutByClicks(page, read, { stride = 97, timeout = T.ai, afterMove = async () => {} } = {}) {
  let state = await read();
  let mine = 0;
  while (state.status === 'ongoing' && mine < 40) {
    if (state.to_move !== 'white') throw new Error(`${page.label}: ply ${state.ply}: not White's turn`);
    const adds = state.legal_moves.filter((m) => m.includes('@'));
    const move = adds.length ? adds[(mine * stride) % adds.length] : state.legal_moves[0];
    const before = state.ply;
    await clickMove(page, move, 'white', { checkLegal: true });
    mine++;
    // The move, then the AI's answer (unless the move ended the game).
    await page.waitForFunction(([n]) => {
      const el = document.querySelector('[data-testid="game"]');
      return el && (Number(el.dataset.ply) >= n + 2 || el.dataset.status === 'over');
    }, [before], { timeout, polling: 100 });
    await afterMove(mine);
    state = await read();
    if (!state.moves.includes(move)) throw new Error(`${page.label}: ${move} was not played`);
  }
  return state;
}

/**
 * Shows the game screen's side tab `id` (moves, analysis, players, board:
 * tabs.js), as a player clicks it; nothing when it is shown already.
 */
export async function showTab(page, id) {
  const tab = page.locator(`[data-testid="side-tab-${id}"]`);
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  await page.locator(`[data-testid="side-panel-${id}"]:not([hidden])`).waitFor();
}

/** The page's message text (trimmed; '' when absent or empty). */
export async function messageText(page) {
  const loc = page.locator(tid('message'));
  if ((await loc.count()) === 0) return '';
  return ((await loc.first().textContent()) || '').trim();
}

/**
 * Clicks `move` for the side to move and waits until the server has it;
 * fails with the page's message when the server does not get it.
 */
export async function playByClicks(page, api, id, move, { side, checkLegal = true } = {}) {
  const before = await api.game(id);
  const who = side || before.to_move;
  const r = await clickMove(page, move, who, { checkLegal: checkLegal && before.legal_moves.includes(move) });
  try {
    await api.waitFor(id, (g) => g.ply > before.ply || g.status !== before.status, { timeoutMs: T.move, what: `move ${move} to reach the server` });
  } catch (e) {
    throw new Error(`${e.message}; page message: ${JSON.stringify(await messageText(page))}`);
  }
  return r;
}

/** Waits until the board draws exactly the pieces of `state` (cell, level, side, kind). */
export async function waitBoardShows(page, state, what) {
  const want = state.pieces.map((p) => `${p.punct}/${p.level}/${p.side}/${p.kind}`).sort();
  const read = () => page.locator(`${BOARD} [data-piece-cell]`).evaluateAll((els) =>
    els.map((e) => `${e.dataset.pieceCell}/${e.dataset.level}/${e.dataset.side}/${e.dataset.kind}`).sort());
  const end = Date.now() + T.step;
  let got;
  for (;;) {
    got = await read();
    if (JSON.stringify(got) === JSON.stringify(want)) return;
    if (Date.now() > end) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: the board should show the ${want.length} pieces of ply ${state.ply} ${JSON.stringify(want)} but shows ${JSON.stringify(got)}`);
}
